import { describe, expect, it } from 'vitest';
import { createResource, createStore, NetworkError } from '../../src/index.js';
import { plain } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, ids, invalidated, row, rows, Todo, type TodoBody, track } from './support.js';

/** How long the server waits before answering: long enough to look at the store meanwhile. */
const SLOW_MS = 200;

const server = serverPerTest({ todos: FOUR_TODOS });

function todoResource(optimistic: boolean) {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    searchParams: {} as { userId?: number },
    body: {} as TodoBody,
    optimistic,
  });
}

/** A store holding the lists `{}` and `{userId: 1}` and todo 1 fetched by `get`. */
async function loadedStore(TodoResource: ReturnType<typeof todoResource>) {
  const store = createStore();
  await store.controller.fetch(TodoResource.getList, {});
  await store.controller.fetch(TodoResource.getList, { userId: 1 });
  await store.controller.fetch(TodoResource.get, { id: 1 });
  server.setDelay(SLOW_MS);
  return store;
}

/** Waits until the server holds the request (it answers only SLOW_MS later). */
async function requestArrived(count: number) {
  const request = await server.waitForRequest(count);
  return `${request.method} ${request.url}`;
}

describe('optimistic: true shows each mutation before the server answers', () => {
  it('update: the entity shows the sent fields at once', async () => {
    const TodoResource = todoResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const body = { title: 'replaced', completed: true, userId: 1 };
    const pending = track(controller.fetch(TodoResource.update, { id: 1 }, body));
    expect(row(getState(), '1')).toEqual({ id: 1, ...body });
    expect(await requestArrived(4)).toBe('PUT /todos/1');
    expect(pending.settled).toBe(false);
    const read = controller.getResponse(TodoResource.get, { id: 1 }, getState());
    expect(read.data).toEqual({ id: 1, ...body });
    await pending.promise;
    expect(row(getState(), '1')).toEqual({ id: 1, ...body });
    expect(getState().optimistic).toEqual([]);
  });

  it('partialUpdate: the stored entity with the sent fields merged in', async () => {
    const TodoResource = todoResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const pending = track(
      controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'patched' }),
    );
    expect(row(getState(), '2')).toEqual({ ...FOUR_TODOS[1], title: 'patched' });
    expect(await requestArrived(4)).toBe('PATCH /todos/2');
    expect(pending.settled).toBe(false);
    const list = controller.getResponse(TodoResource.getList, { userId: 1 }, getState()).data;
    expect(list?.map((todo) => todo.title)).toEqual(['write tests', 'patched']);
    await pending.promise;
    expect(row(getState(), '2')).toEqual({ ...FOUR_TODOS[1], title: 'patched' });
  });

  it('partialUpdate of an entity the store does not hold shows nothing until the answer', async () => {
    const TodoResource = todoResource(true);
    const { controller, getState } = createStore();
    server.setDelay(SLOW_MS);
    const before = getState();
    const pending = track(controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'x' }));
    expect(getState().entities).toBe(before.entities);
    expect(await requestArrived(1)).toBe('PATCH /todos/3');
    expect(row(getState(), '3')).toBeUndefined();
    await pending.promise;
    expect(row(getState(), '3')).toEqual({ ...FOUR_TODOS[2], title: 'x' });
  });

  it('delete: the entity is INVALID and gone from every list at once', async () => {
    const TodoResource = todoResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const pending = track(controller.fetch(TodoResource.delete, { id: 1 }));
    expect(invalidated(getState(), '1')).toBe(true);
    expect(rows(getState())).toEqual({ '{}': ['2', '3', '4'], '{"userId":"1"}': ['2'] });
    expect(await requestArrived(4)).toBe('DELETE /todos/1');
    expect(pending.settled).toBe(false);
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data).toBeUndefined();
    await pending.promise;
    expect(invalidated(getState(), '1')).toBe(true);
    expect(rows(getState())).toEqual({ '{}': ['2', '3', '4'], '{"userId":"1"}': ['2'] });
  });

  it('getList.push: the body shows at the end of the matching lists, then the created entity', async () => {
    const TodoResource = todoResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const pending = track(
      controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'pushed', userId: 1 }),
    );
    const during = controller.getResponse(TodoResource.getList, { userId: 1 }, getState()).data;
    expect(during?.map((todo) => todo.title)).toEqual(['write tests', 'fix bugs', 'pushed']);
    const all = controller.getResponse(TodoResource.getList, {}, getState()).data;
    expect(all?.at(-1)?.title).toBe('pushed');
    expect(await requestArrived(4)).toBe('POST /todos?userId=1');
    expect(pending.settled).toBe(false);
    const created = await pending.promise;
    expect(created).toEqual({ id: 5, title: 'pushed', completed: false, userId: 1 });
    // The optimistic stand-in is gone; the server's entity took its place.
    expect(rows(getState())).toEqual({
      '{}': ['1', '2', '3', '4', '5'],
      '{"userId":"1"}': ['1', '2', '5'],
    });
    expect(Object.keys(plain(getState().entities).Todo ?? {})).toEqual(['1', '2', '3', '4', '5']);
  });

  it('getList.push: the stand-in takes the URL parameters under the body, as data-client', async () => {
    const TodoResource = todoResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const pending = track(
      controller.fetch(
        TodoResource.getList.push,
        { userId: 1 },
        { title: 'mine', completed: true },
      ),
    );
    const during = controller.getResponse(TodoResource.getList, { userId: 1 }, getState()).data;
    expect(during?.at(-1)).toMatchObject({ title: 'mine', completed: true, userId: 1 });
    // A body field wins over the URL parameter of the same name.
    await pending.promise;
    const unshifted = track(
      controller.fetch(TodoResource.getList.unshift, { userId: 1 }, { title: 'theirs', userId: 2 }),
    );
    const first = controller.getResponse(TodoResource.getList, {}, getState()).data?.[0];
    expect(first).toMatchObject({ title: 'theirs', userId: 2 });
    await unshifted.promise;
  });

  it('getList.unshift: the body shows at the start of the matching lists', async () => {
    const TodoResource = todoResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const pending = track(
      controller.fetch(TodoResource.getList.unshift, { userId: 1 }, { title: 'first' }),
    );
    const during = controller.getResponse(TodoResource.getList, { userId: 1 }, getState()).data;
    expect(during?.map((todo) => todo.title)).toEqual(['first', 'write tests', 'fix bugs']);
    expect(await requestArrived(4)).toBe('POST /todos?userId=1');
    expect(pending.settled).toBe(false);
    await pending.promise;
    expect(rows(getState())).toEqual({
      '{}': ['5', '1', '2', '3', '4'],
      '{"userId":"1"}': ['5', '1', '2'],
    });
  });

  it('without optimistic, nothing shows before the server answers', async () => {
    const TodoResource = todoResource(false);
    const { controller, getState } = await loadedStore(TodoResource);
    const before = getState();
    const update = track(controller.fetch(TodoResource.update, { id: 1 }, { title: 'slow' }));
    const push = track(controller.fetch(TodoResource.getList.push, {}, { title: 'slow push' }));
    const remove = track(controller.fetch(TodoResource.delete, { id: 2 }));
    await server.waitForRequest(6);
    expect([update.settled, push.settled, remove.settled]).toEqual([false, false, false]);
    expect(getState()).toBe(before);
    await Promise.all([update.promise, push.promise, remove.promise]);
    expect(row(getState(), '1')).toMatchObject({ title: 'slow' });
    expect(invalidated(getState(), '2')).toBe(true);
  });
});

describe('optimistic: true rolls back when the server fails', () => {
  const mutations = [
    ['update', (R: ReturnType<typeof todoResource>) => [R.update, { id: 1 }, { title: 'no' }]],
    [
      'partialUpdate',
      (R: ReturnType<typeof todoResource>) => [R.partialUpdate, { id: 1 }, { title: 'no' }],
    ],
    ['delete', (R: ReturnType<typeof todoResource>) => [R.delete, { id: 1 }]],
    [
      'getList.push',
      (R: ReturnType<typeof todoResource>) => [R.getList.push, { userId: 1 }, { title: 'no' }],
    ],
    [
      'getList.unshift',
      (R: ReturnType<typeof todoResource>) => [R.getList.unshift, { userId: 1 }, { title: 'no' }],
    ],
  ] as const;

  it.each(mutations)('%s: the store is what it was', async (_name, call) => {
    const TodoResource = todoResource(true);
    const { controller, getState } = await loadedStore(TodoResource);
    const before = getState();
    const [endpoint, ...args] = call(TodoResource) as unknown as [
      typeof TodoResource.update,
      ...Parameters<typeof TodoResource.update>,
    ];
    server.failNext(500, { error: 'rejected' });
    const pending = track(controller.fetch(endpoint, ...args));
    expect(getState()).not.toEqual(before); // the optimistic result shows meanwhile
    await server.waitForRequest(4);
    expect(pending.settled).toBe(false);
    const error = await pending.promise.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 500 });
    const after = getState();
    // The error went to the caller; a mutation's outcome is not kept in the store.
    expect(after.entities).toBe(before.entities);
    expect(after.entitiesMeta).toBe(before.entitiesMeta);
    expect(after.endpoints).toBe(before.endpoints);
    expect(after.meta).toBe(before.meta);
    expect(after.optimistic).toEqual([]);
    expect(ids(controller.getResponse(TodoResource.getList, {}, after).data)).toEqual([1, 2, 3, 4]);
    expect(server.todos).toEqual(FOUR_TODOS);
  });
});
