/**
 * The components of the app: one list reader and one component per todo, each reading its own
 * todo with `useSuspense(TodoResource.get, { id })`, and one reader of
 * another resource. Each counts its renders. Rows are `memo`'d: when the list renders again, a row
 * renders only if its own hook asks for it.
 */
import { memo, Suspense } from 'react';
import type { Controller } from 'restlens';
import { DataProvider, useController, useSuspense } from 'restlens/react';
import { projectTitle, renders, todoItem } from './markup.js';
import { ProjectResource, TodoResource } from './resources.js';
import { PROJECT_ID } from './server.js';

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
  return todoItem(useSuspense(TodoResource.get, { id }));
});

function ProjectName() {
  renders.count++;
  return projectTitle(useSuspense(ProjectResource.get, { id: PROJECT_ID }));
}

/** Hands the store's controller to the harness (not counted: it reads no data). */
function ControllerOf({ onController }: { onController(controller: Controller): void }) {
  onController(useController());
  return null;
}
