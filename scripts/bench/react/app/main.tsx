/**
 * The entry of a library's page (RestLens, or data-client through the shims): `fetch` goes to the
 * in-memory server, then the app starts, making each change with the library's controller.
 */
import type { Controller } from 'restlens';
import { TodoApp } from './components.js';
import { startBench } from './harness.js';
import { ProjectResource, TodoResource, UserResource } from './resources.js';
import { installServer, PROJECT_ID } from './server.js';

/** Set by the build: the library this page runs on. */
declare const LIBRARY: string;

let mounted: Controller | undefined;
const controller = () => {
  if (!mounted) throw new Error('mount the app first');
  return mounted;
};

installServer();
startBench(LIBRARY, {
  mount: (root, key) =>
    root.render(
      <TodoApp
        key={key}
        onController={(current) => {
          mounted = current;
        }}
      />,
    ),
  updateTodo: (id, title) => controller().fetch(TodoResource.partialUpdate, { id }, { title }),
  updateAuthor: (id, name) => controller().fetch(UserResource.partialUpdate, { id }, { name }),
  unshiftTodo: (title) => controller().fetch(TodoResource.getList.unshift, { title }),
  deleteTodo: (id) => controller().fetch(TodoResource.delete, { id }),
  updateProject: (name) =>
    controller().fetch(ProjectResource.partialUpdate, { id: PROJECT_ID }, { name }),
});
