// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  connectDevtools,
  type DevtoolsConnection,
  replayMutations,
} from '../../src/devtools/index.js';
import { encode } from '../../src/devtools/page/encode.js';
import { EndpointNames } from '../../src/devtools/page/endpointNames.js';
import type { StoreEvent } from '../../src/devtools/protocol/effects.js';
import type { RecordedMutation } from '../../src/devtools/protocol/messages.js';
import { createResource, createStore, Endpoint, isInvalid, type Store } from '../../src/index.js';
import { plain, Todo } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { effectsOf, nextTask, PanelStandIn } from './support.js';

function todoResource(urlPrefix: string) {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix,
    searchParams: {} as { userId?: number },
    body: {} as { title?: string; completed?: boolean; userId?: number; due?: Date },
  });
}

const server = serverPerTest();
let Todos: ReturnType<typeof todoResource>;
let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;
let storeId: string;

beforeEach(() => {
  // createResource registers Todo.get, Todo.getList, Todo.getList.push, … for replays.
  Todos = todoResource(server.url);
  store = createStore();
  // The store starts with the server's todos, written directly (no request).
  store.controller.setResponse(
    Todos.getList,
    {},
    server.todos.map((todo) => ({ ...todo })),
  );
  panel = new PanelStandIn();
  // Answers in one task, however slow the machine: the tests read them right after a command.
  connection = connectDevtools(store, { batchInterval: 1, sliceMs: 60_000 });
  storeId = connection.storeId;
  panel.connect(0, connection.storeId);
});
afterEach(() => {
  connection.disconnect();
  panel.restore();
  vi.restoreAllMocks();
});

const key = (method: string, path: string) => `${method} ${server.url}${path}`;

/** The replay-result effects posted so far for `replayId`, once there are `count` of them. */
async function replayResults(replayId: string, count: number) {
  const results = () =>
    panel
      .events(storeId)
      .flatMap((event) => effectsOf(event, 'replay-result'))
      .filter((effect) => effect.replayId === replayId);
  await vi.waitFor(() => expect(results()).toHaveLength(count));
  await nextTask(5); // anything more would have arrived by now
  return results();
}

function replay(replayId: string, mode: 'apply' | 'send', mutations: unknown[]) {
  panel.send({
    kind: 'replay',
    storeId,
    replayId,
    mode,
    mutations: mutations as RecordedMutation[],
  });
}

describe('panel commands', () => {
  beforeEach(async () => {
    await store.controller.fetch(Todos.get, { id: 1 });
  });

  it('invalidate {key}: that result is invalidated, others stay', () => {
    panel.send({ kind: 'invalidate', storeId, key: key('GET', '/todos/1') });
    const state = store.getState();
    expect(state.meta.get(key('GET', '/todos/1'))?.invalidated).toBe(true);
    expect(state.endpoints.get(key('GET', '/todos/1'))).toBeUndefined();
    expect(state.meta.get(key('GET', '/todos'))?.invalidated).toBeUndefined();
    expect(state.endpoints.get(key('GET', '/todos'))).toBeDefined();
  });

  it('expireAll: every result is stale (still shown)', () => {
    const before = store.getState();
    panel.send({ kind: 'expireAll', storeId });
    const { meta, endpoints } = store.getState();
    expect([...meta.keys()].sort()).toEqual([key('GET', '/todos'), key('GET', '/todos/1')].sort());
    for (const entry of meta.values()) expect(entry.expiresAt).toBe(1);
    expect(endpoints).toBe(before.endpoints);
  });

  it('reset: the store is emptied', () => {
    panel.send({ kind: 'reset', storeId });
    const state = store.getState();
    expect(state.entities.size).toBe(0);
    expect(state.endpoints.size).toBe(0);
    expect(state.meta.size).toBe(0);
  });
});

describe('replay apply', () => {
  it('writes the recorded responses in order through setResponse, with no request', async () => {
    const setResponse = vi.spyOn(store.controller, 'setResponse');
    const due = new Date('2030-01-02T03:04:05.000Z');
    replay('r1', 'apply', [
      {
        endpoint: 'Todo.getList.push',
        args: [encode({}), encode({ title: 'replayed', due })],
        response: encode({ id: 10, title: 'replayed', completed: false, userId: 1 }),
      },
      {
        endpoint: 'Todo.partialUpdate',
        args: [{ id: 10 }, { completed: true }],
        response: { id: 10, title: 'replayed', completed: true, userId: 1 },
      },
      { endpoint: 'Todo.delete', args: [{ id: 1 }], response: { id: 1 } },
    ]);
    const results = await replayResults('r1', 3);
    expect(results).toEqual([
      { type: 'replay-result', replayId: 'r1', index: 0, endpoint: 'Todo.getList.push', ok: true },
      { type: 'replay-result', replayId: 'r1', index: 1, endpoint: 'Todo.partialUpdate', ok: true },
      { type: 'replay-result', replayId: 'r1', index: 2, endpoint: 'Todo.delete', ok: true },
    ]);
    expect(setResponse.mock.calls.map(([endpoint, ...rest]) => [endpoint.name, ...rest])).toEqual([
      [
        'Todo.getList.push',
        {},
        { title: 'replayed', due },
        { id: 10, title: 'replayed', completed: false, userId: 1 },
      ],
      [
        'Todo.partialUpdate',
        { id: 10 },
        { completed: true },
        { id: 10, title: 'replayed', completed: true, userId: 1 },
      ],
      ['Todo.delete', { id: 1 }, { id: 1 }],
    ]);
    // The encoded Date argument arrived as a Date.
    expect((setResponse.mock.calls[0]![2] as { due: unknown }).due).toBeInstanceOf(Date);
    const state = store.getState();
    expect(state.entities.get('Todo')?.get('10')).toMatchObject({ completed: true });
    expect(plain(state.entities.get('[Todo]'))).toEqual({ '{}': ['2', '3', '10'] });
    expect(isInvalid(state.entities.get('Todo')?.get('1'))).toBe(true);
    expect(server.requests).toEqual([]);
  });

  it('an unknown endpoint or a malformed mutation fails by itself, naming it; the others apply', async () => {
    const setResponse = vi.spyOn(store.controller, 'setResponse');
    const todo3Before = store.getState().entities.get('Todo')?.get('3');
    replay('r2', 'apply', [
      {
        endpoint: 'Todo.partialUpdate',
        args: [{ id: 1 }, { title: 'first' }],
        response: { id: 1, title: 'first', completed: false, userId: 1 },
      },
      { endpoint: 'Nope.create', args: [{}], response: { id: 3, title: 'from nowhere' } },
      { endpoint: 'Todo.partialUpdate', args: 'not a list', response: { id: 3 } },
      { args: [{ id: 3 }], response: { id: 3, title: 'no endpoint' } },
      {
        endpoint: 'Todo.partialUpdate',
        args: [{ '@t': 'bigint', v: 'not a number' }],
        response: { id: 3, title: 'unreadable args' },
      },
      { endpoint: 'Todo.partialUpdate', args: [{ id: 3 }, { title: 'no response' }] },
      {
        endpoint: 'Todo.partialUpdate',
        args: [{ id: 2 }, { title: 'last' }],
        response: { id: 2, title: 'last', completed: true, userId: 1 },
      },
    ]);
    const results = await replayResults('r2', 7);
    expect(results.map(({ index, endpoint, ok }) => ({ index, endpoint, ok }))).toEqual([
      { index: 0, endpoint: 'Todo.partialUpdate', ok: true },
      { index: 1, endpoint: 'Nope.create', ok: false },
      { index: 2, endpoint: '', ok: false },
      { index: 3, endpoint: '', ok: false },
      { index: 4, endpoint: 'Todo.partialUpdate', ok: false },
      { index: 5, endpoint: 'Todo.partialUpdate', ok: false },
      { index: 6, endpoint: 'Todo.partialUpdate', ok: true },
    ]);
    expect(results[1]?.error).toContain('unknown endpoint "Nope.create"');
    expect(results[2]?.error).toContain('mutation 2 is malformed');
    expect(results[3]?.error).toContain('mutation 3 is malformed');
    expect(results[4]?.error).toMatch(/mutation 4 \(Todo\.partialUpdate\)/);
    // The outcome names the endpoint; its message does not say it again.
    expect(results[5]?.error).toBe('no recorded response to apply');
    // Nothing of the failed ones reached the store.
    expect(setResponse.mock.calls.map(([, params]) => params)).toEqual([{ id: 1 }, { id: 2 }]);
    const state = store.getState();
    expect(state.entities.get('Todo')?.get('1')).toMatchObject({ title: 'first' });
    expect(state.entities.get('Todo')?.get('2')).toMatchObject({ title: 'last' });
    expect(state.entities.get('Todo')?.get('3')).toBe(todo3Before);
  });

  it('a recorded response that does not fit the schema fails, and stores nothing for its key', async () => {
    const getBefore = store.getState();
    replay('r3', 'apply', [{ endpoint: 'Todo.get', args: [{ id: 2 }], response: 'not a todo' }]);
    const [result] = await replayResults('r3', 1);
    expect(result).toMatchObject({ endpoint: 'Todo.get', ok: false });
    expect(result?.error).toMatch(/^Todo expects an object/);
    const state = store.getState();
    expect(state.meta.get(key('GET', '/todos/2'))).toBeUndefined();
    expect(state.entities).toBe(getBefore.entities);
  });

  it('an endpoint that was only ever fetched is found by its name', async () => {
    const custom = new Endpoint(async (params: { id: number }) => ({ ...params, title: 'x' }), {
      name: 'customGetTodo',
      schema: Todo,
    });
    const names = new EndpointNames(store.controller);
    expect(names.find('customGetTodo')).toEqual({
      problem:
        'unknown endpoint "customGetTodo": no endpoint of its resource ran in this store, and it was not given to createStore({ resources })',
    });
    await store.controller.fetch(custom, { id: 5 });
    expect(names.find('customGetTodo')).toEqual({ endpoint: custom });
    replay('r4', 'apply', [
      { endpoint: 'customGetTodo', args: [{ id: 6 }], response: { id: 6, title: 'six' } },
    ]);
    expect(await replayResults('r4', 1)).toMatchObject([{ ok: true }]);
    expect(store.getState().entities.get('Todo')?.get('6')).toMatchObject({ title: 'six' });
  });
});

describe('replay send', () => {
  it('runs controller.fetch with the recorded args and body against the server, in order', async () => {
    const fetch = vi.spyOn(store.controller, 'fetch');
    replay('s1', 'send', [
      { endpoint: 'Todo.getList.push', args: [{}, { title: 'sent' }] },
      { endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { completed: true }] },
      { endpoint: 'Todo.delete', args: [{ id: 2 }] },
    ]);
    const results = await replayResults('s1', 3);
    expect(results.every((result) => result.ok)).toBe(true);
    // Each outcome carries what the server answered this time.
    expect(results[0]?.response).toMatchObject({ '@t': 'instance', fields: { title: 'sent' } });
    expect(results[1]?.response).toMatchObject({ fields: { id: 1, completed: true } });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(server.requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'POST', url: '/todos', body: '{"title":"sent"}' },
      { method: 'PATCH', url: '/todos/1', body: '{"completed":true}' },
      { method: 'DELETE', url: '/todos/2', body: '' },
    ]);
    expect(server.todos.map(({ id, completed }) => ({ id, completed }))).toEqual([
      { id: 1, completed: true },
      { id: 3, completed: false },
      { id: 4, completed: false },
    ]);
    const state = store.getState();
    expect(state.entities.get('Todo')?.get('4')).toMatchObject({ title: 'sent' });
    expect(isInvalid(state.entities.get('Todo')?.get('2'))).toBe(true);
  });

  it('an unknown endpoint sends nothing for that mutation; the valid ones are sent', async () => {
    replay('s2', 'send', [
      { endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { title: 'a' }] },
      { endpoint: 'Todo.nothing', args: [{ id: 2 }] },
      { endpoint: 'Todo.partialUpdate', args: [{ id: 3 }, { title: 'c' }] },
    ]);
    const results = await replayResults('s2', 3);
    expect(results.map((result) => result.ok)).toEqual([true, false, true]);
    expect(results[1]?.error).toContain('"Todo.nothing"');
    expect(server.requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'PATCH /todos/1',
      'PATCH /todos/3',
    ]);
  });

  it('a request the server refuses is a failed result with the error', async () => {
    server.failNext(422);
    replay('s3', 'send', [{ endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { title: '' }] }]);
    const [result] = await replayResults('s3', 1);
    expect(result).toMatchObject({ endpoint: 'Todo.partialUpdate', ok: false });
    expect(result?.error).toContain('422');
    expect(result?.error).not.toContain('Todo.partialUpdate');
  });

  it('every outcome is a replay event with the replay id, in the seq order', async () => {
    replay('s4', 'send', [
      { endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { title: 'a' }] },
      { endpoint: 'Nope', args: [] },
    ]);
    await replayResults('s4', 2);
    const events = panel.events(storeId);
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    const replayEvents = events.filter((event: StoreEvent) => event.action.type === 'replay');
    expect(replayEvents.map((event) => event.action)).toEqual([
      { type: 'replay', endpoint: 'Todo.partialUpdate' },
      { type: 'replay', endpoint: 'Nope' },
    ]);
  });

  it("what a replay does carries its id, so recorders can leave it out; later changes don't", async () => {
    replay('s5', 'apply', [
      {
        endpoint: 'Todo.getList.push',
        args: [{}, { title: 'replayed' }],
        response: { id: 50, title: 'replayed', completed: false, userId: 1 },
      },
    ]);
    await replayResults('s5', 1);
    store.controller.setResponse(
      Todos.getList.push,
      {},
      { title: 'mine' },
      { id: 51, title: 'mine' },
    );
    await vi.waitFor(() =>
      expect(
        panel
          .events(storeId)
          .some(
            (event) =>
              event.action.endpoint === 'Todo.getList.push' && event.action.replayId === undefined,
          ),
      ).toBe(true),
    );
    const pushes = panel
      .events(storeId)
      .filter((event) => event.action.endpoint === 'Todo.getList.push');
    expect(pushes.map((event) => event.action.replayId)).toEqual(['s5', undefined]);
  });

  it('stopOnError (replayMutations option) stops at the first failure', async () => {
    const outcomes = await replayMutations(
      store.controller,
      [
        { endpoint: 'Nope', args: [] },
        { endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { title: 'a' }] },
      ],
      'send',
      { stopOnError: true },
    );
    expect(outcomes).toEqual([
      { index: 0, endpoint: 'Nope', ok: false, error: expect.stringContaining('"Nope"') },
    ]);
    expect(server.requests).toEqual([]);
  });
});

describe('disconnect() during a replay', () => {
  it('posts nothing when the replay finishes later', async () => {
    server.setDelay(30);
    replay('d1', 'send', [
      { endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { title: 'late' }] },
    ]);
    await server.waitForRequest();
    connection.disconnect();
    const mark = panel.mark;
    await vi.waitFor(() =>
      expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({ title: 'late' }),
    );
    await nextTask(20);
    expect(panel.since(mark)).toEqual([]);
  });
});
