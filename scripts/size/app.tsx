/**
 * The typical app whose production bundle `npm run size` measures (and
 * library/test/package/bundleSize.test.ts keeps within its budget): one resource, a provider, a
 * list read with useSuspense and a push through useController, as the README's quick start writes
 * it. It imports the package by its name, as an app does; React is the app's own (external).
 */
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createResource, Entity } from 'restlens';
import { DataProvider, useController, useSuspense } from 'restlens/react';

class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  userId = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
});

function TodoList() {
  const todos = useSuspense(TodoResource.getList, { userId: 1 });
  const controller = useController();
  const add = () =>
    controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'New', userId: 1 });
  return (
    <>
      <ul>
        {todos.map((todo) => (
          <li key={todo.id}>{todo.title}</li>
        ))}
      </ul>
      <button type="button" onClick={add}>
        Add a todo
      </button>
    </>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <DataProvider>
      <Suspense fallback="Loading…">
        <TodoList />
      </Suspense>
    </DataProvider>,
  );
