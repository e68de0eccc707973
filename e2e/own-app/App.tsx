// The app's one component, written as a React app writes it; a Preact app runs it unchanged
// through preact/compat. Exported both ways: the React template's main.tsx imports the default,
// the Preact template's the named one.
import { Suspense } from 'react';
import { DataProvider, useController, useSuspense } from 'restlens/react';
import { TodoResource } from './api';

function TodoList() {
  const todos = useSuspense(TodoResource.getList, { userId: 1 });
  const controller = useController();
  const add = () =>
    controller.fetch(
      TodoResource.getList.push,
      { userId: 1 },
      { title: 'Try RestLens', userId: 1 },
    );
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

export function App() {
  return (
    <DataProvider>
      <h1>Todos</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <TodoList />
      </Suspense>
    </DataProvider>
  );
}

export default App;
