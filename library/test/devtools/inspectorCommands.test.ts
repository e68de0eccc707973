// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import {
  type CommandErrorMessage,
  type ExtensionCommandBody,
  extensionCommand,
  type ReadersMessage,
} from '../../src/devtools/protocol/messages.js';
import { createResource, createStore, type Store } from '../../src/index.js';
import { readersOf } from '../../src/react/readers.js';
import { errorOf } from '../../src/store/reading.js';
import { Todo } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { dispatchFrom, effectsOf, nextTask, PanelStandIn } from './support.js';

// The inspector's commands (the panel's Results and Entities views): on one stored result, on one
// entity field, and the count of the components reading each result.

const server = serverPerTest();
let Todos: ReturnType<typeof todoResource>;
let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;
let storeId: string;

function todoResource(urlPrefix: string) {
  return createResource({ path: '/todos/:id', schema: Todo, urlPrefix });
}

beforeEach(async () => {
  Todos = todoResource(server.url);
  store = createStore();
  panel = new PanelStandIn();
  connection = connectDevtools(store, { batchInterval: 1 });
  storeId = connection.storeId;
  panel.connect(0, storeId);
  await store.controller.fetch(Todos.get, { id: 1 });
  await store.controller.fetch(Todos.getList);
  server.requests.length = 0;
});
afterEach(() => {
  connection.disconnect();
  panel.restore();
  vi.restoreAllMocks();
});

const todoKey = () => Todos.get.key({ id: 1 });

/** Sends a command and returns the command errors the page answered with (after `wait` ms). */
async function send(body: ExtensionCommandBody | Record<string, unknown>, wait = 5) {
  const mark = panel.mark;
  dispatchFrom(window, { ...extensionCommand(body as ExtensionCommandBody), ...body });
  await nextTask(wait);
  return panel
    .since(mark, storeId)
    .filter((message): message is CommandErrorMessage => message.kind === 'command-error')
    .map((message) => message.error);
}

/** The page's answer to a `readers` command. */
function readers(): ReadersMessage {
  const mark = panel.mark;
  panel.send({ kind: 'readers', storeId });
  const answer = panel.since(mark, storeId).find((message) => message.kind === 'readers');
  if (answer?.kind !== 'readers') throw new Error('no readers answer');
  return answer;
}

/** The latest events the page posted, after the pending batch was flushed. */
async function latestEvents(count: number) {
  connection.flush();
  await nextTask();
  return panel.events(storeId).slice(-count);
}

describe('commands on one result', () => {
  it('invalidate {key} is recorded as an `invalidate` of that key', async () => {
    expect(await send({ kind: 'invalidate', storeId, key: todoKey() })).toEqual([]);
    const [event] = await latestEvents(1);
    expect(event?.action).toEqual({
      type: 'invalidate',
      key: todoKey(),
      cause: { reason: { kind: 'devtools', command: 'invalidate' } },
    });
    expect(effectsOf(event, 'result-invalidated')).toEqual([
      { type: 'result-invalidated', key: todoKey() },
    ]);
  });

  it('invalidate of a key the store does not hold changes nothing and says so', async () => {
    const before = store.getState();
    expect(await send({ kind: 'invalidate', storeId, key: '__proto__' })).toEqual([
      'invalidate: the store holds no result under "__proto__"',
    ]);
    expect(store.getState()).toBe(before);
  });

  it('refetch asks the server again for that result and stores the answer', async () => {
    server.todos[0]!.title = 'changed on the server';
    expect(await send({ kind: 'refetch', storeId, key: todoKey() }, 50)).toEqual([]);
    await vi.waitFor(() =>
      expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({
        title: 'changed on the server',
      }),
    );
    expect(server.requests.map((request) => request.url)).toEqual(['/todos/1']);
  });

  it('expire {key} marks only that result stale', async () => {
    expect(await send({ kind: 'expire', storeId, key: todoKey() })).toEqual([]);
    const { meta } = store.getState();
    expect(meta.get(todoKey())?.expiresAt).toBe(1);
    expect(meta.get(Todos.getList.key())?.expiresAt).toBeGreaterThan(Date.now());
  });

  it('force loading: readers wait on a held request, with no request sent, until a refetch', async () => {
    expect(await send({ kind: 'force-loading', storeId, key: todoKey() })).toEqual([]);
    expect(store.getState().meta.get(todoKey())?.invalidated).toBe(true);
    expect(readers().forced).toEqual({ [todoKey()]: 'loading' });
    // The held request is a read in flight.
    expect(readers().fetching).toEqual([todoKey()]);
    // What a suspended component does: fetch, and wait.
    let settled = false;
    const waiting = store.controller.fetch(Todos.get, { id: 1 }).then(() => {
      settled = true;
    });
    await nextTask(30);
    expect(settled).toBe(false);
    expect(server.requests).toEqual([]);
    // The refetch lets the held request go: the reader gets the server's answer.
    expect(await send({ kind: 'refetch', storeId, key: todoKey() })).toEqual([]);
    await waiting;
    expect(server.requests.map((request) => request.url)).toEqual(['/todos/1']);
    expect(store.getState().meta.get(todoKey())?.invalidated).toBeUndefined();
    expect(readers().forced).toEqual({});
    expect(readers().fetching).toEqual([]);
  });

  it('force error: readers get an error that stays until a refetch', async () => {
    expect(await send({ kind: 'force-error', storeId, key: todoKey() })).toEqual([]);
    const error = errorOf(store.getState(), todoKey());
    expect(error).toMatchObject({ name: 'ForcedError', status: 500 });
    expect(store.getState().meta.get(todoKey())?.expiresAt).toBeGreaterThan(
      Date.now() + 365 * 24 * 60 * 60 * 1000,
    );
    expect(readers().forced).toEqual({ [todoKey()]: 'error' });
    const [event] = await latestEvents(1);
    expect(event?.action).toMatchObject({ type: 'setResponse', endpoint: 'Todo.get' });
    expect(event?.action.error).toMatchObject({ '@t': 'error', name: 'ForcedError' });

    expect(await send({ kind: 'refetch', storeId, key: todoKey() }, 50)).toEqual([]);
    await vi.waitFor(() => expect(errorOf(store.getState(), todoKey())).toBeUndefined());
    expect(readers().forced).toEqual({});
  });

  it('a key no read stored, or a malformed command, gets an error naming what was wrong', async () => {
    expect(await send({ kind: 'refetch', storeId, key: 'GET /nowhere' })).toEqual([
      'refetch: no read stored a result under "GET /nowhere"',
    ]);
    expect(await send({ kind: 'force-error', storeId, key: 42 as unknown as string })).toEqual([
      'force-error: `key` must be a result key (a string)',
    ]);
    await send({ kind: 'force-loading', storeId, key: todoKey() });
    expect(await send({ kind: 'force-error', storeId, key: todoKey() })).toEqual([
      `force-error: ${todoKey()} is forced to load; refetch it first`,
    ]);
  });
});

describe('readers', () => {
  it('counts the mounted readers of each result key', () => {
    const registry = readersOf(store);
    const reader = () => ({ check() {} });
    registry.set(reader(), { key: todoKey(), rows: [] });
    registry.set(reader(), { key: todoKey(), rows: [] });
    registry.set(reader(), { key: '__proto__', rows: [] });
    const gone = reader();
    registry.set(gone, { key: Todos.getList.key(), rows: [] });
    registry.remove(gone);
    const { readers: counts } = readers();
    expect(Object.entries(counts)).toEqual([
      [todoKey(), 2],
      ['__proto__', 1],
    ]);
  });

  it('tells a connected panel at once when components mount and unmount, after the events before', async () => {
    const registry = readersOf(store);
    const component = { check() {} };
    let mark = panel.mark;
    registry.set(component, { key: todoKey(), rows: [] });
    // A render mounts many: one message for the burst.
    registry.set({ check() {} }, { key: todoKey(), rows: [] });
    await nextTask(5);
    const told = panel.since(mark, storeId).filter((message) => message.kind === 'readers');
    expect(told.map((message) => message.kind === 'readers' && message.readers)).toEqual([
      { [todoKey()]: 2 },
    ]);

    // Its result failed, and it went to its error boundary: the error's event comes first.
    mark = panel.mark;
    await store.controller.setError(Todos.get, { id: 1 }, new Error('gone'));
    registry.remove(component);
    await nextTask(5);
    expect(panel.since(mark, storeId).map((message) => message.kind)).toEqual([
      'events',
      'readers',
    ]);

    // Without a panel, nothing is said.
    panel.send({ kind: 'disconnect' });
    await nextTask(5);
    mark = panel.mark;
    registry.remove({ check() {} });
    registry.set(component, { key: todoKey(), rows: [] });
    await nextTask(5);
    expect(panel.since(mark, storeId)).toEqual([]);
  });

  it('says which results are polled and at what frequency, until they are unsubscribed', async () => {
    const live = Todos.get.extend({ pollFrequency: 60_000 });
    const livelier = Todos.getList.extend({ pollFrequency: 30_000 });
    await store.controller.subscribe(live, { id: 1 });
    await store.controller.subscribe(livelier);
    try {
      expect(readers().polling).toEqual({ [todoKey()]: 60_000, [Todos.getList.key()]: 30_000 });
    } finally {
      await store.controller.unsubscribe(live, { id: 1 });
      await store.controller.unsubscribe(livelier);
    }
    expect(readers().polling).toEqual({});
  });
});

describe('edit', () => {
  it('writes one field through the store, as a devtools edit the timeline shows', async () => {
    const errors = await send(
      { kind: 'edit', storeId, entity: 'Todo', pk: '1', field: 'title', value: 'edited' },
      20,
    );
    expect(errors).toEqual([]);
    expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({
      id: 1,
      title: 'edited',
    });
    // Readers see it: the list and the single todo share the row.
    const list = store.controller.getResponse(Todos.getList, {}, store.getState()).data;
    expect(list?.find((todo) => todo.id === 1)?.title).toBe('edited');
    const [event] = await latestEvents(1);
    expect(event?.action).toMatchObject({
      type: 'setResponse',
      endpoint: 'RestLens.edit(Todo)',
      mutation: true,
      args: [{ pk: '1', field: 'title', value: 'edited' }],
    });
    expect(effectsOf(event, 'entities-updated')[0]?.updates).toEqual([
      { pk: '1', fields: [{ field: 'title', before: server.todos[0]?.title, after: 'edited' }] },
    ]);
    expect(server.requests).toEqual([]);
  });

  it('refuses what it cannot write, naming why; the store is unchanged', async () => {
    const before = store.getState();
    const edit = (fields: Record<string, unknown>) =>
      send({
        kind: 'edit',
        storeId,
        entity: 'Todo',
        pk: '1',
        field: 'title',
        value: 'x',
        ...fields,
      });
    expect(await edit({ pk: '99' })).toEqual(['edit: the store holds no Todo "99"']);
    expect(await edit({ field: 'nope' })).toEqual(['edit: Todo "1" has no field "nope"']);
    expect(await edit({ field: '__proto__' })).toEqual(['edit: Todo "1" has no field "__proto__"']);
    expect(await edit({ field: 'id', value: 2 })).toEqual([
      'edit: changing "id" would change the pk of Todo "1"',
    ]);
    expect(await edit({ entity: 'Nope' })).toEqual(['edit: the store holds no Nope "1"']);
    expect(await edit({ field: 7 })).toEqual([
      'edit: `field` must be a field name (a non-empty string)',
    ]);
    expect(await edit({ value: undefined })).toEqual([
      'edit: `value` must be a JSON value (at most 128 levels deep)',
    ]);
    expect(store.getState()).toBe(before);
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });
});
