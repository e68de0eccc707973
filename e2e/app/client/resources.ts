import { createResource, Entity, type SnapshotInterface, schema } from 'restlens';

export class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

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

const idsOf = (params: { ids: string }) => params.ids.split(',').map((id) => ({ id: Number(id) }));

export const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
  body: {} as Partial<Todo>,
  paginationField: 'page',
  optimistic: true,
}).extend('deleteMany', {
  path: '/todos',
  method: 'DELETE',
  searchParams: {} as { ids: string },
  schema: [new schema.Invalidate(Todo)],
  // The server answers an empty body: the deleted entities are the ids that were sent.
  process: (_value: unknown, params: { ids: string }) => idsOf(params),
  getOptimisticResponse: (_snapshot: SnapshotInterface, params: { ids: string }) => idsOf(params),
});

export const UserResource = createResource({ path: '/users/:id', schema: User });

/** The demo server's test controls. */
export async function control(action: 'latency' | 'fail-next' | 'reset', body: object = {}) {
  await fetch(`/control/${action}`, { method: 'POST', body: JSON.stringify(body) });
}
