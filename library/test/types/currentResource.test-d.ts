import { describe, expectTypeOf, it } from 'vitest';
import { type CollectionMover, type CollectionRemover, resource, schema } from '../../src/index.js';
import { type Id, Todo, type TodoBody } from './support.js';

/** `/groups/:group/todos/:id` made by `resource()`, with typed search parameters and body. */
const TodoResource = resource({
  path: '/groups/:group/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
  body: {} as TodoBody,
  paginationField: 'page',
  nonFilterArgumentKeys: ['orderBy'],
});

describe('resource() types its members as createResource does', () => {
  it('get and getList take the path parameters; the list drops the last one', () => {
    expectTypeOf(TodoResource.get).parameters.toEqualTypeOf<[params: { group: Id; id: Id }]>();
    expectTypeOf(TodoResource.getList).parameters.branded.toEqualTypeOf<
      [params: { group: Id; userId?: number }]
    >();
    expectTypeOf(TodoResource.getList.getPage).toBeCallableWith({ group: 'a', page: 2 });
    // @ts-expect-error the page needs its pagination field
    TodoResource.getList.getPage({ group: 'a' });
    expectTypeOf(TodoResource.getList.schema.move).toEqualTypeOf<CollectionMover<[typeof Todo]>>();
  });
});

describe('getList.remove and getList.move', () => {
  it('remove takes the list arguments and the entity, and resolves to it', () => {
    expectTypeOf(TodoResource.getList.remove).toBeCallableWith(
      { group: 'a', userId: 1 },
      { id: 5 },
    );
    expectTypeOf(TodoResource.getList.remove.schema).toEqualTypeOf<
      CollectionRemover<[typeof Todo]>
    >();
    expectTypeOf(
      TodoResource.getList.remove({ group: 'a' }, { id: 5 }),
    ).resolves.toEqualTypeOf<Todo>();
    // @ts-expect-error the list's path parameter is required
    TodoResource.getList.remove({ userId: 1 }, { id: 5 });
    // @ts-expect-error `idd` is no field of a Todo
    TodoResource.getList.remove({ group: 'a' }, { idd: 5 });
  });

  it("move takes the entity's URL parameters and a part of the body, and resolves to it", () => {
    expectTypeOf(TodoResource.getList.move).parameters.toEqualTypeOf<
      [params: { group: Id; id: Id }, body: Partial<TodoBody> | FormData]
    >();
    expectTypeOf(TodoResource.getList.move.schema).toEqualTypeOf<CollectionMover<[typeof Todo]>>();
    expectTypeOf(
      TodoResource.getList.move({ group: 'a', id: 1 }, { completed: true }),
    ).resolves.toEqualTypeOf<Todo>();
    // @ts-expect-error move needs the entity's `id`
    TodoResource.getList.move({ group: 'a' }, { completed: true });
    // @ts-expect-error `done` is not in the body type
    TodoResource.getList.move({ group: 'a', id: 1 }, { done: true });
  });

  it('schema.Collection has remove, move and moveWith', () => {
    const list = new schema.Collection([Todo]);
    expectTypeOf(list.remove).toEqualTypeOf<CollectionRemover<(typeof Todo)[]>>();
    expectTypeOf(list.move).toEqualTypeOf<CollectionMover<(typeof Todo)[]>>();
    expectTypeOf(list.moveWith).returns.toEqualTypeOf<CollectionMover<(typeof Todo)[]>>();
  });
});
