// The resource of the app docs/getting-started.md's "Use it in your app" writes: the todos of the demo's REST
// server, at `/todos` on the app's own origin (Vite's dev server and `vite preview` proxy it).
import { createResource, Entity } from 'restlens';

export class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  userId = 0;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

export const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
});
