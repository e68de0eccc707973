import { describe, expectTypeOf, it } from 'vitest';
import {
  type AbortOptimistic,
  createStore,
  type Denormalize,
  resource,
  type SnapshotInterface,
  schema,
} from '../../src/index.js';
import { useCancelling, useQuery } from '../../src/react/index.js';
import { Todo, type TodoBody } from './support.js';

const TodoResource = resource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
  body: {} as TodoBody,
});
const byUser = new schema.Query(new schema.All(Todo), (todos, { userId }: { userId: number }) =>
  todos.filter((todo) => todo.userId === userId),
);
const { controller } = createStore();
const state = controller.getState();

describe('useQuery', () => {
  it("reads a schema.Query as its process's output, or undefined", () => {
    expectTypeOf(useQuery(byUser, { userId: 1 })).toEqualTypeOf<Todo[] | undefined>();
    expectTypeOf(useQuery(byUser, null)).toEqualTypeOf<Todo[] | undefined>();
    // @ts-expect-error the Query's arguments are typed
    useQuery(byUser, { userId: 'one' });
  });

  it('reads an entity or a list schema as its reading, or undefined', () => {
    expectTypeOf(useQuery(Todo, { id: 1 })).toEqualTypeOf<Todo | undefined>();
    expectTypeOf(useQuery(TodoResource.getList.schema, { userId: 1 })).toEqualTypeOf<
      Todo[] | undefined
    >();
  });
});

describe('useCancelling', () => {
  it('gives the endpoint it was given, with the same arguments', () => {
    expectTypeOf(useCancelling(TodoResource.get, { id: 1 })).toEqualTypeOf(TodoResource.get);
    expectTypeOf(useCancelling(TodoResource.get, null)).toEqualTypeOf(TodoResource.get);
    // @ts-expect-error get needs its id
    useCancelling(TodoResource.get, {});
  });
});

describe('the Controller of current data-client', () => {
  it('get and getQueryMeta read a Query or a schema', () => {
    expectTypeOf(controller.get(byUser, { userId: 1 }, state)).toEqualTypeOf<Todo[] | undefined>();
    expectTypeOf(controller.get(Todo, { id: 1 }, state)).toEqualTypeOf<Todo | undefined>();
    expectTypeOf(controller.getQueryMeta(byUser, { userId: 1 }, state)).toEqualTypeOf<{
      data: Todo[] | undefined;
    }>();
  });

  it('set takes a value or an updater given the reading', () => {
    expectTypeOf(controller.set(Todo, { id: 1 }, { id: 1, title: 'x' })).toEqualTypeOf<
      Promise<void>
    >();
    controller.set(Todo, { id: 1 }, (previous) => {
      expectTypeOf(previous).toEqualTypeOf<Todo | undefined>();
      return { ...previous, completed: true };
    });
    // @ts-expect-error the value is an object (or an updater)
    controller.set(Todo, { id: 1 }, 5);
  });

  it('getResponseMeta reads as getResponse does', () => {
    expectTypeOf(controller.getResponseMeta(TodoResource.get, { id: 1 }, state)).toEqualTypeOf(
      controller.getResponse(TodoResource.get, { id: 1 }, state),
    );
  });
});

describe('schema.Lazy', () => {
  class Building extends Todo {}
  const buildings = new schema.Lazy([Building]);
  const head = new schema.Lazy(Building);
  it('reads as the stored pks; its query as the entities', () => {
    expectTypeOf<Denormalize<typeof buildings>>().toEqualTypeOf<string[]>();
    expectTypeOf<Denormalize<typeof head>>().toEqualTypeOf<string>();
    expectTypeOf(useQuery(buildings.query, ['1'])).toEqualTypeOf<Building[] | undefined>();
    expectTypeOf(controller.get(head.query, { id: 1 }, state)).toEqualTypeOf<
      Building | undefined
    >();
  });
});

describe('snapshot.abort', () => {
  it('is an AbortOptimistic to throw', () => {
    expectTypeOf<SnapshotInterface['abort']>().toEqualTypeOf<AbortOptimistic>();
  });
});
