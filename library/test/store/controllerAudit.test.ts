import { describe, expect, it } from 'vitest';
import { createStore, ResetError } from '../../src/index.js';
import { todoStorePerTest } from './support.js';

/** Controller behaviour found in an audit against data-client 0.9 and hostile inputs. */
const { server, api, store } = todoStorePerTest();

describe('resetEntireStore with reads in flight', () => {
  it('rejects a read in flight at once with a ResetError, not when its server answers', async () => {
    const { controller } = store;
    // The server would answer long after the test's timeout.
    server.setDelay(60_000);
    const inFlight = controller.fetch(api.getTodos, {});
    await server.waitForRequest(1);
    const started = Date.now();
    await controller.resetEntireStore();
    const error = await inFlight.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ResetError);
    expect(error).toMatchObject({ name: 'ResetError', message: expect.stringMatching(/RESET/) });
    expect(Date.now() - started).toBeLessThan(1000);
    // Nothing of it is stored, and a fetch after the reset is a new request.
    expect(controller.getState().endpoints.size).toBe(0);
    server.setDelay(0);
    await controller.fetch(api.getTodos, {});
    expect(server.requests).toHaveLength(2);
  });

  it('a detached resetEntireStore (from a destructured controller) rejects the reads of its store only', async () => {
    const other = createStore();
    server.setDelay(300);
    const { resetEntireStore } = store.controller;
    const mine = store.controller.fetch(api.getTodos, {});
    const theirs = other.controller.fetch(api.getTodos, {});
    await server.waitForRequest(2);
    await resetEntireStore();
    await expect(mine).rejects.toBeInstanceOf(ResetError);
    expect((await theirs).map((todo) => todo.id)).toEqual([1, 2, 3]);
  });
});

describe('snapshot', () => {
  it("has data-client's getError (the error a component would see) and fetchedAt 0 by default", async () => {
    const { controller } = store;
    server.failNext(404);
    await expect(controller.fetch(api.getTodo, { id: 1 })).rejects.toMatchObject({ status: 404 });
    const snapshot = controller.snapshot(controller.getState());
    expect(snapshot.fetchedAt).toBe(0);
    expect(snapshot.getError(api.getTodo, { id: 1 })).toMatchObject({ status: 404 });
    expect(snapshot.getError(api.getTodo, { id: 2 })).toBeUndefined();
    // Detached, as `const { snapshot } = useController()` gives it.
    const { snapshot: detached } = controller;
    expect(detached(controller.getState(), 5).getError(api.getTodo, { id: 1 })).toBe(
      controller.getError(api.getTodo, { id: 1 }, controller.getState()),
    );
  });
});

describe('wrong arguments are refused naming what was wrong', () => {
  it('getResponse, getError and get without the state (the last argument) name the state', () => {
    const { controller } = store;
    // Types refuse these calls; plain JavaScript does not.
    const untyped = controller as unknown as Record<string, (...args: unknown[]) => unknown>;
    // A common slip: the state is forgotten, so `{ id: 1 }` would be read as the state.
    expect(() => untyped.getResponse?.(api.getTodo, { id: 1 })).toThrow(
      /controller\.getResponse: the last argument must be the state \(controller\.getState\(\)\), not \{"id":1\}/,
    );
    expect(() => untyped.getError?.(api.getTodo, { id: 1 })).toThrow(
      /controller\.getError: the last argument must be the state/,
    );
    expect(() => untyped.getResponse?.(api.getTodo, null)).toThrow(
      /controller\.getResponse: the last argument must be the state \(controller\.getState\(\)\), not null/,
    );
    expect(() => controller.get(api.getTodo.schema, { id: 1 } as never)).toThrow(
      /controller\.get: the last argument must be the state/,
    );
  });

  it('invalidateAll and expireAll refuse a filter that is neither an endpoint nor { testKey }', async () => {
    const { controller } = store;
    await controller.fetch(api.getTodos, {});
    const { invalidateAll, expireAll } = controller;
    for (const filter of [undefined, {}, { testKey: 1 }, 'todos']) {
      expect(() => invalidateAll(filter as never)).toThrow(
        /controller\.invalidateAll: the filter must be an endpoint \(such as TodoResource\.getList\) or \{ testKey\(key\) \}, not /,
      );
      expect(() => expireAll(filter as never)).toThrow(/controller\.expireAll: the filter must be/);
    }
    // The store is untouched, and the forms data-client takes still work.
    const key = api.getTodos.key({});
    expect(controller.getState().meta.get(key)?.invalidated).toBeUndefined();
    await expireAll({ testKey: (stored) => stored === key });
    expect(controller.getState().meta.get(key)?.expiresAt).toBeLessThan(Date.now());
    await invalidateAll(api.getTodos);
    expect(controller.getState().meta.get(key)?.invalidated).toBe(true);
  });
});

describe('invalidateAll / expireAll of a plain Endpoint', () => {
  it('tests keys with the endpoint’s testKey (the name): it neither calls the endpoint nor reaches another', async () => {
    const { controller } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    await controller.fetch(api.getTodos, {});
    expect(server.requests).toHaveLength(2);
    const todoKey = api.getTodo.key({ id: 1 });
    const listKey = api.getTodos.key({});
    expect(listKey.startsWith(api.getTodo.name)).toBe(true);
    await controller.expireAll(api.getTodo);
    const { meta } = controller.getState();
    expect(meta.get(todoKey)?.expiresAt).toBeLessThan(Date.now());
    expect(meta.get(listKey)?.expiresAt).toBeGreaterThan(Date.now());
    await controller.invalidateAll(api.getTodos);
    expect(controller.getState().meta.get(listKey)?.invalidated).toBe(true);
    expect(controller.getState().meta.get(todoKey)?.invalidated).toBeUndefined();
    // No request was made by the filters (the endpoint was never called as the test).
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.requests).toHaveLength(2);
  });
});
