import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Endpoint, Query, schema } from '../../src/index.js';
import { Todo } from '../fixtures.js';
import { todoStorePerTest } from './support.js';

const { server, api, store } = todoStorePerTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const subscribed: (() => Promise<void>)[] = [];

/** Subscribes, and unsubscribes after the test (a forgotten one would poll the next server). */
async function subscribe(endpoint: Endpoint<(params: { id: number }) => Promise<unknown>>) {
  await store.controller.subscribe(endpoint, { id: 1 });
  const unsubscribe = () => store.controller.unsubscribe(endpoint, { id: 1 });
  subscribed.push(unsubscribe);
  return unsubscribe;
}

afterEach(async () => {
  for (const unsubscribe of subscribed.splice(0)) await unsubscribe();
  vi.unstubAllGlobals();
});

const titleOf = (endpoint: typeof api.getTodo) =>
  (store.controller.getResponse(endpoint, { id: 1 }, store.getState()).data as Todo | undefined)
    ?.title;

describe('controller.subscribe: polling at pollFrequency', () => {
  it('fetches the call again every pollFrequency ms while subscribed, and stops after unsubscribe', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 40 });
    await store.controller.fetch(polled, { id: 1 });
    const unsubscribe = await subscribe(polled);
    server.todos[0]!.title = 'polled';
    await server.waitForRequest(3);
    await vi.waitFor(() => expect(titleOf(polled)).toBe('polled'));
    await unsubscribe();
    const made = server.requests.length;
    await sleep(150);
    expect(server.requests.length).toBe(made);
    expect(new Set(server.requests.map((request) => request.url))).toEqual(new Set(['/todos/1']));
  });

  it('fetches at once when the data is older than pollFrequency (or was never fetched)', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 10_000 });
    await subscribe(polled);
    await server.waitForRequest(1);
    await vi.waitFor(() => expect(titleOf(polled)).toBe('write tests'));
  });

  it('subscribers of one call share one timer: no more requests than one poll per period', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 50 });
    const started = Date.now();
    for (let count = 0; count < 10; count++) await subscribe(polled);
    await sleep(300);
    const elapsed = Date.now() - started;
    // One at once (nothing stored yet), then at most one each 50 ms: ten timers would make ~60.
    expect(server.requests.length).toBeLessThanOrEqual(1 + Math.floor(elapsed / 50));
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('polls at the shortest frequency subscribed, and at the next one when that subscriber leaves', async () => {
    const slow = api.getTodo.extend({ pollFrequency: 10_000 });
    const fast = api.getTodo.extend({ pollFrequency: 30 });
    await store.controller.fetch(slow, { id: 1 });
    await subscribe(slow);
    const leaveFast = await subscribe(fast);
    // With only the 10 s subscriber, these would take 20 s.
    await server.waitForRequest(3);
    await leaveFast();
    await sleep(20);
    const made = server.requests.length;
    await sleep(150);
    expect(server.requests.length).toBe(made);
  });

  it('data fetched by other means postpones the next poll by a whole period', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 150 });
    await store.controller.fetch(polled, { id: 1 });
    await subscribe(polled);
    await sleep(100);
    await store.controller.fetch(polled, { id: 1 });
    // The first fetch's poll would be due now; the second fetch moved it 150 ms on.
    await sleep(80);
    expect(server.requests.length).toBe(2);
    await server.waitForRequest(3);
  });

  it('a failed poll is a soft error for a 5xx: the data stays, and polling goes on', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 40 });
    await store.controller.fetch(polled, { id: 1 });
    server.failNext(503);
    await subscribe(polled);
    await server.waitForRequest(2);
    await sleep(10);
    expect(titleOf(polled)).toBe('write tests');
    server.todos[0]!.title = 'after the outage';
    await vi.waitFor(() => expect(titleOf(polled)).toBe('after the outage'));
  });

  it('sends no poll while the browser is offline, and polls again once it is back', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 30 });
    await store.controller.fetch(polled, { id: 1 });
    const network = { onLine: false };
    vi.stubGlobal('navigator', network);
    await subscribe(polled);
    await sleep(120);
    expect(server.requests.length).toBe(1);
    network.onLine = true;
    await server.waitForRequest(2);
  });
});

describe('controller.polling', () => {
  it('says which calls are polled and how often: the shortest frequency subscribed, until the last unsubscribe', async () => {
    const { polling } = store.controller;
    const slow = api.getTodo.extend({ pollFrequency: 60_000 });
    const fast = api.getTodo.extend({ pollFrequency: 10_000 });
    const key = slow.key({ id: 1 });
    expect(polling()).toEqual(new Map());
    const leaveSlow = await subscribe(slow);
    expect(polling()).toEqual(new Map([[key, 60_000]]));
    const leaveFast = await subscribe(fast);
    const leaveFastAgain = await subscribe(fast);
    expect(polling()).toEqual(new Map([[key, 10_000]]));
    await leaveFast();
    expect(polling()).toEqual(new Map([[key, 10_000]]));
    await leaveFastAgain();
    expect(polling()).toEqual(new Map([[key, 60_000]]));
    await leaveSlow();
    expect(polling()).toEqual(new Map());
  });

  it('is a copy: changing it changes no polling', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 10_000 });
    await subscribe(polled);
    const key = polled.key({ id: 1 });
    const polling = store.controller.polling();
    polling.set(key, 1);
    polling.set(api.getTodo.key({ id: 2 }), 1);
    expect(store.controller.polling()).toEqual(new Map([[key, 10_000]]));
  });
});

describe('controller.subscribe: what it refuses', () => {
  it('an endpoint without pollFrequency, naming it: nothing says how often to poll', async () => {
    await expect(store.controller.subscribe(api.getTodo, { id: 1 })).rejects.toThrow(
      /controller\.subscribe: getTodo has no pollFrequency/,
    );
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, '100'])(
    'a pollFrequency of %s',
    async (pollFrequency) => {
      const polled = api.getTodo.extend({ pollFrequency: pollFrequency as number });
      await expect(store.controller.subscribe(polled, { id: 1 })).rejects.toThrow(
        `getTodo's pollFrequency must be a positive number of ms, not ${String(pollFrequency)}`,
      );
      await sleep(20);
      expect(server.requests).toEqual([]);
    },
  );

  it('a mutation: polling would repeat it', async () => {
    const patch = api.patchTodo.extend({ pollFrequency: 30 });
    await expect(store.controller.subscribe(patch, { id: 1 }, { title: 'again' })).rejects.toThrow(
      /patchTodo is a mutation; only reads are polled/,
    );
    await sleep(60);
    expect(server.requests).toEqual([]);
  });

  it('a Query: there is nothing to fetch', async () => {
    const everyTodo = new Query(new schema.All(Todo));
    await expect(
      store.controller.subscribe(everyTodo as unknown as typeof api.getTodos),
    ).rejects.toThrow(/controller\.subscribe: only endpoints can be fetched/);
  });

  it('null arguments subscribe to nothing; unsubscribing what was never subscribed does nothing', async () => {
    const polled = api.getTodo.extend({ pollFrequency: 20 });
    await store.controller.subscribe(polled, null);
    await store.controller.unsubscribe(polled, { id: 2 });
    await sleep(60);
    expect(server.requests).toEqual([]);
  });
});

describe('controller.subscribe: long frequencies', () => {
  it('a pollFrequency past what a timer holds (2^31 ms) polls once, then waits: no timer loop', async () => {
    const yearly = api.getTodo.extend({ pollFrequency: 365 * 24 * 3600 * 1000 });
    await subscribe(yearly);
    await server.waitForRequest(1);
    await sleep(20);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await sleep(100);
    // One for the sleep itself; an overflowing timer would fire every millisecond.
    expect(timers.mock.calls.length).toBeLessThanOrEqual(2);
    timers.mockRestore();
    expect(server.requests.length).toBe(1);
  });
});
