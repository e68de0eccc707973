/**
 * The components of the app: one list reader and one component per todo, each reading its own
 * todo with `useSuspense(TodoResource.get, { id })` (as issue 18 measures it), and one reader of
 * another resource. Each counts its renders. Rows are `memo`'d: when the list renders again, a row
 * renders only if its own hook asks for it.
 */
import { memo, Suspense } from 'react';
import type { Controller } from 'restlens';
import { DataProvider, useController, useSuspense } from 'restlens/react';
import { ProjectResource, TodoResource } from './resources.js';
import { PROJECT_ID } from './server.js';

/** Component renders since the last reset (mounts included). */
export const renders = { count: 0 };

export function TodoApp({ onController }: { onController(controller: Controller): void }) {
  return (
    <DataProvider>
      <ControllerOf onController={onController} />
      <Suspense fallback={<p>Loading…</p>}>
        <ProjectName />
        <TodoList />
      </Suspense>
    </DataProvider>
  );
}

function TodoList() {
  renders.count++;
  const todos = useSuspense(TodoResource.getList);
  return (
    <ul data-list>
      {todos.map((todo) => (
        <TodoRow key={todo.id} id={todo.id} />
      ))}
    </ul>
  );
}

const TodoRow = memo(function TodoRow({ id }: { id: string }) {
  renders.count++;
  const todo = useSuspense(TodoResource.get, { id });
  return (
    <li data-id={id}>
      <span data-title>{todo.title}</span> by <span data-author>{todo.author.name}</span>
    </li>
  );
});

function ProjectName() {
  renders.count++;
  const project = useSuspense(ProjectResource.get, { id: PROJECT_ID });
  return <h1 data-project>{project.name}</h1>;
}

/** Hands the store's controller to the harness (not counted: it reads no data). */
function ControllerOf({ onController }: { onController(controller: Controller): void }) {
  onController(useController());
  return null;
}
