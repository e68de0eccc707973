// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import {
  type ExtensionCommandBody,
  extensionCommand,
  MAX_MESSAGE_LENGTH,
  MAX_ROWS_PER_REQUEST,
  PROTOCOL_VERSION,
  pageMessage,
} from '../../src/devtools/protocol/messages.js';
import { createResource, createStore, type State, type Store } from '../../src/index.js';
import { Todo } from '../fixtures.js';
import { collectWindowErrors, dispatchFrom, nextTask, PanelStandIn } from './support.js';

const Todos = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: 'http://api.test' });
const GET_ONE = 'GET http://api.test/todos/1';

let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;
let windowErrors: ReturnType<typeof collectWindowErrors>;

beforeEach(() => {
  store = createStore();
  store.controller.setResponse(Todos.getList, {}, [
    { id: 1, title: 'one' },
    { id: 2, title: 'two' },
  ]);
  store.controller.setResponse(Todos.get, { id: 1 }, { id: 1, title: 'one' });
  panel = new PanelStandIn();
  // Answers in one task, however slow the machine: the tests read them right after a command.
  connection = connectDevtools(store, { batchInterval: 1, sliceMs: 60_000 });
  windowErrors = collectWindowErrors();
});
afterEach(() => {
  windowErrors.stop();
  connection.disconnect();
  panel.restore();
});

/** Commands that change the store or post something when they are accepted. */
function actingCommands(storeId: string): ExtensionCommandBody[] {
  return [
    { kind: 'connect', lastSeq: 0 },
    { kind: 'connect', lastSeq: 0, storeId },
    { kind: 'snapshot', storeId },
    { kind: 'expireAll', storeId },
    { kind: 'invalidate', storeId, key: GET_ONE },
    {
      kind: 'replay',
      storeId,
      replayId: 'x',
      mode: 'apply',
      mutations: [{ endpoint: 'Todo.delete', args: [{ id: 1 }], response: { id: 1 } }],
    },
    { kind: 'rows', storeId, table: 'Todo', pks: ['1', '2'] },
    { kind: 'rows', storeId, table: 'Todo', pks: ['1'], asOf: 1 },
    { kind: 'results', storeId, keys: [GET_ONE] },
    { kind: 'reset', storeId }, // last: on an empty store the others would change nothing
  ];
}

/** Sends `data` from `source`, waits for anything it could set off, and checks nothing happened. */
async function expectIgnored(data: unknown, source: MessageEventSource | null = window) {
  const before: State = store.getState();
  const mark = panel.mark;
  dispatchFrom(source, data);
  await nextTask(10); // replays run asynchronously; batches go out after 1 ms
  expect(store.getState()).toBe(before);
  expect(panel.since(mark)).toEqual([]);
  expect(windowErrors.errors).toEqual([]);
}

describe('the harness', () => {
  it('well-formed commands from the window do act (so the checks below can fail)', async () => {
    for (const body of actingCommands(connection.storeId)) {
      const before = store.getState();
      const mark = panel.mark;
      panel.send(body);
      await nextTask(10);
      const acted = store.getState() !== before || panel.since(mark).length > 0;
      expect({ kind: body.kind, acted }).toEqual({ kind: body.kind, acted: true });
    }
    expect(windowErrors.errors).toEqual([]);
  });
});

describe('hostile or foreign messages are ignored: no change, nothing posted, no exception', () => {
  it('from another source than the window itself', async () => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const channel = new MessageChannel();
    try {
      for (const body of actingCommands(connection.storeId)) {
        await expectIgnored(extensionCommand(body), null);
        await expectIgnored(extensionCommand(body), frame.contentWindow);
        await expectIgnored(extensionCommand(body), channel.port1);
      }
    } finally {
      frame.remove();
      channel.port1.close();
    }
  });

  it('with another tag', async () => {
    for (const body of actingCommands(connection.storeId)) {
      await expectIgnored({ ...extensionCommand(body), tag: 'redux-devtools' });
      await expectIgnored({ ...extensionCommand(body), tag: undefined });
    }
  });

  it('with another version', async () => {
    for (const body of actingCommands(connection.storeId)) {
      for (const v of [0, 1, PROTOCOL_VERSION + 1, String(PROTOCOL_VERSION), null])
        await expectIgnored({ ...extensionCommand(body), v });
    }
  });

  it("with source 'page': the page's own messages echoed back", async () => {
    for (const body of actingCommands(connection.storeId))
      await expectIgnored({ ...extensionCommand(body), source: 'page' });
    await expectIgnored(
      pageMessage({
        kind: 'hello',
        storeId: connection.storeId,
        storeName: 'x',
        libraryVersion: '0',
        seq: 0,
      }),
    );
    await expectIgnored({
      ...extensionCommand({ kind: 'reset', storeId: connection.storeId }),
      source: undefined,
    });
  });

  it('of a malformed shape', async () => {
    const { storeId } = connection;
    const envelope = { tag: 'restlens', v: PROTOCOL_VERSION, source: 'extension' };
    const malformed: unknown[] = [
      null,
      undefined,
      'reset',
      42,
      [],
      [envelope],
      {},
      envelope,
      { ...envelope, kind: 'eval', storeId, code: 'alert(1)' },
      { ...envelope, kind: 'connect' },
      { ...envelope, kind: 'connect', lastSeq: -1 },
      { ...envelope, kind: 'connect', lastSeq: '0' },
      { ...envelope, kind: 'connect', lastSeq: 1.5 },
      { ...envelope, kind: 'connect', lastSeq: Number.NaN },
      { ...envelope, kind: 'connect', lastSeq: 0, storeId: '' },
      { ...envelope, kind: 'connect', lastSeq: 0, storeId: 42 },
      { ...envelope, kind: 'reset' },
      { ...envelope, kind: 'reset', storeId: { toString: () => storeId } },
      { ...envelope, kind: 'reset', storeId: [storeId] },
      { ...envelope, kind: 'invalidate', storeId },
      { ...envelope, kind: 'invalidate', storeId, key: { toString: () => GET_ONE } },
      { ...envelope, kind: 'replay', storeId, replayId: 'x', mode: 'apply' },
      { ...envelope, kind: 'replay', storeId, replayId: 'x', mode: 'exec', mutations: [] },
      {
        ...envelope,
        kind: 'replay',
        storeId,
        mode: 'apply',
        mutations: [{ endpoint: 'Todo.delete', args: [{ id: 1 }], response: { id: 1 } }],
      },
      {
        ...envelope,
        kind: 'replay',
        storeId,
        replayId: 'x',
        mode: 'apply',
        mutations: { 0: { endpoint: 'Todo.delete', args: [{ id: 1 }], response: { id: 1 } } },
      },
      { ...envelope, kind: 'rows', storeId, table: 'Todo' },
      { ...envelope, kind: 'rows', storeId, pks: ['1'] },
      { ...envelope, kind: 'rows', storeId, table: '', pks: ['1'] },
      { ...envelope, kind: 'rows', storeId, table: 'Todo', pks: '1' },
      { ...envelope, kind: 'rows', storeId, table: 'Todo', pks: { 0: '1', length: 1 } },
      { ...envelope, kind: 'rows', storeId, table: 'Todo', pks: [1] },
      { ...envelope, kind: 'rows', storeId, table: 'Todo', pks: ['1', null] },
      { ...envelope, kind: 'rows', storeId, table: 'Todo', pks: ['1', { toString: () => '2' }] },
      { ...envelope, kind: 'rows', storeId, table: 'Todo', pks: ['1'], asOf: -1 },
      { ...envelope, kind: 'rows', storeId, table: 'Todo', pks: ['1'], asOf: { valueOf: () => 1 } },
      { ...envelope, kind: 'results', storeId },
      { ...envelope, kind: 'results', storeId, keys: GET_ONE },
      { ...envelope, kind: 'results', storeId, keys: [GET_ONE], asOf: '1' },
      // More pks than one request may ask for (MAX_ROWS_PER_REQUEST are accepted: bridge tests).
      {
        ...envelope,
        kind: 'rows',
        storeId,
        table: 'Todo',
        pks: Array.from({ length: MAX_ROWS_PER_REQUEST + 1 }, (_, index) => String(index)),
      },
    ];
    for (const data of malformed) await expectIgnored(data);
  });

  it('whose fields throw when read', async () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        has() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    await expectIgnored(trap);
    await expectIgnored({
      ...extensionCommand({ kind: 'reset', storeId: connection.storeId }),
      get storeId(): string {
        throw new Error('trap');
      },
    });
  });

  it('an oversized replay payload, or one that cannot be measured', async () => {
    const { storeId } = connection;
    const mutation = { endpoint: 'Todo.delete', args: [{ id: 1 }], response: { id: 1 } };
    const oversized = extensionCommand({
      kind: 'replay',
      storeId,
      replayId: 'big',
      mode: 'apply',
      mutations: [mutation, { endpoint: 'Todo.get', args: ['x'.repeat(MAX_MESSAGE_LENGTH)] }],
    });
    await expectIgnored(oversized);
    const cyclic: Record<string, unknown> = { endpoint: 'Todo.get', args: [] };
    (cyclic.args as unknown[]).push(cyclic);
    await expectIgnored(
      extensionCommand({
        kind: 'replay',
        storeId,
        replayId: 'cyclic',
        mode: 'apply',
        mutations: [mutation, cyclic as never],
      }),
    );
  });

  it('a command for another store id', async () => {
    for (const body of actingCommands('store-999-other')) {
      // Connect without a store id is for every store: that one is not foreign.
      if (body.kind === 'connect' && !('storeId' in body)) continue;
      await expectIgnored(extensionCommand(body));
    }
  });
});

describe('after hostile messages', () => {
  it('the bridge still answers a well-formed command', async () => {
    await expectIgnored({
      tag: 'restlens',
      v: PROTOCOL_VERSION,
      source: 'extension',
      kind: 'connect',
    });
    store.controller.setResponse(Todos.get, { id: 2 }, { id: 2, title: 'two' });
    const answer = panel.connect(0, connection.storeId);
    expect(answer.map((message) => message.kind)).toEqual([
      'hello',
      'snapshot',
      'members',
      'members',
      'events',
    ]);
    expect(panel.events(connection.storeId).map((event) => event.action.endpoint)).toEqual([
      'Todo.get',
    ]);
  });
});
