/** The demo's in-memory data: users and their todos. */
export interface User {
  id: number;
  name: string;
}
export interface Todo {
  id: number;
  title: string;
  completed: boolean;
  userId: number;
}

export function seedUsers(): User[] {
  return [
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Grace' },
  ];
}

export function seedTodos(): Todo[] {
  const titles = [
    'Read the spec',
    'Sketch the schema',
    'Write the resource',
    'Open the devtools',
    'Push a todo',
    'Unshift a todo',
    'Load the next page',
    'Delete a todo',
  ];
  return titles.map((title, index) => ({
    id: index + 1,
    title,
    completed: index % 3 === 0,
    userId: (index % 2) + 1,
  }));
}
