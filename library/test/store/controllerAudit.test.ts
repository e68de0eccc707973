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
