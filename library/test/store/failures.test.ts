import { describe, expect, it } from 'vitest';
import { Endpoint, SchemaError, type State } from '../../src/index.js';
import { plain, todoList } from '../fixtures.js';
import { HttpError } from '../helpers/todoApi.js';

import { ids, todoStorePerTest } from './support.js';

const { server, api, store } = todoStorePerTest();

/** Everything in `after` is `before` (same objects) except `meta[key]`, which holds `error`. */
function expectOnlyErrorMetaChanged(before: State, after: State, key: string, error: unknown) {
  expect(after.entities).toBe(before.entities);
  expect(after.endpoints).toBe(before.endpoints);
  expect(after.indexes).toBe(before.indexes);
  expect(after.entitiesMeta).toBe(before.entitiesMeta);
  expect(after.optimistic).toBe(before.optimistic);
  expect(after.lastReset).toBe(before.lastReset);
  const errorMeta = after.meta.get(key);
  const otherMeta = after.meta.delete(key);
  expect([...otherMeta.keys()]).toEqual([...before.meta.delete(key).keys()]);
  for (const [other, meta] of otherMeta) expect(meta).toBe(before.meta.get(other));
  expect(errorMeta?.error).toBe(error);
  expect(errorMeta?.expiresAt).toBe(errorMeta!.date + 1_000);
}

/** `after` holds the very tables of `before`: a failed mutation's error goes to its caller only. */
function expectNothingChanged(before: State, after: State) {
  for (const part of ['entities', 'endpoints', 'meta', 'indexes', 'entitiesMeta'] as const)
    expect(after[part]).toBe(before[part]);
  expect(after.optimistic).toBe(before.optimistic);
}

describe('a failed fetch', () => {
  it('stores error meta for its key on HTTP 500, rejects with the error, and changes nothing else', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    await controller.fetch(api.getTodo, { id: 3 });
    const before = getState();

    server.failNext(500, { error: 'database down' });
    const error = await controller.fetch(api.getTodos, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 500, body: { error: 'database down' } });

    const key = api.getTodos.key({});
    expectOnlyErrorMetaChanged(before, getState(), key, error);
    // The list held before still reads the same.
    expect(ids(controller.getResponse(api.getTodos, {}, getState()).data)).toEqual([1, 2, 3]);
  });

  it('stores error meta on a network failure (server gone) and changes nothing else', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, { userId: 1 });
    const before = getState();
    await server.close();

    const error = await controller.fetch(api.getTodo, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).toMatch(/fetch failed/);
    expectOnlyErrorMetaChanged(before, getState(), api.getTodo.key({ id: 1 }), error);
  });

  it('leaves the data alone when a mutation fails', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const before = getState();
    const listBefore = controller.getResponse(api.getTodos, {}, before).data;

    server.failNext(422, { error: 'title too long' });
    const error = await controller
      .fetch(api.updateTodo, { id: 1 }, { title: 'x'.repeat(500) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422 });
    expectNothingChanged(before, getState());
    expect(controller.getResponse(api.getTodos, {}, getState()).data).toBe(listBefore);
  });
});

describe('a response that does not match the schema', () => {
  it('rejects naming the entity and the item without a pk, and stores nothing of the list', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodo, { id: 3 });
    const before = getState();
    server.respondNext({
      body: [
        { id: 1, title: 'renamed by the bad response', completed: false, userId: 1 },
        { title: 'no id here', userId: 1 },
      ],
    });

    const error = await controller.fetch(api.getTodos, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toContain('Todo');
    expect((error as Error).message).toContain('{"title":"no id here","userId":1}');
    expect((error as SchemaError).input).toEqual({ title: 'no id here', userId: 1 });

    // Not even the valid first item was stored.
    const key = api.getTodos.key({});
    expectOnlyErrorMetaChanged(before, getState(), key, error);
    expect(plain(getState().entities).Todo?.['1']).toBeUndefined();
    expect(plain(getState().entities)['[Todo]']).toBeUndefined();
  });

  it('names the nested entity that lacks its pk', async () => {
    const { controller, getState } = store;
    const before = getState();
    server.respondNext({
      body: { id: 1, title: 'a', author: { name: 'nobody' } },
    });
    const error = await controller.fetch(api.getTodo, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(/^User/);
    expect((error as Error).message).toContain('{"name":"nobody"}');
    expectOnlyErrorMetaChanged(before, getState(), api.getTodo.key({ id: 1 }), error);
  });

  it('rejects a text body where an entity was expected, naming the entity and the text', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const before = getState();
    server.respondNext({ body: '<html>502 Bad Gateway</html>', contentType: 'text/html' });

    const error = await controller.fetch(api.getTodo, { id: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toContain('Todo');
    expect((error as Error).message).toContain('"<html>502 Bad Gateway</html>"');
    expectOnlyErrorMetaChanged(before, getState(), api.getTodo.key({ id: 2 }), error);
  });

  it('rejects a mutation answered with text and keeps the stored entity', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const before = getState();
    server.respondNext({ body: 'OK', contentType: 'text/plain' });

    const error = await controller
      .fetch(api.patchTodo, { id: 1 }, { title: 'new' })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/Todo expects an object but received "OK"/);
    expectNothingChanged(before, getState());
    expect(controller.getResponse(api.getTodos, {}, getState()).data?.[0]?.title).toBe(
      'write tests',
    );
  });
});

describe('a response the store refuses', () => {
  /** The error of each answer the store stored as an error, by whether it kept it, in order. */
  function storedErrors() {
    const errors: { error: unknown; kept: boolean }[] = [];
    store.observe(({ changes }) => {
      for (const change of changes.results)
        if (change.type === 'result-error') errors.push({ error: change.error, kept: change.kept });
    });
    return errors;
  }

  it("rejects a fetch with the very error the store stored for its answer, a mutation's too", async () => {
    const { controller } = store;
    const stored = storedErrors();
    server.respondNext({ body: { title: 'no id' } });
    const readError = await controller.fetch(api.getTodo, { id: 1 }).catch((e: unknown) => e);
    server.respondNext({ body: 'OK', contentType: 'text/plain' });
    const mutationError = await controller
      .fetch(api.patchTodo, { id: 1 }, { title: 'new' })
      .catch((e: unknown) => e);
    expect(readError).toBeInstanceOf(SchemaError);
    expect(mutationError).toBeInstanceOf(SchemaError);
    expect(stored).toEqual([
      { error: readError, kept: true },
      { error: mutationError, kept: false },
    ]);
    expect(stored[0]?.error).toBe(readError);
    expect(stored[1]?.error).toBe(mutationError);
  });

  it("resolves a fetch whose answer was stored, though a newer request's error is its key's meta", async () => {
    const { controller, getState } = store;
    const key = api.getTodo.key({ id: 1 });
    // A newer request failed first: the answer of the older one is stored, not kept.
    const newer = Date.now() + 60_000;
    controller.resolve(api.getTodo, {
      args: [{ id: 1 }],
      error: new Error('newer'),
      fetchedAt: newer,
    });
    const answered = await controller.fetch(api.getTodo, { id: 1 });
    expect(answered).toMatchObject({ id: 1, title: 'write tests' });
    expect(getState().meta.get(key)?.error).toEqual(new Error('newer'));
  });

  it('rejects controller.set with the error the store stored, and writes nothing', async () => {
    const { controller, getState } = store;
    const stored = storedErrors();
    const before = getState();
    const error = await controller
      .set(api.getTodo.schema, { id: 1 }, { title: 'no id' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(stored).toEqual([{ error, kept: false }]);
    expect(getState().entities).toBe(before.entities);
  });
});

describe('a response to an older request', () => {
  /** Stores the server's list now, and returns when that request started. */
  async function fetchNewer() {
    await store.controller.fetch(api.getTodos, {});
    return store.getState().meta.get(api.getTodos.key({}))!.fetchedAt;
  }

  it('never replaces the newer result of its endpoint', async () => {
    const { controller, getState } = store;
    const newerAt = await fetchNewer();
    const before = getState();
    const dataBefore = controller.getResponse(api.getTodos, {}, before).data;

    controller.resolve(api.getTodos, {
      args: [{}],
      response: [
        { id: 3, title: 'ship', completed: false, userId: 2 },
        { id: 1, title: 'write tests', completed: false, userId: 1 },
      ],
      fetchedAt: newerAt - 1_000,
    });
    const state = getState();
    const key = api.getTodos.key({});
    expect(state.endpoints.get(key)).toBe(before.endpoints.get(key));
    expect(state.meta.get(key)).toBe(before.meta.get(key));
    expect(plain(state.entities)['[Todo]']?.['{}']).toEqual(['1', '2', '3']);
    expect(ids(controller.getResponse(api.getTodos, {}, state).data)).toEqual([1, 2, 3]);
    expect(controller.getResponse(api.getTodos, {}, state).data).toBe(dataBefore);
  });

  it('never overwrites newer entity fields, but fills the fields the newer data lacked', async () => {
    const { controller, getState } = store;
    const newerAt = Date.now();
    // The newer response carried only some fields of todo 1.
    controller.resolve(api.getTodo, {
      args: [{ id: 1 }],
      response: { id: 1, title: 'newest title' },
      fetchedAt: newerAt,
    });
    controller.resolve(api.getTodos, {
      args: [{}],
      response: [
        { id: 1, title: 'stale title', completed: true, userId: 1 },
        { id: 5, title: 'only in the old list', userId: 2 },
      ],
      fetchedAt: newerAt - 1_000,
    });

    const state = getState();
    expect(plain(state.entities).Todo?.['1']).toEqual({
      id: 1,
      title: 'newest title',
      completed: true,
      userId: 1,
    });
    // An entity the store did not have is a gap too.
    expect(plain(state.entities).Todo?.['5']).toEqual({
      id: 5,
      title: 'only in the old list',
      userId: 2,
    });
    expect(plain(state.entitiesMeta).Todo?.['1']?.fetchedAt).toBe(newerAt);
    expect(controller.getResponse(api.getTodo, { id: 1 }, state).data).toMatchObject({
      title: 'newest title',
      completed: true,
    });
  });

  it('is stored normally when nothing newer is held', async () => {
    const { controller, getState } = store;
    const newerAt = await fetchNewer();
    controller.resolve(api.getTodos, {
      args: [{ userId: 2 }],
      response: [{ id: 3, title: 'ship', userId: 2 }],
      fetchedAt: newerAt - 1_000,
    });
    expect(ids(controller.getResponse(api.getTodos, { userId: 2 }, getState()).data)).toEqual([3]);
  });

  it('never replaces a newer list stored under the same arguments by another endpoint', async () => {
    // Two endpoints read the same collection row: the row's own time decides.
    const { controller, getState } = store;
    const newerAt = await fetchNewer();
    const mirror = new Endpoint(async (_filter: { userId?: number }) => [], {
      name: 'mirrorTodos',
      schema: todoList,
    });
    controller.resolve(mirror, {
      args: [{}],
      response: [{ id: 2, title: 'fix bugs', userId: 1 }],
      fetchedAt: newerAt - 1_000,
    });
    expect(plain(getState().entities)['[Todo]']?.['{}']).toEqual(['1', '2', '3']);
    expect(ids(controller.getResponse(api.getTodos, {}, getState()).data)).toEqual([1, 2, 3]);
  });
});
