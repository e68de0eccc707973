import { describe, expect, it } from 'vitest';
import { Endpoint, ExpiryStatus } from '../../src/index.js';
import { plain, Todo, todoList } from '../fixtures.js';
import { HttpError, requestJson } from '../helpers/todoApi.js';

import { ids, todoStorePerTest } from './support.js';

const { server, api, store } = todoStorePerTest();

describe('controller.fetch', () => {
  it('runs the endpoint against the server and stores the normalized response', async () => {
    const { controller, getState } = store;
    const before = Date.now();
    const data = await controller.fetch(api.getTodos, {});
    const after = Date.now();

    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /todos']);
    const state = getState();
    expect(plain(state.entities).Todo).toEqual({
      '1': { id: 1, title: 'write tests', completed: false, userId: 1 },
      '2': { id: 2, title: 'fix bugs', completed: true, userId: 1 },
      '3': { id: 3, title: 'ship', completed: false, userId: 2 },
    });
    expect(plain(state.entities)['[Todo]']).toEqual({ '{}': ['1', '2', '3'] });
    const key = api.getTodos.key({});
    expect(plain(state.endpoints)).toEqual({ [key]: '{}' });
    const meta = state.meta.get(key)!;
    expect(meta.error).toBeUndefined();
    expect(meta.fetchedAt).toBeGreaterThanOrEqual(before);
    expect(meta.fetchedAt).toBeLessThanOrEqual(server.requests[0]!.receivedAt);
    expect(meta.date).toBeGreaterThanOrEqual(server.requests[0]!.receivedAt);
    expect(meta.date).toBeLessThanOrEqual(after);
    expect(meta.expiresAt).toBe(meta.date + 60_000);
    // Entities are tracked too, with the same times, and with the places of the request and of
    // its answer in the store's sequence (the store's first request, its answer stored next).
    expect(plain(state.entitiesMeta).Todo?.['2']).toEqual({
      date: meta.date,
      fetchedAt: meta.fetchedAt,
      expiresAt: meta.expiresAt,
      requestId: 1,
      sequence: 2,
    });

    // It resolves after the store holds the response, to the response as the schema reads it:
    // the same entities a reader of the store sees, as instances of their class.
    expect(ids(data)).toEqual([1, 2, 3]);
    expect(data[0]).toBeInstanceOf(Todo);
    expect(data).toStrictEqual(controller.getResponse(api.getTodos, {}, getState()).data);
  });

  it('stamps fetchedAt when the request starts and date when the answer arrives', async () => {
    server.setDelay(60);
    await store.controller.fetch(api.getTodo, { id: 1 });
    const meta = store.getState().meta.get(api.getTodo.key({ id: 1 }))!;
    expect(meta.fetchedAt).toBeLessThanOrEqual(server.requests[0]!.receivedAt);
    expect(meta.date - meta.fetchedAt).toBeGreaterThanOrEqual(50);
  });

  it("sets expiresAt from the endpoint's dataExpiryLength", async () => {
    const getTodo = new Endpoint(
      (params: { id: number }) => requestJson(`${server.url}/todos/${params.id}`),
      { name: 'shortLivedTodo', schema: Todo, dataExpiryLength: 5_000 },
    );
    await store.controller.fetch(getTodo, { id: 3 });
    const meta = store.getState().meta.get(getTodo.key({ id: 3 }))!;
    expect(meta.expiresAt).toBe(meta.date + 5_000);
  });

  it('sends one request for identical GETs in flight and shares its result', async () => {
    const { controller } = store;
    server.setDelay(50);
    const first = controller.fetch(api.getTodos, { userId: 1 });
    const second = controller.fetch(api.getTodos, { userId: 1 });
    // Still in flight once the server has it: a third call joins too.
    await server.waitForRequest(1);
    const third = controller.fetch(api.getTodos, { userId: 1 });
    const results = await Promise.all([first, second, third]);

    expect(server.requests.map((r) => r.url)).toEqual(['/todos?userId=1']);
    expect(ids(results[0])).toEqual([1, 2]);
    expect(results[1]).toBe(results[0]);
    expect(results[2]).toBe(results[0]);

    // Once settled, the same GET is a new request.
    await controller.fetch(api.getTodos, { userId: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it('does not share a request between GETs with different arguments', async () => {
    const { controller } = store;
    const [one, two] = await Promise.all([
      controller.fetch(api.getTodos, { userId: 1 }),
      controller.fetch(api.getTodos, { userId: 2 }),
    ]);
    expect(server.requests.map((r) => r.url).sort()).toEqual([
      '/todos?userId=1',
      '/todos?userId=2',
    ]);
    expect(ids(one)).toEqual([1, 2]);
    expect(ids(two)).toEqual([3]);
  });

  it('never deduplicates mutations, even identical ones', async () => {
    const { controller, getState } = store;
    server.setDelay(30);
    const results = await Promise.all([
      controller.fetch(api.patchTodo, { id: 1 }, { completed: true }),
      controller.fetch(api.patchTodo, { id: 1 }, { completed: true }),
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      'PATCH /todos/1 {"completed":true}',
      'PATCH /todos/1 {"completed":true}',
    ]);
    expect(results.map((todo) => todo.completed)).toEqual([true, true]);
    expect(plain(getState().entities).Todo?.['1']).toMatchObject({ id: 1, completed: true });
  });

  it('resolves a mutation after its response is stored', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const created = await controller.fetch(api.createTodo, {}, { title: 'new', userId: 2 });
    expect(created).toBeInstanceOf(Todo);
    expect(created.id).toBe(4);
    // Right after `await` the list already holds it (pushed at the end).
    expect(ids(controller.getResponse(api.getTodos, {}, getState()).data)).toEqual([1, 2, 3, 4]);
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/todos',
      body: '{"title":"new","userId":2}',
    });
  });
});

describe('controller.fetching', () => {
  it('lists the keys of the reads in flight, once each, until they are answered', async () => {
    const { controller } = store;
    expect(controller.fetching()).toEqual([]);
    const list = controller.fetch(api.getTodos, {});
    const again = controller.fetch(api.getTodos, {}); // shares the request in flight
    expect(controller.fetching()).toEqual([api.getTodos.key({})]);
    await Promise.all([list, again]);
    expect(controller.fetching()).toEqual([]);
  });
});

describe('setResponse and setError', () => {
  it('setResponse stores a response as if the endpoint had answered, without a request', () => {
    const { controller, getState } = store;
    const before = Date.now();
    controller.setResponse(api.getTodos, { userId: 7 }, [{ id: 70, title: 'seventy', userId: 7 }]);
    expect(server.requests).toHaveLength(0);

    const state = getState();
    const key = api.getTodos.key({ userId: 7 });
    expect(state.endpoints.get(key)).toBe('{"userId":"7"}');
    expect(plain(state.entities)['[Todo]']).toEqual({ '{"userId":"7"}': ['70'] });
    expect(plain(state.entities).Todo).toEqual({ '70': { id: 70, title: 'seventy', userId: 7 } });
    const meta = state.meta.get(key)!;
    expect(meta.date).toBeGreaterThanOrEqual(before);
    expect(meta.fetchedAt).toBe(meta.date);
    expect(meta.expiresAt).toBe(meta.date + 60_000);

    const response = controller.getResponse(api.getTodos, { userId: 7 }, state);
    expect(response.expiryStatus).toBe(ExpiryStatus.Valid);
    expect(response.data?.[0]).toBeInstanceOf(Todo);
    // Defaults fill the fields the response did not carry.
    expect(response.data?.[0]).toMatchObject({ id: 70, title: 'seventy', completed: false });
  });

  it('setError stores error meta for the key and leaves the data alone', () => {
    const { controller, getState } = store;
    controller.setResponse(api.getTodo, { id: 1 }, { id: 1, title: 'one' });
    const before = getState();
    const error = new HttpError(404, { error: 'gone' }, 'not found');
    controller.setError(api.getTodo, { id: 2 }, error);

    const state = getState();
    const key = api.getTodo.key({ id: 2 });
    expect(state.meta.get(key)).toEqual({
      date: expect.any(Number),
      fetchedAt: expect.any(Number),
      requestId: expect.any(Number),
      expiresAt: state.meta.get(key)!.date + 1_000,
      error,
      errorPolicy: 'hard',
    });
    expect(state.endpoints).toBe(before.endpoints);
    expect(state.entities).toBe(before.entities);
    expect(controller.getError(api.getTodo, { id: 2 }, state)).toBe(error);
  });
});

describe('getResponse', () => {
  it('reads a fresh result as Valid with its expiry', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, { userId: 2 });
    const state = getState();
    const response = controller.getResponse(api.getTodos, { userId: 2 }, state);
    expect(ids(response.data)).toEqual([3]);
    expect(response.expiryStatus).toBe(ExpiryStatus.Valid);
    expect(response.expiresAt).toBe(state.meta.get(api.getTodos.key({ userId: 2 }))!.expiresAt);
    expect(response.expiresAt).toBeGreaterThan(Date.now());
  });

  it('reads the same unchanged result twice as the same object', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const first = controller.getResponse(api.getTodos, {}, getState()).data;
    // An unrelated change: another endpoint's result.
    controller.setResponse(api.getTodos, { userId: 9 }, [{ id: 90, title: 'ninety', userId: 9 }]);
    const second = controller.getResponse(api.getTodos, {}, getState()).data;
    expect(second).toBe(first);
    // A change to one member changes the list and that member, not its siblings.
    controller.setResponse(api.getTodo, { id: 2 }, { id: 2, title: 'renamed' });
    const third = controller.getResponse(api.getTodos, {}, getState()).data!;
    expect(third).not.toBe(first);
    expect(third[1]?.title).toBe('renamed');
    expect(third[0]).toBe(first?.[0]);
    expect(third[2]).toBe(first?.[2]);
  });

  it('reads a result never fetched as missing and stale', () => {
    const { controller, getState } = store;
    const response = controller.getResponse(api.getTodos, { userId: 1 }, getState());
    expect(response.data).toBeUndefined();
    expect(response.expiryStatus).toBe(ExpiryStatus.InvalidIfStale);
    expect(response.expiresAt).toBeLessThan(Date.now());
  });

  it('reads an invalidated result as Invalid even when the tables could answer it', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    expect(controller.getResponse(api.getTodo, { id: 1 }, getState()).data?.id).toBe(1);

    controller.invalidate(api.getTodo, { id: 1 });
    const response = controller.getResponse(api.getTodo, { id: 1 }, getState());
    expect(response).toEqual({ data: undefined, expiryStatus: ExpiryStatus.Invalid, expiresAt: 0 });
    // The entity itself is still stored: only the result must be fetched again.
    expect(plain(getState().entities).Todo?.['1']).toMatchObject({ id: 1 });
  });

  it('reads an errored result with no data as missing until the error expires', async () => {
    const { controller, getState } = store;
    server.failNext(404);
    await expect(controller.fetch(api.getTodo, { id: 1 })).rejects.toBeInstanceOf(HttpError);
    const state = getState();
    const meta = state.meta.get(api.getTodo.key({ id: 1 }))!;
    const response = controller.getResponse(api.getTodo, { id: 1 }, state);
    expect(response).toEqual({
      data: undefined,
      expiryStatus: ExpiryStatus.InvalidIfStale,
      expiresAt: meta.date + 1_000,
    });
  });

  it('reads a result whose required entity was deleted as Invalid', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodo, { id: 2 });
    await controller.fetch(api.deleteTodo, { id: 2 });
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/todos/2' });
    const response = controller.getResponse(api.getTodo, { id: 2 }, getState());
    expect(response.data).toBeUndefined();
    expect(response.expiryStatus).toBe(ExpiryStatus.Invalid);
  });

  it('reads a deleted entity as Invalid also when only a list had fetched it', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    await controller.fetch(api.deleteTodo, { id: 2 });
    // No `getTodo` result or meta: the read is found from the table, which holds INVALID.
    const response = controller.getResponse(api.getTodo, { id: 2 }, getState());
    expect(response.data).toBeUndefined();
    expect(response.expiryStatus).toBe(ExpiryStatus.Invalid);
    expect(response.expiresAt).toBe(0);
    expect(controller.get(Todo, { id: 2 }, getState())).toBeUndefined();
  });

  it('reads an entity found in the tables alone with that entity’s expiry', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const state = getState();
    const response = controller.getResponse(api.getTodo, { id: 2 }, state);
    expect(response.data).toBeInstanceOf(Todo);
    expect(response.data?.title).toBe('fix bugs');
    expect(response.expiryStatus).toBe(ExpiryStatus.Valid);
    expect(response.expiresAt).toBe(plain(state.entitiesMeta).Todo?.['2']?.expiresAt);
  });

  it('reads an invalidIfStale endpoint as InvalidIfStale while it has data', () => {
    const strict = new Endpoint(async (_filter: { userId?: number }) => [], {
      name: 'strictTodos',
      schema: todoList,
      invalidIfStale: true,
    });
    const { controller, getState } = store;
    controller.setResponse(strict, {}, [{ id: 1, title: 'a' }]);
    const response = controller.getResponse(strict, {}, getState());
    expect(ids(response.data)).toEqual([1]);
    expect(response.expiryStatus).toBe(ExpiryStatus.InvalidIfStale);
  });

  it('reads nothing, and does not look anything up, for a null argument', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    expect(controller.getResponse(api.getTodo, null, getState())).toEqual({
      data: undefined,
      expiryStatus: ExpiryStatus.Valid,
      expiresAt: 0,
    });
  });
});

describe('invalidate, invalidateAll, expireAll', () => {
  it('invalidate with a null argument changes nothing and notifies no one', async () => {
    const { controller, getState, subscribe } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    const before = getState();
    let notified = 0;
    subscribe(() => notified++);
    controller.invalidate(api.getTodo, null);
    expect(getState()).toBe(before);
    expect(notified).toBe(0);
  });

  it('invalidate drops the result, marks its meta and clears its error', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    server.failNext(500);
    await expect(controller.fetch(api.getTodos, {})).rejects.toThrow(/500/);
    const key = api.getTodos.key({});
    expect(getState().meta.get(key)?.error).toBeInstanceOf(HttpError);

    controller.invalidate(api.getTodos, {});
    const state = getState();
    expect(state.endpoints.get(key)).toBeUndefined();
    expect(state.meta.get(key)).toMatchObject({ expiresAt: 0, invalidated: true });
    expect(state.meta.get(key)).not.toHaveProperty('error');
    expect(controller.getError(api.getTodos, {}, state)).toBeUndefined();
    // The list row and its entities stay in the tables.
    expect(plain(state.entities)['[Todo]']?.['{}']).toEqual(['1', '2', '3']);
    expect(controller.getResponse(api.getTodos, {}, state).expiryStatus).toBe(ExpiryStatus.Invalid);
  });

  const storeThree = () => {
    const { controller } = store;
    controller.setResponse(api.getTodos, { userId: 1 }, [{ id: 1, userId: 1 }]);
    controller.setResponse(api.getTodos, { userId: 2 }, [{ id: 3, userId: 2 }]);
    controller.setResponse(api.getTodo, { id: 1 }, { id: 1, userId: 1 });
  };
  const isListKey = (key: string) => key.startsWith('getTodos ');

  it.each([
    ['a function', isListKey],
    ['an object with testKey', { testKey: isListKey }],
  ])('invalidateAll with %s invalidates exactly the matching results', (_form, filter) => {
    const { controller, getState } = store;
    storeThree();
    const todoKey = api.getTodo.key({ id: 1 });
    const todoMeta = getState().meta.get(todoKey);
    controller.invalidateAll(filter);
    const state = getState();
    for (const userId of [1, 2]) {
      const key = api.getTodos.key({ userId });
      expect(state.endpoints.get(key)).toBeUndefined();
      expect(state.meta.get(key)).toMatchObject({ invalidated: true, expiresAt: 0 });
      expect(controller.getResponse(api.getTodos, { userId }, state).expiryStatus).toBe(
        ExpiryStatus.Invalid,
      );
    }
    expect(state.endpoints.get(todoKey)).toBe('1');
    expect(state.meta.get(todoKey)).toBe(todoMeta);
  });

  it('invalidateAll only touches keys that hold a result', () => {
    const { controller, getState } = store;
    const error = new Error('nope');
    controller.setError(api.getTodos, { userId: 5 }, error);
    const before = getState();
    controller.invalidateAll(() => true);
    expect(getState()).toBe(before);
    expect(getState().meta.get(api.getTodos.key({ userId: 5 }))?.error).toBe(error);
  });

  it.each([
    ['a function', isListKey],
    ['an object with testKey', { testKey: isListKey }],
  ])('expireAll with %s makes the matching results stale but keeps them', (_form, filter) => {
    const { controller, getState } = store;
    storeThree();
    const before = getState();
    controller.expireAll(filter);
    const state = getState();
    expect(state.endpoints).toBe(before.endpoints);
    for (const userId of [1, 2]) {
      const key = api.getTodos.key({ userId });
      expect(state.meta.get(key)).toEqual({ ...before.meta.get(key), expiresAt: 1 });
      const response = controller.getResponse(api.getTodos, { userId }, state);
      expect(response.expiryStatus).toBe(ExpiryStatus.Valid);
      expect(response.expiresAt).toBe(1);
      expect(response.data).toHaveLength(1);
    }
    const todoKey = api.getTodo.key({ id: 1 });
    expect(state.meta.get(todoKey)).toBe(before.meta.get(todoKey));
    expect(controller.getResponse(api.getTodo, { id: 1 }, state).expiresAt).toBeGreaterThan(
      Date.now(),
    );
  });

  it('accepts an endpoint that has a testKey as the filter', () => {
    // RestEndpoint-style: `controller.expireAll(getList)` selects that endpoint's results.
    class KeyedEndpoint<F extends (...args: any[]) => Promise<unknown>> extends Endpoint<
      F,
      typeof todoList
    > {
      override testKey(key: string) {
        return key.startsWith(`${this.name} `);
      }
    }
    let calls = 0;
    const getTodos = new KeyedEndpoint(
      async (_filter: { userId?: number }) => {
        calls++;
        return [];
      },
      { name: 'getTodos', schema: todoList },
    );
    const { controller, getState } = store;
    storeThree();
    controller.expireAll(getTodos);
    controller.invalidateAll(getTodos);
    const state = getState();
    expect(calls).toBe(0);
    expect(state.meta.get(getTodos.key({ userId: 1 }))).toMatchObject({ invalidated: true });
    expect(state.meta.get(api.getTodo.key({ id: 1 }))?.expiresAt).toBeGreaterThan(Date.now());
  });
});

describe('resetEntireStore', () => {
  it('empties the store', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const before = Date.now();
    controller.resetEntireStore();
    const state = getState();
    expect(state).toMatchObject({
      entities: {},
      indexes: {},
      endpoints: {},
      meta: {},
      entitiesMeta: {},
      optimistic: [],
    });
    expect(state.lastReset).toBeGreaterThanOrEqual(before);
    expect(controller.getResponse(api.getTodos, {}, state).data).toBeUndefined();
  });

  it('drops a response that arrives after the reset and rejects its fetch', async () => {
    const { controller, getState } = store;
    server.setDelay(20);
    const inFlight = controller.fetch(api.getTodos, {});
    controller.resetEntireStore();
    // The fetch rejects at once (a ResetError); the answer arrives 20 ms later and is dropped.
    await expect(inFlight).rejects.toThrow(/reset/);
    await server.waitForRequest(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(server.requests).toHaveLength(1);
    expect(plain(getState().entities)).toEqual({});
    expect(plain(getState().endpoints)).toEqual({});
    expect(plain(getState().meta)).toEqual({});
  });

  it('drops the response even when the reset happens in the same millisecond', async () => {
    const { controller, getState } = store;
    // Fetch and reset back to back, several times: they regularly share a Date.now().
    for (let round = 0; round < 20; round++) {
      const inFlight = controller.fetch(api.getTodos, {});
      controller.resetEntireStore();
      await expect(inFlight).rejects.toThrow(/reset/);
      expect(plain(getState().endpoints)).toEqual({});
    }
  });

  it('does not join a new fetch to a request from before the reset', async () => {
    const { controller, getState } = store;
    server.setDelay(20);
    const old = controller.fetch(api.getTodos, {});
    controller.resetEntireStore();
    const fresh = controller.fetch(api.getTodos, {});
    await expect(old).rejects.toThrow(/reset/);
    expect(ids(await fresh)).toEqual([1, 2, 3]);
    expect(server.requests).toHaveLength(2);
    expect(getState().endpoints.get(api.getTodos.key({}))).toBe('{}');
  });

  it('keeps deduplicating the new request after the old one settles', async () => {
    const { controller } = store;
    server.setDelay(10);
    const old = controller.fetch(api.getTodos, {});
    await server.waitForRequest(1);
    controller.resetEntireStore();
    server.setDelay(300);
    const fresh = controller.fetch(api.getTodos, {});
    await expect(old).rejects.toThrow(/reset/);
    // `fresh` is still in flight (the server holds it for 300 ms): this call must join it.
    const joined = controller.fetch(api.getTodos, {});
    expect(await joined).toBe(await fresh);
    expect(server.requests).toHaveLength(2);
  });
});

describe('subscribe', () => {
  it('notifies after each change, with the new state readable, until unsubscribed', async () => {
    const { controller, getState, subscribe } = store;
    const seen: unknown[] = [];
    const unsubscribe = subscribe(() =>
      seen.push(getState().endpoints.get(api.getTodo.key({ id: 1 }))),
    );
    await controller.fetch(api.getTodo, { id: 1 });
    expect(seen).toEqual(['1']);

    controller.invalidate(api.getTodo, { id: 1 });
    expect(seen).toEqual(['1', undefined]);

    // No change, no notification.
    controller.expireAll(() => false);
    expect(seen).toHaveLength(2);

    unsubscribe();
    controller.setResponse(api.getTodo, { id: 1 }, { id: 1, title: 'again' });
    expect(seen).toHaveLength(2);
    expect(getState().endpoints.get(api.getTodo.key({ id: 1 }))).toBe('1');
  });

  it('notifies every listener', () => {
    const { controller, subscribe } = store;
    const calls: string[] = [];
    subscribe(() => calls.push('a'));
    subscribe(() => calls.push('b'));
    controller.setResponse(api.getTodo, { id: 1 }, { id: 1 });
    expect(calls).toEqual(['a', 'b']);
  });
});

describe('getError', () => {
  it('shows a soft error only when there is no data to show', async () => {
    const { controller, getState } = store;
    server.failNext(503);
    const failure = await controller.fetch(api.getTodos, {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(getState().meta.get(api.getTodos.key({}))?.errorPolicy).toBe('soft');
    expect(controller.getError(api.getTodos, {}, getState())).toBe(failure);

    await controller.fetch(api.getTodos, {});
    server.failNext(500);
    await expect(controller.fetch(api.getTodos, {})).rejects.toThrow(/500/);
    const state = getState();
    expect(state.meta.get(api.getTodos.key({}))?.error).toBeInstanceOf(HttpError);
    expect(controller.getError(api.getTodos, {}, state)).toBeUndefined();
    expect(ids(controller.getResponse(api.getTodos, {}, state).data)).toEqual([1, 2, 3]);
  });

  it('always shows a hard error, even over data held before', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    server.failNext(404);
    const failure = await controller.fetch(api.getTodo, { id: 1 }).catch((error: unknown) => error);
    expect((failure as HttpError).status).toBe(404);
    const state = getState();
    expect(state.meta.get(api.getTodo.key({ id: 1 }))?.errorPolicy).toBe('hard');
    expect(controller.getError(api.getTodo, { id: 1 }, state)).toBe(failure);
    expect(controller.getResponse(api.getTodo, { id: 1 }, state).data?.id).toBe(1);
  });

  it('has no error for a successful result or a null argument', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    expect(controller.getError(api.getTodo, { id: 1 }, getState())).toBeUndefined();
    controller.setError(api.getTodo, { id: 1 }, new Error('x'));
    expect(controller.getError(api.getTodo, null, getState())).toBeUndefined();
  });
});

describe('methods used detached, as `const { fetch, … } = useController()`', () => {
  it('every public method works when destructured from the controller', async () => {
    const {
      fetch,
      fetchIfStale,
      setResponse,
      setError,
      resolve,
      invalidate,
      invalidateAll,
      expireAll,
      resetEntireStore,
      getResponse,
      getError,
      getState,
      snapshot,
    } = store.controller;
    const todos = await fetch(api.getTodos, {});
    expect(ids(todos)).toEqual([1, 2, 3]);
    expect(ids(getResponse(api.getTodos, {}, getState()).data)).toEqual([1, 2, 3]);
    expect(ids(await fetchIfStale(api.getTodos, {}))).toEqual([1, 2, 3]);
    expect(server.requests).toHaveLength(1);

    await setResponse(api.getTodo, { id: 9 }, { id: 9, title: 'set', completed: false, userId: 1 });
    expect(getResponse(api.getTodo, { id: 9 }, getState()).data?.title).toBe('set');
    expect(snapshot(getState(), 0).getResponse(api.getTodo, { id: 9 }).data).toBeInstanceOf(Todo);
    await setError(api.getTodo, { id: 8 }, new Error('gone'));
    expect(getError(api.getTodo, { id: 8 }, getState())).toEqual(new Error('gone'));
    await resolve(api.getTodo, { args: [{ id: 7 }], response: { id: 7, title: 'resolved' } });
    expect(getResponse(api.getTodo, { id: 7 }, getState()).data?.title).toBe('resolved');

    await invalidate(api.getTodo, { id: 9 });
    expect(getResponse(api.getTodo, { id: 9 }, getState()).expiryStatus).toBe(ExpiryStatus.Invalid);
    await expireAll({ testKey: (key) => key.startsWith('getTodos') });
    expect(getState().meta.get(api.getTodos.key({}))?.expiresAt).toBe(1);
    await invalidateAll({ testKey: (key) => key.startsWith('getTodos') });
    expect(getState().endpoints.get(api.getTodos.key({}))).toBeUndefined();
    await resetEntireStore();
    expect(plain(getState().entities)).toEqual({});
  });

  it('the methods that change the store return a promise that resolves once it is stored', async () => {
    const { controller, getState } = store;
    const written = controller.setResponse(api.getTodo, { id: 5 }, { id: 5, title: 'five' });
    expect(written).toBeInstanceOf(Promise);
    await written;
    expect(plain(getState().entities).Todo?.['5']).toEqual({ id: 5, title: 'five' });
    for (const pending of [
      controller.invalidate(api.getTodo, { id: 5 }),
      controller.invalidate(api.getTodo, null),
      controller.expireAll(() => true),
      controller.invalidateAll(() => true),
      controller.setError(api.getTodo, { id: 5 }, new Error('x')),
      controller.resetEntireStore(),
    ]) {
      await expect(pending).resolves.toBeUndefined();
    }
  });
});

describe('fetchIfStale', () => {
  it('answers fresh data from the store without a request', async () => {
    const { controller } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    const again = controller.fetchIfStale(api.getTodo, { id: 1 });
    expect(again).not.toBeInstanceOf(Promise);
    expect((again as Todo).title).toBe('write tests');
    expect(server.requests).toHaveLength(1);
  });

  it('fetches what is missing, expired or invalidated', async () => {
    const { controller } = store;
    const missing = await controller.fetchIfStale(api.getTodo, { id: 2 });
    expect((missing as Todo).title).toBe('fix bugs');
    await controller.expireAll(() => true);
    server.todos[1]!.title = 'bugs fixed';
    expect(((await controller.fetchIfStale(api.getTodo, { id: 2 })) as Todo).title).toBe(
      'bugs fixed',
    );
    await controller.invalidate(api.getTodo, { id: 2 });
    await controller.fetchIfStale(api.getTodo, { id: 2 });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/todos/2',
      '/todos/2',
      '/todos/2',
    ]);
  });
});

describe('getResponse of an object schema with nothing stored', () => {
  const paged = () =>
    new Endpoint(api.getTodos, {
      key: () => 'paged todos',
      schema: { results: todoList, nextPage: '', meta: { total: 0, next: null } },
    });
  const shape = { results: undefined, nextPage: '', meta: { total: 0, next: null } };

  it('reads the shape with its placeholders for null args, as data-client does', () => {
    const { controller, getState } = store;
    const read = controller.getResponse(paged(), null, getState());
    expect(read.data).toEqual(shape);
    expect(read.expiryStatus).toBe(ExpiryStatus.Valid);
  });

  it('reads the shape before the first response, to be fetched', () => {
    const { controller, getState } = store;
    const read = controller.getResponse(paged(), {}, getState());
    expect(read.data).toEqual(shape);
    expect(read.expiryStatus).toBe(ExpiryStatus.InvalidIfStale);
  });
});
