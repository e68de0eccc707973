import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  ExpiryStatus,
  NetworkError,
  type SnapshotInterface,
  schema,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, ids, invalidated, lastRequest, rows, Todo, track } from './support.js';

const server = serverPerTest({ todos: FOUR_TODOS });

type Ids = { ids: readonly (number | string)[] };

/** Spec 4.5: the result is built from the argument ids, whatever the server answered. */
function idsToEntities(_value: unknown, params: Ids) {
  return params.ids.map((id) => ({ id }));
}

/** The resource of the brief: `extend('deleteMany', …)` in the add form. */
function batchResource() {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    searchParams: {} as { userId?: number },
  }).extend('deleteMany', {
    path: '/todos',
    method: 'DELETE',
    searchParams: {} as Ids,
    schema: [new schema.Invalidate(Todo)],
    process: idsToEntities,
  });
}

/** A store holding the lists `{}`, `{userId: 1}`, `{userId: 2}` and todo 1 fetched by `get`. */
async function loadedStore(
  TodoResource: Pick<ReturnType<typeof batchResource>, 'get' | 'getList'>,
) {
  const store = createStore();
  await store.controller.fetch(TodoResource.getList, {});
  await store.controller.fetch(TodoResource.getList, { userId: 1 });
  await store.controller.fetch(TodoResource.getList, { userId: 2 });
  await store.controller.fetch(TodoResource.get, { id: 1 });
  return store;
}

describe('batch deletion (4.5)', () => {
  it('deleteMany is a DELETE of the list path with the ids in the query, and no body', async () => {
    const TodoResource = batchResource();
    const { deleteMany } = TodoResource;
    expect([deleteMany.name, deleteMany.method, deleteMany.path, deleteMany.sideEffect]).toEqual([
      'Todo.deleteMany',
      'DELETE',
      '/todos',
      true,
    ]);
    const { controller } = createStore();
    await controller.fetch(deleteMany, { ids: [1, 3] });
    const request = lastRequest(server);
    expect(`${request.method} ${request.url}`).toBe('DELETE /todos?ids=1&ids=3');
    expect(request.body).toBe('');
    expect(server.todos.map((todo) => todo.id)).toEqual([2, 4]);
  });

  it('its result is built from the argument ids; the empty-string answer is accepted', async () => {
    const TodoResource = batchResource();
    const result = await TodoResource.deleteMany({ ids: [1, 3] });
    expect(result).toEqual([{ id: 1 }, { id: 3 }]);
    const response = await fetch(`${server.url}/todos?ids=2`, { method: 'DELETE' });
    expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([
      200,
      'application/json',
      '',
    ]);
  });

  it('every listed entity is invalidated and removed from every list', async () => {
    const TodoResource = batchResource();
    const { controller, getState } = await loadedStore(TodoResource);
    await controller.fetch(TodoResource.deleteMany, { ids: [1, 3] });
    const state = getState();
    expect(invalidated(state, '1')).toBe(true);
    expect(invalidated(state, '3')).toBe(true);
    expect(invalidated(state, '2')).toBe(false);
    expect(rows(state)).toEqual({
      '{}': ['2', '4'],
      '{"userId":"1"}': ['2'],
      '{"userId":"2"}': ['4'],
    });
    expect(ids(controller.getResponse(TodoResource.getList, {}, state).data)).toEqual([2, 4]);
    const single = controller.getResponse(TodoResource.get, { id: 1 }, state);
    expect(single.data).toBeUndefined();
    expect(single.expiryStatus).toBe(ExpiryStatus.Invalid);
  });

  it('string ids invalidate the numeric-pk entities they name', async () => {
    const TodoResource = batchResource();
    const { controller, getState } = await loadedStore(TodoResource);
    await controller.fetch(TodoResource.deleteMany, { ids: ['2', '4'] });
    expect(lastRequest(server).url).toBe('/todos?ids=2&ids=4');
    expect(rows(getState())).toEqual({
      '{}': ['1', '3'],
      '{"userId":"1"}': ['1'],
      '{"userId":"2"}': ['3'],
    });
  });

  it('an empty list of ids invalidates nothing', async () => {
    const TodoResource = batchResource();
    const { controller, getState } = await loadedStore(TodoResource);
    const before = getState();
    await controller.fetch(TodoResource.deleteMany, { ids: [] });
    expect(lastRequest(server).url).toBe('/todos?ids=');
    expect(getState().entities).toBe(before.entities);
  });

  it('a failed batch delete invalidates nothing', async () => {
    const TodoResource = batchResource();
    const { controller, getState } = await loadedStore(TodoResource);
    const before = getState();
    server.failNext(500);
    await expect(controller.fetch(TodoResource.deleteMany, { ids: [1, 3] })).rejects.toBeInstanceOf(
      NetworkError,
    );
    expect(getState().entities).toBe(before.entities);
    expect(server.todos).toEqual(FOUR_TODOS);
  });
});

describe('batch deletion with optimistic updates', () => {
  /** Built from `delete` in the function form, with the optimistic result made from the ids. */
  function optimisticBatchResource() {
    return createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      searchParams: {} as { userId?: number },
      optimistic: true,
    }).extend((base) => ({
      deleteMany: base.delete.extend({
        path: '/todos',
        name: 'Todo.deleteMany',
        searchParams: {} as Ids,
        schema: [new schema.Invalidate(Todo)],
        process: idsToEntities,
        getOptimisticResponse: (_snapshot: SnapshotInterface, params: Ids) =>
          idsToEntities(undefined, params),
      }),
    }));
  }

  it('the listed entities disappear before the server answers, and stay gone', async () => {
    const TodoResource = optimisticBatchResource();
    const { controller, getState } = await loadedStore(TodoResource);
    server.setDelay(150);
    const pending = track(controller.fetch(TodoResource.deleteMany, { ids: [1, 3] }));
    expect(invalidated(getState(), '1')).toBe(true);
    expect(invalidated(getState(), '3')).toBe(true);
    const optimisticRows = {
      '{}': ['2', '4'],
      '{"userId":"1"}': ['2'],
      '{"userId":"2"}': ['4'],
    };
    expect(rows(getState())).toEqual(optimisticRows);
    const request = await server.waitForRequest(5);
    expect(`${request.method} ${request.url}`).toBe('DELETE /todos?ids=1&ids=3');
    expect(pending.settled).toBe(false);
    await pending.promise;
    expect(rows(getState())).toEqual(optimisticRows);
    expect(invalidated(getState(), '1')).toBe(true);
    expect(getState().optimistic).toEqual([]);
    expect(server.todos.map((todo) => todo.id)).toEqual([2, 4]);
  });

  it('a failure puts every listed entity back where it was', async () => {
    const TodoResource = optimisticBatchResource();
    const { controller, getState } = await loadedStore(TodoResource);
    const before = getState();
    server.setDelay(100);
    server.failNext(503);
    const pending = track(controller.fetch(TodoResource.deleteMany, { ids: [1, 3] }));
    expect(rows(getState())).toEqual({
      '{}': ['2', '4'],
      '{"userId":"1"}': ['2'],
      '{"userId":"2"}': ['4'],
    });
    await expect(pending.promise).rejects.toMatchObject({ status: 503 });
    expect(getState().entities).toBe(before.entities);
    expect(rows(getState())).toEqual({
      '{}': ['1', '2', '3', '4'],
      '{"userId":"1"}': ['1', '2'],
      '{"userId":"2"}': ['3', '4'],
    });
    expect(ids(controller.getResponse(TodoResource.getList, {}, getState()).data)).toEqual([
      1, 2, 3, 4,
    ]);
  });
});

describe("batch deletion in data-client's documented form: a list of ids as the argument", () => {
  /** `Invalidate.md`'s example: `body: [] as string[]`, the result built in `process`. */
  function docsResource(optimistic: boolean) {
    return createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      optimistic,
    }).extend('deleteMany', {
      path: '/todos',
      method: 'DELETE',
      body: [] as string[],
      schema: [new schema.Invalidate(Todo)],
      process(_value: unknown, body: readonly string[]) {
        return body.map((id) => ({ id }));
      },
    });
  }

  it.each([
    ['an empty body', ''],
    ['the JSON string ""', '""'],
  ])('answered with %s, every listed entity is invalidated', async (_case, rawBody) => {
    const TodoResource = docsResource(false);
    const { controller, getState } = await loadedStore(TodoResource);
    server.respondNext({ status: 200, rawBody });
    const result = await controller.fetch(TodoResource.deleteMany, ['1', '3']);
    expect(result.map((todo) => [todo instanceof Todo, todo.id])).toEqual([
      [true, '1'],
      [true, '3'],
    ]);
    // DELETE sends no body, as in data-client: the list is the query.
    const request = lastRequest(server);
    expect([request.method, request.url, request.body]).toEqual(['DELETE', '/todos?0=1&1=3', '']);
    expect(['1', '2', '3', '4'].filter((id) => invalidated(getState(), id))).toEqual(['1', '3']);
    expect(rows(getState())).toEqual({
      '{}': ['2', '4'],
      '{"userId":"1"}': ['2'],
      '{"userId":"2"}': ['4'],
    });
  });

  it('with optimistic: true on the resource, the entities leave before the server answers', async () => {
    const TodoResource = docsResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    server.setDelay(150);
    server.respondNext({ status: 200, rawBody: '' });
    const pending = track(controller.fetch(TodoResource.deleteMany, ['2', '4']));
    expect(pending.settled).toBe(false);
    expect(rows(getState())).toEqual({
      '{}': ['1', '3'],
      '{"userId":"1"}': ['1'],
      '{"userId":"2"}': ['3'],
    });
    expect(invalidated(getState(), '2')).toBe(true);
    await pending.promise;
    expect(getState().optimistic).toEqual([]);
    expect(['1', '2', '3', '4'].filter((id) => invalidated(getState(), id))).toEqual(['2', '4']);
  });

  it('with optimistic: true, a failure puts the entities back', async () => {
    const TodoResource = docsResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const before = getState();
    server.setDelay(100);
    server.failNext(500);
    const pending = track(controller.fetch(TodoResource.deleteMany, ['1']));
    expect(rows(getState())['{}']).toEqual(['2', '3', '4']);
    await expect(pending.promise).rejects.toMatchObject({ status: 500 });
    expect(getState().entities).toBe(before.entities);
    expect(rows(getState())['{}']).toEqual(['1', '2', '3', '4']);
  });

  it('without optimistic, nothing leaves before the server answers', async () => {
    const TodoResource = docsResource(false);
    const { controller, getState } = await loadedStore(TodoResource);
    server.setDelay(100);
    server.respondNext({ status: 200, rawBody: '' });
    const pending = track(controller.fetch(TodoResource.deleteMany, ['1']));
    expect(rows(getState())['{}']).toEqual(['1', '2', '3', '4']);
    await pending.promise;
    expect(rows(getState())['{}']).toEqual(['2', '3', '4']);
  });

  it('an optimistic resource gives other new members no optimistic response of their own', () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      optimistic: true,
    }).extend('toggle', { path: '/todos/:id/toggle', method: 'POST' });
    expect(TodoResource.toggle.getOptimisticResponse).toBeUndefined();
    expect(TodoResource.delete.getOptimisticResponse).toBeTypeOf('function');
  });
});
