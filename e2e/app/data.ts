/** The demo's in-memory data: users, their todos, and a feed of notes and links. */
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

/** An item of the feed: a note or a link (a `schema.Union` in the apps that read it). */
export type FeedItem =
  | { id: number; type: 'note'; text: string }
  | { id: number; type: 'link'; url: string };

export function seedFeed(): FeedItem[] {
  return [
    { id: 1, type: 'note', text: 'Welcome to the demo' },
    { id: 2, type: 'link', url: 'https://example.com/docs' },
    { id: 3, type: 'note', text: 'Open the RestLens panel' },
  ];
}
