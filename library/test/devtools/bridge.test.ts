// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import { encode } from '../../src/devtools/page/encode.js';
import { RELAY_MESSAGE_LENGTH } from '../../src/devtools/page/snapshot.js';
import { LIBRARY_VERSION } from '../../src/devtools/page/version.js';
import type { StoreEvent } from '../../src/devtools/protocol/effects.js';
import {
  type EventsMessage,
  MAX_MESSAGE_LENGTH,
  MAX_ROWS_PER_REQUEST,
  type PageMessage,
  PROTOCOL_TAG,
  PROTOCOL_VERSION,
  SNAPSHOT_CHUNK_LENGTH,
  type SnapshotState,
  TIMELINE_LENGTH,
} from '../../src/devtools/protocol/messages.js';
import { isPageMessage } from '../../src/devtools/protocol/validate.js';
import { createStore, Endpoint, Entity, type Store, schema } from '../../src/index.js';
import { DataProvider } from '../../src/react/index.js';
import { endpoint, plain, Todo, todoList } from '../fixtures.js';
import { effectsOf, eventsIn, joinSnapshot, nextTask, PanelStandIn } from './support.js';

/** A schema-less endpoint: every `setResponse` of it is one event with one result. */
const note = endpoint('note', undefined);
const getTodos = endpoint('getTodos', todoList);
const deleteTodo = endpoint('deleteTodo', new schema.Invalidate(Todo), { sideEffect: true });
const pushTodo = endpoint('pushTodo', todoList.push, { sideEffect: true });
const todo = (id: number) => ({ id, title: `todo ${id}`, userId: 1 });

/** Records `count` events in the store (one `setResponse` each), numbered from `from`. */
function notes(store: Store, count: number, from = 1) {
  for (let n = from; n < from + count; n++) store.controller.setResponse(note, n, { n });
}

/**
 * The text a snapshot of this state starts with: results and meta encoded (no cap reached
 * here), each entity table's size and each collection row's, in the page's order.
 */
function headOf(store: Store): SnapshotState {
  const state = store.getState();
  const tableSizes: Record<string, number> = {};
  const collectionSizes: Record<string, Record<string, number>> = {};
  for (const [key, table] of state.entities) {
    if (!key.startsWith('[')) tableSizes[key] = table.size;
    else
      collectionSizes[key] = Object.fromEntries(
        [...table].map(([row, members]) => [row, (plain(members) as string[]).length]),
      );
  }
  return JSON.parse(
    JSON.stringify({
      entities: {},
      tableSizes,
      collectionSizes,
      endpoints: encode(plain(state.endpoints)),
      meta: encode(plain(state.meta)),
      optimistic: [],
    }),
  ) as SnapshotState;
}

/**
 * What a panel holds once a snapshot of this state and its lists came (see joinSnapshot): its
 * text, with collection rows and their members, and entity tables as their pks (rows on demand).
 */
function expectedSnapshot(store: Store): SnapshotState {
  const state = store.getState();
  const entities: Record<string, Record<string, string[]>> = {};
  const pks: Record<string, string[]> = {};
  for (const [key, table] of state.entities) {
    if (key.startsWith('[')) entities[key] = plain(table) as Record<string, string[]>;
    else pks[key] = [...table.keys()];
  }
  return { ...headOf(store), entities, pks };
}

let panel: PanelStandIn;
const connections: DevtoolsConnection[] = [];
/**
 * connectDevtools, disconnected after the test. Its answers come whole in one task, however slow
 * the test machine: these tests read what was posted right after a command (see 'sliced answers'
 * for the answers made in several tasks).
 */
function connect(store: Store, options?: Parameters<typeof connectDevtools>[1]) {
  const connection = connectDevtools(store, { sliceMs: 60_000, ...options });
  connections.push(connection);
  return connection;
}

beforeEach(() => {
  panel = new PanelStandIn();
});
afterEach(() => {
  for (const connection of connections.splice(0)) connection.disconnect();
  cleanup();
  panel.restore();
  vi.useRealTimers();
});

describe('handshake', () => {
  it('posts hello when it starts: tag, version, store id and name, library version, seq 0', () => {
    document.title = 'Todo app';
    const store = createStore();
    const { storeId } = connect(store);
    expect(panel.messages).toEqual([
      {
        tag: PROTOCOL_TAG,
        v: PROTOCOL_VERSION,
        source: 'page',
        kind: 'hello',
        storeId,
        storeName: 'Todo app',
        libraryVersion: LIBRARY_VERSION,
        seq: 0,
      },
    ]);
    connect(createStore(), { name: 'Cart' });
    expect(panel.hellos()[1]?.storeName).toBe('Cart');
  });

  it('greets on the window with the port it talks on, and posts nothing else on the window', async () => {
    const onWindow: unknown[] = [];
    const listen = (event: MessageEvent) => onWindow.push(event.data);
    window.addEventListener('message', listen);
    const onPort: PageMessage[] = [];
    try {
      const store = createStore();
      const { storeId, flush } = connect(store, { batchInterval: 0 });
      const port = panel.ports.get(storeId);
      if (port === undefined) throw new Error('the greeting transferred no port');
      port.addEventListener('message', (event) => onPort.push(event.data));
      port.start();
      panel.connect(0, storeId);
      notes(store, 2);
      flush();
      await vi.waitFor(() => expect(onPort.at(-1)?.kind).toBe('events'));
      expect(onPort.map((message) => message.kind)).toEqual(['hello', 'snapshot', 'events']);
      expect(onPort[0]).toMatchObject({ kind: 'hello', storeId, answering: true });
      expect(eventsIn(onPort[2] as EventsMessage).map((event) => event.seq)).toEqual([1, 2]);
      // The window carried the greeting (and the panel's command), nothing the store said after.
      // (Earlier tests' stores greeted on this window too: jsdom delivers in a later task.)
      await nextTask();
      const ours = onWindow.filter((data) => isPageMessage(data) && data.storeId === storeId);
      expect(ours).toEqual([panel.hellos(storeId)[0]]);
    } finally {
      window.removeEventListener('message', listen);
    }
  });

  it('answers connect {lastSeq: 0} with hello, a snapshot, then the history flagged `history`', () => {
    const store = createStore();
    const { storeId } = connect(store);
    store.controller.setResponse(getTodos, {}, [
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
    ]);
    notes(store, 1);
    const answer = panel.connect(0);
    // The snapshot's lists: the collection row's members, then the table's pks.
    expect(answer.map((message) => message.kind)).toEqual([
      'hello',
      'snapshot',
      'members',
      'members',
      'events',
    ]);
    const [hello, snapshot, , , history] = answer;
    expect(hello).toMatchObject({ kind: 'hello', storeId, seq: 2 });
    expect(snapshot).toMatchObject({ kind: 'snapshot', storeId, seq: 2, index: 0, count: 1 });
    expect(joinSnapshot(panel.since(0, storeId))).toEqual(expectedSnapshot(store));
    expect(history).toMatchObject({ kind: 'events', storeId, history: true });
    expect(panel.events(storeId).map((event) => event.seq)).toEqual([1, 2]);
    expect(panel.events(storeId)[0]?.action).toMatchObject({
      type: 'setResponse',
      endpoint: 'getTodos',
      response: [
        { id: 1, title: 'a' },
        { id: 2, title: 'b' },
      ],
    });
  });

  it('a connect with an empty store sends hello and an empty snapshot, no events', () => {
    const store = createStore();
    connect(store);
    const answer = panel.connect(0);
    expect(answer.map((message) => message.kind)).toEqual(['hello', 'snapshot']);
    expect(joinSnapshot(panel.since(0))).toEqual(expectedSnapshot(store));
    expect(joinSnapshot(panel.since(0)).entities).toEqual({});
  });
});

describe('the ring before a panel connects', () => {
  it('posts nothing but hello, and sends the events from before the panel opened', () => {
    const store = createStore();
    const { storeId } = connect(store);
    notes(store, 4);
    expect(panel.messages.map((message) => message.kind)).toEqual(['hello']);
    panel.connect(0);
    const history = panel.eventMessages(storeId);
    expect(history.every((message) => message.history === true)).toBe(true);
    expect(panel.events(storeId).map((event) => event.action.args)).toEqual([[1], [2], [3], [4]]);
  });

  it('is bounded by ringSize: the oldest events are dropped', () => {
    const store = createStore();
    const { storeId } = connect(store, { ringSize: 3 });
    notes(store, 5);
    panel.connect(0);
    expect(panel.events(storeId).map((event) => event.seq)).toEqual([3, 4, 5]);
    expect(panel.hellos(storeId).at(-1)?.seq).toBe(5);
  });

  it('keeps 1000 events by default', () => {
    const store = createStore();
    const { storeId } = connect(store);
    notes(store, 1005);
    panel.connect(0);
    const seqs = panel.events(storeId).map((event) => event.seq);
    expect(seqs).toHaveLength(1000);
    expect(seqs[0]).toBe(6);
    expect(seqs.at(-1)).toBe(1005);
  });

  it('sends as history the newest TIMELINE_LENGTH changes of a longer ring (what a timeline keeps)', () => {
    const store = createStore();
    const { storeId } = connect(store, { ringSize: TIMELINE_LENGTH + 500 });
    notes(store, TIMELINE_LENGTH + 300);
    panel.connect(0);
    const seqs = panel.events(storeId).map((event) => event.seq);
    expect(seqs).toHaveLength(TIMELINE_LENGTH);
    expect([seqs[0], seqs.at(-1)]).toEqual([301, TIMELINE_LENGTH + 300]);
    // A panel that missed a few still gets every one of them, to apply.
    expect(panel.pull(storeId, 5).map((event) => event.seq)).toHaveLength(TIMELINE_LENGTH + 295);
  });

  it('describes the changes the ring holds when a panel connects, across disconnects', () => {
    const store = createStore();
    const { storeId } = connect(store, { ringSize: 3 });
    const pushes = (ids: number[]) => {
      for (const id of ids) store.controller.setResponse(pushTodo, todo(id));
    };
    store.controller.setResponse(getTodos, [todo(1)]);
    pushes([2, 3, 4, 5, 6, 7, 8, 9]);
    const lengths = (from: number) =>
      panel
        .events(storeId, from)
        .flatMap((event) => event.effects)
        .flatMap((effect) =>
          effect.type === 'collection-changed'
            ? [[effect.kind, effect.lengthBefore, effect.lengthAfter]]
            : [],
        );
    panel.connect(0);
    expect(panel.events(storeId).map((event) => event.seq)).toEqual([7, 8, 9]);
    expect(lengths(0)).toEqual([
      ['push', 6, 7],
      ['push', 7, 8],
      ['push', 8, 9],
    ]);
    panel.send({ kind: 'disconnect' });
    pushes([10, 11]);
    const mark = panel.mark;
    panel.connect(9);
    expect(lengths(mark)).toEqual([
      ['push', 9, 10],
      ['push', 10, 11],
    ]);
  });

  it("runs none of the app's code again when a panel connects: the ring kept what happened", () => {
    let pks = 0;
    let keyThrows = false;
    class Counted extends Entity {
      id = 0;
      pk() {
        pks++;
        return `${this.id}`;
      }
      static override key = 'Counted';
    }
    const setCounted = new Endpoint(async (_params: { id: number }) => undefined, {
      name: 'setCounted',
      schema: Counted,
      key: (params: { id: number }) => {
        if (keyThrows) throw new Error('no key the second time');
        return `counted ${params.id}`;
      },
    });
    const store = createStore();
    const { storeId } = connect(store, { ringSize: 3 });
    for (let id = 1; id <= 20; id++) store.controller.setResponse(setCounted, { id }, { id });
    pks = 0;
    keyThrows = true;
    panel.connect(0);
    expect(pks).toBe(0);
    const events = panel.events(storeId);
    expect(events.map((event) => [event.seq, event.action.key, event.effectsOmitted])).toEqual([
      [18, 'counted 18', undefined],
      [19, 'counted 19', undefined],
      [20, 'counted 20', undefined],
    ]);
    expect(events[2]?.effects.map((effect) => effect.type)).toEqual([
      'entities-added',
      'result-stored',
    ]);
  });

  it("sends a call's args as they were, however many", () => {
    const store = createStore();
    const { storeId } = connect(store);
    const calls = [[], [1], [1, { two: 2 }], [1, { two: 2 }, [3]]];
    for (const args of calls) store.controller.setResponse(note, ...args, { args });
    panel.connect(0);
    expect(panel.events(storeId).map((event) => event.action.args)).toEqual(calls);
  });

  it('serializes nothing until a panel connects', () => {
    const store = createStore();
    connect(store);
    let reads = 0;
    const response = {
      get secret() {
        reads++;
        return 'read';
      },
    };
    store.controller.setResponse(note, 1, response);
    // The store keeps a copy of what it is given: it reads the response once, the bridge not yet.
    expect(reads).toBe(1);
    panel.connect(0);
    expect(reads).toBeGreaterThan(1);
    expect(panel.events()[0]?.action.response).toEqual({ secret: 'read' });
  });
});

describe('batching', () => {
  it('sends the first events after a quiet spell once their task ends, the next ones one batchInterval after the last batch', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 40 });
    panel.connect(0);
    const mark = panel.mark;
    const sent = () => panel.eventMessages(storeId, mark).map((m) => eventsIn(m).map((e) => e.seq));
    notes(store, 1, 1);
    expect(sent()).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(sent()).toEqual([[1]]);
    vi.advanceTimersByTime(15);
    notes(store, 1, 2);
    vi.advanceTimersByTime(15);
    notes(store, 1, 3);
    vi.advanceTimersByTime(9); // 39 ms after the first batch
    expect(sent()).toEqual([[1]]);
    vi.advanceTimersByTime(1);
    expect(sent()).toEqual([[1], [2, 3]]);
    expect(panel.eventMessages(storeId, mark)[1]?.history).toBeUndefined();
    // A quiet spell longer than the interval: the next events go at once again.
    vi.advanceTimersByTime(100);
    notes(store, 2, 4);
    vi.advanceTimersByTime(0);
    expect(sent()).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('a batch too large for one message is split, each part valid, with no seq lost', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 10 });
    panel.connect(0);
    const mark = panel.mark;
    // About 20 KB each once encoded (in the result-stored effect, which keeps up to 256 KB;
    // the action's response is only a preview): ten of them exceed one message's ~64 KB.
    for (let n = 1; n <= 10; n++)
      store.controller.setResponse(
        note,
        n,
        Array.from({ length: 20 }, () => 'z'.repeat(1000)),
      );
    vi.advanceTimersByTime(10);
    const batches = panel.eventMessages(storeId, mark); // each passed isPageMessage
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.length).toBeLessThan(10);
    expect(batches.flatMap((m) => eventsIn(m).map((e) => e.seq))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    for (const batch of batches) expect(JSON.stringify(batch).length).toBeLessThan(1024 * 1024);
  });

  it('waits 50 ms after a batch by default', () => {
    vi.useFakeTimers();
    const store = createStore();
    connect(store);
    panel.connect(0);
    notes(store, 1);
    vi.advanceTimersByTime(0);
    const mark = panel.mark;
    notes(store, 2);
    vi.advanceTimersByTime(49);
    expect(panel.since(mark)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(panel.events(undefined, mark).map((event) => event.seq)).toEqual([2, 3]);
  });

  it('a disconnect command stops sending; events meanwhile stay in the ring', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 10 });
    panel.connect(0);
    notes(store, 1);
    panel.send({ kind: 'disconnect' });
    const mark = panel.mark;
    notes(store, 2, 2);
    vi.advanceTimersByTime(100);
    expect(panel.since(mark)).toEqual([]);
    expect(panel.pull(storeId, 1).map((event) => event.seq)).toEqual([2, 3]);
  });
});

describe('resync', () => {
  it('connect {lastSeq: n} gets exactly the events after n, without a snapshot', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 10 });
    panel.connect(0);
    notes(store, 3);
    vi.advanceTimersByTime(10);
    expect(panel.events(storeId).map((event) => event.seq)).toEqual([1, 2, 3]);
    notes(store, 2, 4); // the panel misses these (say its port was down)
    const answer = panel.connect(3, storeId);
    expect(answer.map((message) => message.kind)).toEqual(['hello', 'events']);
    expect(answer[1]).not.toHaveProperty('history');
    expect(
      answer.flatMap((m) => (m.kind === 'events' ? eventsIn(m) : [])).map((e) => e.seq),
    ).toEqual([4, 5]);
    // The queued live batch was replaced by the resync: nothing is sent twice.
    const mark = panel.mark;
    vi.advanceTimersByTime(100);
    expect(panel.since(mark)).toEqual([]);
  });

  it('a panel that is up to date gets only hello', () => {
    const store = createStore();
    connect(store);
    notes(store, 3);
    expect(panel.connect(3).map((message) => message.kind)).toEqual(['hello']);
  });

  it('sends a fresh snapshot and the ring as history when the missing events left the ring', () => {
    const store = createStore();
    const { storeId } = connect(store, { ringSize: 3 });
    notes(store, 6); // the ring holds 4, 5, 6
    const answer = panel.connect(2, storeId);
    expect(answer.map((message) => message.kind)).toEqual(['hello', 'snapshot', 'events']);
    expect(answer[1]).toMatchObject({ seq: 6 });
    expect(joinSnapshot(panel.since(0, storeId))).toEqual(expectedSnapshot(store));
    expect(answer[2]).toMatchObject({ history: true });
    expect(panel.events(storeId).map((event) => event.seq)).toEqual([4, 5, 6]);
  });

  it('the last event before the ring still resyncs with events only', () => {
    const store = createStore();
    const { storeId } = connect(store, { ringSize: 3 });
    notes(store, 6);
    expect(panel.pull(storeId, 3).map((event) => event.seq)).toEqual([4, 5, 6]);
  });

  it('a lastSeq ahead of the store (a panel of another page load) gets a snapshot', () => {
    const store = createStore();
    connect(store);
    notes(store, 2);
    expect(panel.connect(99).map((message) => message.kind)).toEqual([
      'hello',
      'snapshot',
      'events',
    ]);
  });
});

describe('snapshots', () => {
  it('counts the lists in its text; they follow it in parts of about a relay message, before the history', () => {
    const store = createStore();
    const { storeId } = connect(store);
    // Long pks: each list is hundreds of KB.
    const todos = Array.from({ length: 300 }, (_, index) => ({
      id: `${index} ${'x'.repeat(3000)}`,
      title: `${index}`,
    }));
    store.controller.setResponse(getTodos, {}, todos);
    const answer = panel.connect(0);
    const kinds = answer.map((message) => message.kind);
    const chunks = panel.snapshots(storeId);
    expect(chunks).toHaveLength(1);
    // The text says how long the lists are, and holds none of them.
    expect(chunks[0]?.data.length).toBeLessThan(1000);
    expect(JSON.parse(chunks[0]?.data ?? '')).toEqual(headOf(store));
    expect(headOf(store)).toMatchObject({
      tableSizes: { Todo: 300 },
      collectionSizes: { '[Todo]': { '{}': 300 } },
    });
    const parts = answer.filter((message) => message.kind === 'members');
    expect(parts.length).toBeGreaterThanOrEqual(2 * 13);
    for (const part of parts) {
      expect(part).toMatchObject({ storeId, seq: 1 });
      expect(part.data.length).toBeLessThanOrEqual(RELAY_MESSAGE_LENGTH + 3100);
    }
    // The collection row first (the first view shows it), then the table; the history after.
    expect(parts[0]).toMatchObject({ table: '[Todo]', row: '{}' });
    expect(parts.at(-1)).toMatchObject({ table: 'Todo' });
    expect(parts.at(-1)).not.toHaveProperty('row');
    expect(kinds.lastIndexOf('members')).toBeLessThan(kinds.indexOf('events'));
    const snapshot = joinSnapshot(answer);
    expect(snapshot).toEqual(expectedSnapshot(store));
    expect(snapshot.pks?.Todo).toHaveLength(300);
    expect(snapshot.entities['[Todo]']?.['{}']).toEqual(todos.map((todo) => todo.id));
  });

  it('a text longer than SNAPSHOT_CHUNK_LENGTH is cut into chunks that join into it', () => {
    const store = createStore();
    const { storeId } = connect(store);
    store.controller.setResponse(note, 1, { texts: Array(50).fill('x'.repeat(9000)) });
    panel.connect(0);
    const chunks = panel.snapshots(storeId);
    expect(chunks.length).toBeGreaterThanOrEqual(450_000 / RELAY_MESSAGE_LENGTH);
    for (const [index, chunk] of chunks.entries()) {
      expect(chunk.data.length).toBeLessThanOrEqual(SNAPSHOT_CHUNK_LENGTH);
      expect(chunk).toMatchObject({ index, count: chunks.length, seq: 1 });
    }
    expect(joinSnapshot(chunks)).toEqual(expectedSnapshot(store));
  });

  it('the snapshot command sends a fresh snapshot at the current seq', () => {
    const store = createStore();
    const { storeId } = connect(store);
    panel.connect(0);
    notes(store, 2);
    const mark = panel.mark;
    panel.send({ kind: 'snapshot', storeId });
    const chunks = panel.snapshots(storeId, mark);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.seq).toBe(2);
    expect(joinSnapshot(chunks).endpoints).toEqual({ 'note [1]': { n: 1 }, 'note [2]': { n: 2 } });
  });

  it('no chunk ends inside a surrogate pair (each chunk is well-formed text on its own)', () => {
    const store = createStore();
    const { storeId } = connect(store);
    const boundary = () => JSON.stringify(headOf(store))[RELAY_MESSAGE_LENGTH - 1] ?? '';
    // A result of emoji, after 0 or 1 letters: one of the two puts the first chunk boundary
    // between the two halves of an emoji.
    for (const prefix of ['', 'a']) {
      const text = `${prefix}${'😀'.repeat(4999)}`;
      store.controller.setResponse(note, 1, { texts: Array(20).fill(text) });
      if (/[\uD800-\uDBFF]/.test(boundary())) break;
    }
    expect(boundary()).toMatch(/[\uD800-\uDBFF]/); // the case this test is about
    panel.connect(0);
    const chunks = panel.snapshots(storeId);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.data.length).toBeLessThanOrEqual(SNAPSHOT_CHUNK_LENGTH);
      expect(chunk.data).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(chunk.data).not.toMatch(/^[\uDC00-\uDFFF]/);
    }
    expect(joinSnapshot(chunks)).toEqual(expectedSnapshot(store));
  });
});

describe('the rows command', () => {
  it('answers the rows as stored now, encoded; null for a pk or a table the store does not hold', () => {
    const store = createStore();
    const { storeId } = connect(store);
    const due = new Date('2030-01-02T03:04:05.000Z');
    store.controller.setResponse(getTodos, {}, [
      { id: 1, title: 'a', author: { id: 9, name: 'Ada' } },
      { id: 2, title: 'b' },
    ]);
    store.controller.setResponse(getTodos, {}, [
      { id: 1, title: 'renamed', due, author: { id: 9, name: 'Ada' } },
      { id: 2, title: 'b' },
    ]);
    const todos = store.getState().entities.get('Todo');
    const answer = panel.rows(storeId, 'Todo', ['2', '1', '404']);
    expect(answer).toEqual({
      tag: PROTOCOL_TAG,
      v: PROTOCOL_VERSION,
      source: 'page',
      kind: 'rows',
      storeId,
      seq: 2,
      table: 'Todo',
      rows: { '1': encode(todos?.get('1')), '2': encode(todos?.get('2')), '404': null },
    });
    // The current row, with what JSON cannot carry encoded, and the nested entity by its pk.
    expect(answer.rows['1']).toMatchObject({
      id: 1,
      title: 'renamed',
      due: { '@t': 'date', v: '2030-01-02T03:04:05.000Z' },
      author: '9',
    });
    expect(panel.rows(storeId, 'User', ['9']).rows).toEqual({ '9': { id: 9, name: 'Ada' } });
    expect(panel.rows(storeId, 'Nope', ['1', '2'])).toMatchObject({
      table: 'Nope',
      rows: { '1': null, '2': null },
    });
    expect(panel.rows(storeId, 'Todo', []).rows).toEqual({});
  });

  it('answers for every pk the snapshot lists, an invalidated entity included', () => {
    const store = createStore();
    const { storeId } = connect(store);
    store.controller.setResponse(getTodos, {}, [
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
    ]);
    store.controller.setResponse(deleteTodo, { id: 2 }, { id: 2 });
    panel.connect(0);
    const snapshot = joinSnapshot(panel.since(0, storeId));
    expect(snapshot.pks?.Todo).toEqual(['1', '2']);
    const { rows } = panel.rows(storeId, 'Todo', ['1', '2']);
    expect(rows).toEqual({ '1': { id: 1, title: 'a' }, '2': { '@@restlens/invalid': true } });
  });

  it('answers as of the last event posted, and leaves the events waiting to their batch', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 40 });
    panel.connect(0);
    store.controller.setResponse(getTodos, {}, [{ id: 1, title: 'a' }]);
    vi.advanceTimersByTime(40);
    const mark = panel.mark;
    store.controller.setResponse(getTodos, {}, [{ id: 1, title: 'b' }]);
    notes(store, 1);
    panel.send({ kind: 'rows', storeId, table: 'Todo', pks: ['1'] });
    // The panel holds event 1: the row is as of it, and says so.
    expect(panel.since(mark)).toEqual([
      expect.objectContaining({ kind: 'rows', seq: 1, rows: { '1': { id: 1, title: 'a' } } }),
    ]);
    // The batch goes at its time; the row it changed is then read as of it.
    vi.advanceTimersByTime(40);
    expect(panel.events(storeId, mark).map((event) => event.seq)).toEqual([2, 3]);
    expect(panel.rows(storeId, 'Todo', ['1'])).toMatchObject({
      seq: 3,
      rows: { '1': { id: 1, title: 'b' } },
    });
  });

  it('with nothing waiting, answers alone, at the seq of the last event sent', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 10 });
    notes(store, 2);
    panel.connect(0);
    store.controller.setResponse(getTodos, {}, [{ id: 5, title: 'five' }]);
    vi.advanceTimersByTime(10);
    const mark = panel.mark;
    const answer = panel.rows(storeId, 'Todo', ['5']);
    expect(panel.since(mark)).toEqual([answer]);
    expect(answer).toMatchObject({ seq: 3, rows: { '5': { id: 5, title: 'five' } } });
  });

  it(`answers up to MAX_ROWS_PER_REQUEST (${MAX_ROWS_PER_REQUEST}) pks; more, or pks that are not strings, are ignored`, () => {
    const store = createStore();
    const { storeId } = connect(store);
    const count = MAX_ROWS_PER_REQUEST + 5;
    store.controller.setResponse(
      getTodos,
      {},
      Array.from({ length: count }, (_, index) => ({ id: index + 1, title: `t${index + 1}` })),
    );
    const pks = Array.from({ length: MAX_ROWS_PER_REQUEST }, (_, index) => String(index + 1));
    const { rows } = panel.rows(storeId, 'Todo', pks);
    expect(Object.keys(rows)).toHaveLength(MAX_ROWS_PER_REQUEST);
    expect(rows[String(MAX_ROWS_PER_REQUEST)]).toEqual({
      id: MAX_ROWS_PER_REQUEST,
      title: `t${MAX_ROWS_PER_REQUEST}`,
    });

    const mark = panel.mark;
    panel.send({ kind: 'rows', storeId, table: 'Todo', pks: [...pks, String(count)] });
    panel.send({ kind: 'rows', storeId, table: 'Todo', pks: [1, 2] as unknown as string[] });
    panel.send({
      kind: 'rows',
      storeId,
      table: 'Todo',
      pks: ['1', undefined] as unknown as string[],
    });
    expect(panel.since(mark)).toEqual([]);
  });

  it('a thousand large rows still fit one valid message: each row is cut with a marker', () => {
    const store = createStore();
    const { storeId } = connect(store);
    // 9 000 characters each (under the encoder's string cap): 9 MB of rows in all.
    store.controller.setResponse(
      getTodos,
      {},
      Array.from({ length: MAX_ROWS_PER_REQUEST }, (_, index) => ({
        id: index + 1,
        title: 'x'.repeat(9000),
      })),
    );
    const pks = Array.from({ length: MAX_ROWS_PER_REQUEST }, (_, index) => String(index + 1));
    const answer = panel.rows(storeId, 'Todo', pks); // passed isPageMessage
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    for (const pk of pks) {
      const row = answer.rows[pk] as Record<string, unknown>;
      expect(row.id).toBe(Number(pk));
      expect(JSON.stringify(row)).toContain('"@t":"truncated"');
    }
  });
});

describe('an event whose effects do not fit in one message', () => {
  /**
   * 40 todos with pks of 100 000 characters: their list response names each pk three times in
   * its effects (added, inserted, members), about 12 MB, more than MAX_MESSAGE_LENGTH.
   */
  const longPkTodos = () =>
    Array.from({ length: 40 }, (_, index) => ({
      id: String(index).padStart(100_000, 'x'),
      title: `t${index}`,
    }));

  it('goes without its effects, flagged; a snapshot follows; no seq is lost', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 10 });
    panel.connect(0);
    const mark = panel.mark;
    notes(store, 1);
    store.controller.setResponse(getTodos, {}, longPkTodos());
    notes(store, 1, 3);
    vi.advanceTimersByTime(10);

    const posted = panel.since(mark, storeId); // each passed isPageMessage
    for (const message of posted)
      expect(JSON.stringify(message).length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    const kinds = posted.map((message) => message.kind);
    expect(kinds).toContain('events');
    expect(kinds.indexOf('snapshot')).toBeGreaterThan(kinds.lastIndexOf('events'));

    const events = panel.events(storeId, mark);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
    const [first, large, last] = events;
    expect(large).toMatchObject({
      seq: 2,
      effectsOmitted: true,
      effects: [],
      action: { type: 'setResponse', endpoint: 'getTodos' },
    });
    for (const small of [first, last]) {
      expect(small).not.toHaveProperty('effectsOmitted');
      expect(small?.effects.map((effect) => effect.type)).toEqual(['result-stored']);
    }

    // The snapshot is current at the last event and holds what the omitted effects did.
    expect(panel.snapshots(storeId, mark)[0]?.seq).toBe(3);
    const snapshot = joinSnapshot(panel.since(mark, storeId));
    const pks = longPkTodos().map((todo) => todo.id);
    expect([...(snapshot.pks?.Todo ?? [])].sort()).toEqual([...pks].sort());
    expect(snapshot.entities['[Todo]']?.['{}']).toEqual(pks);
  });

  it('a resync over it sends the missing events, the large one flagged, then a snapshot', () => {
    const store = createStore();
    const { storeId } = connect(store);
    notes(store, 1);
    store.controller.setResponse(getTodos, {}, longPkTodos());
    notes(store, 1, 3);
    const answer = panel.connect(1, storeId);
    const kinds = answer.map((message) => message.kind);
    expect(kinds.slice(0, 2)).toEqual(['hello', 'events']);
    expect(kinds.indexOf('snapshot')).toBeGreaterThan(kinds.lastIndexOf('events'));
    expect(kinds.at(-1)).toBe('members');
    expect(new Set(kinds.slice(kinds.indexOf('snapshot') + 1))).toEqual(new Set(['members']));
    const events = answer.flatMap((message) =>
      message.kind === 'events' ? eventsIn(message) : [],
    );
    expect(events.map((event) => [event.seq, event.effectsOmitted])).toEqual([
      [2, true],
      [3, undefined],
    ]);
    const snapshot = joinSnapshot(panel.since(0, storeId));
    expect(snapshot.entities['[Todo]']?.['{}']).toHaveLength(40);
  });
});

describe('seq', () => {
  it('is strictly increasing from 1 with no gaps, across every kind of change', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 5 });
    notes(store, 2);
    panel.connect(0);
    store.controller.setResponse(getTodos, {}, [{ id: 1, title: 'a' }]);
    vi.advanceTimersByTime(5);
    store.controller.invalidate(note, 1);
    store.controller.expireAll(() => true);
    panel.send({ kind: 'invalidate', storeId, key: 'note [2]' });
    vi.advanceTimersByTime(5);
    panel.send({ kind: 'reset', storeId });
    notes(store, 1, 9);
    vi.advanceTimersByTime(5);
    const seqs = panel.events(storeId).map((event) => event.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(panel.events(storeId).map((event) => event.action.type)).toEqual([
      'setResponse',
      'setResponse',
      'setResponse',
      'invalidate',
      'expireAll',
      'invalidate',
      'reset',
      'setResponse',
    ]);
  });
});

describe('several stores on one page', () => {
  it('have different store ids, and a command for one does not reach the other', () => {
    const a = createStore();
    const b = createStore();
    const first = connect(a, { name: 'a' });
    const second = connect(b, { name: 'b' });
    expect(first.storeId).not.toBe(second.storeId);
    expect(panel.hellos().map((hello) => hello.storeId)).toEqual([first.storeId, second.storeId]);

    notes(a, 1);
    notes(b, 2);
    const toA = panel.connect(0, first.storeId);
    expect(new Set(toA.map((message) => message.storeId))).toEqual(new Set([first.storeId]));
    expect(panel.events(second.storeId)).toEqual([]);

    const bBefore = b.getState();
    panel.send({ kind: 'reset', storeId: first.storeId });
    expect(a.getState().endpoints.size).toBe(0);
    expect(b.getState()).toBe(bBefore);

    // Without a store id, every store answers.
    const toAll = panel.connect(0);
    expect(toAll.filter((m) => m.kind === 'hello').map((m) => m.storeId)).toEqual([
      first.storeId,
      second.storeId,
    ]);
  });
});

describe('disconnect()', () => {
  it('stops everything: pending batches, later changes and commands', () => {
    vi.useFakeTimers();
    const store = createStore();
    const connection = connect(store, { batchInterval: 20 });
    panel.connect(0);
    notes(store, 1); // queued for the next batch
    connection.disconnect();
    const mark = panel.mark;
    vi.advanceTimersByTime(100);
    notes(store, 1, 2);
    vi.advanceTimersByTime(100);
    panel.connect(0);
    panel.send({ kind: 'reset', storeId: connection.storeId });
    expect(panel.since(mark)).toEqual([]);
    expect([...store.getState().endpoints.keys()]).toEqual(['note [1]', 'note [2]']);
  });
});

describe('DataProvider', () => {
  it('connects the devtools: hello is posted and the panel sees that store', () => {
    const store = createStore();
    const view = render(createElement(DataProvider, { store, devtools: { name: 'Provided' } }));
    const hellos = panel.hellos();
    expect(hellos).toHaveLength(1);
    expect(hellos[0]?.storeName).toBe('Provided');
    const storeId = hellos[0]!.storeId;
    notes(store, 1);
    panel.connect(0);
    expect(panel.events(storeId).map((event) => event.action.endpoint)).toEqual(['note']);

    // Unmounting disconnects.
    view.unmount();
    const mark = panel.mark;
    notes(store, 1, 2);
    panel.connect(0);
    expect(panel.since(mark)).toEqual([]);
  });

  it('connects by default', () => {
    render(createElement(DataProvider, { store: createStore() }));
    expect(panel.hellos()).toHaveLength(1);
  });

  it('a production build (NODE_ENV=production) connects nothing', () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      const store = createStore();
      render(createElement(DataProvider, { store }));
      notes(store, 1);
      panel.connect(0);
      expect(panel.raw).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('devtools={false} connects nothing', () => {
    const store = createStore();
    render(createElement(DataProvider, { store, devtools: false }));
    notes(store, 1);
    panel.connect(0);
    expect(panel.raw).toEqual([]);
  });
});

describe('reads as of a past seq (read-only time travel)', () => {
  /** Three versions of todo 1, then todo 2 added, then todo 1 deleted: seqs 1 to 5. */
  function history(ringSize?: number, statesKept?: number) {
    const store = createStore();
    const connection = connect(store, {
      ...(ringSize === undefined ? {} : { ringSize }),
      ...(statesKept === undefined ? {} : { statesKept }),
    });
    for (const title of ['a', 'b', 'c'])
      store.controller.setResponse(getTodos, {}, [{ id: 1, title }]);
    store.controller.setResponse(pushTodo, {}, todo(2));
    store.controller.setResponse(deleteTodo, { id: 1 }, { id: 1 });
    return { store, storeId: connection.storeId };
  }
  const rowsAsOf = (storeId: string, asOf: number, pks = ['1', '2']) => {
    const mark = panel.mark;
    panel.send({ kind: 'rows', storeId, table: 'Todo', pks, asOf });
    return panel.rowsMessages(storeId, mark)[0];
  };

  it('answers rows as they were just after any seq the ring holds, and says which seq', () => {
    const { storeId } = history();
    expect(rowsAsOf(storeId, 1)).toMatchObject({
      seq: 5,
      asOf: 1,
      table: 'Todo',
      rows: { '1': { id: 1, title: 'a' }, '2': null },
    });
    expect(rowsAsOf(storeId, 2)?.rows).toEqual({ '1': { id: 1, title: 'b' }, '2': null });
    expect(rowsAsOf(storeId, 4)?.rows).toEqual({
      '1': { id: 1, title: 'c' },
      '2': { id: 2, title: 'todo 2', userId: 1 },
    });
    // The latest seq is the current state: todo 1 is INVALID there.
    expect(rowsAsOf(storeId, 5)?.rows['1']).toEqual({ '@@restlens/invalid': true });
    expect(rowsAsOf(storeId, 5)).not.toHaveProperty('leftRing');
    // Asked without a seq, the rows are the current ones and say no `asOf`.
    expect(panel.rows(storeId, 'Todo', ['1'])).not.toHaveProperty('asOf');
  });

  it('says so, and reads nothing, for a seq that left the ring (or that the store never had)', () => {
    const { storeId } = history(2);
    expect(rowsAsOf(storeId, 4)?.rows['1']).toEqual({ id: 1, title: 'c' });
    for (const asOf of [1, 3, 6, 99])
      expect(rowsAsOf(storeId, asOf)).toMatchObject({ asOf, seq: 5, leftRing: true, rows: {} });
  });

  it('keeps the states of the latest `statesKept` changes only: older ones say they left, and are still described', () => {
    const { storeId } = history(undefined, 2);
    expect(rowsAsOf(storeId, 4)?.rows['2']).toEqual({ id: 2, title: 'todo 2', userId: 1 });
    for (const asOf of [1, 2, 3])
      expect(rowsAsOf(storeId, asOf)).toMatchObject({ asOf, seq: 5, leftRing: true, rows: {} });
    // Their events are in the ring, described as a live panel saw them.
    const events = panel.pull(storeId, 0);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(effectsOf(events[0], 'result-stored')[0]).toMatchObject({ kept: true, result: '{}' });
  });

  it('describes a change whose states it no longer keeps as it happened: labels, what a delete held, the results it reached', () => {
    const { store, storeId } = history(undefined, 1);
    // The push's and the delete's states are gone once a later change is kept.
    store.controller.setResponse(note, {}, 'later');
    expect(rowsAsOf(storeId, 5)).toMatchObject({ leftRing: true });
    const events = panel.pull(storeId, 0);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(effectsOf(events[3], 'entities-added')).toEqual([
      { type: 'entities-added', entity: 'Todo', pks: ['2'], labels: ['todo 2'] },
    ]);
    expect(effectsOf(events[4], 'entity-invalidated')).toEqual([
      {
        type: 'entity-invalidated',
        entity: 'Todo',
        pk: '1',
        from: { id: 1 },
        via: 'response',
        label: 'c',
        last: { id: 1, title: 'c' },
      },
    ]);
    expect(effectsOf(events[4], 'result-lost-member')).toEqual([
      { type: 'result-lost-member', key: 'getTodos [{}]', endpoint: 'getTodos' },
    ]);
  });

  it('keeps 100 states by default', () => {
    const store = createStore();
    const { storeId } = connect(store);
    store.controller.setResponse(getTodos, {}, [todo(1)]);
    notes(store, 100);
    expect(rowsAsOf(storeId, 1)).toMatchObject({ leftRing: true });
    expect(rowsAsOf(storeId, 2)?.rows['1']).toEqual(todo(1));
  });

  it('answers stored results (normalized, with their meta) now or as of a seq', () => {
    const { store, storeId } = history();
    const read = (asOf?: number) => {
      const mark = panel.mark;
      panel.send({
        kind: 'results',
        storeId,
        keys: ['getTodos [{}]', 'pushTodo [{}]', 'nothing'],
        ...(asOf === undefined ? {} : { asOf }),
      });
      const answers = panel.since(mark, storeId);
      expect(answers).toHaveLength(1);
      return answers[0];
    };
    const meta = store.getState().meta.get('getTodos [{}]');
    expect(read()).toEqual({
      tag: PROTOCOL_TAG,
      v: PROTOCOL_VERSION,
      source: 'page',
      kind: 'results',
      storeId,
      seq: 5,
      // A mutation's result is not kept; a key the store never held is null.
      results: {
        'getTodos [{}]': { result: '{}', meta: encode(meta) },
        'pushTodo [{}]': null,
        nothing: null,
      },
    });
    expect(read(0)).toMatchObject({ asOf: 0, leftRing: true, results: {} });
    const first = read(1) as { results: Record<string, { meta: { date: number } } | null> };
    expect(first.results['getTodos [{}]']?.meta.date).toBeLessThanOrEqual(meta?.date ?? 0);
  });

  it('past rows are posted after the events before them, like current ones', () => {
    vi.useFakeTimers();
    const store = createStore();
    const { storeId } = connect(store, { batchInterval: 40 });
    panel.connect(0);
    const mark = panel.mark;
    store.controller.setResponse(getTodos, {}, [todo(1)]);
    store.controller.setResponse(getTodos, {}, [{ ...todo(1), title: 'renamed' }]);
    panel.send({ kind: 'rows', storeId, table: 'Todo', pks: ['1'], asOf: 1 });
    expect(panel.since(mark).map((message) => message.kind)).toEqual(['events', 'rows']);
    expect(panel.rowsMessages(storeId, mark)[0]).toMatchObject({
      seq: 2,
      asOf: 1,
      rows: { '1': { title: 'todo 1' } },
    });
  });
});

describe('history from before a panel connects', () => {
  /** An app's session: lists, a push, an update, a delete its readers feel, a reset. */
  function session(store: Store) {
    const getTodo = endpoint('getTodo', Todo);
    const updateTodo = endpoint('updateTodo', Todo, { sideEffect: true });
    store.controller.setResponse(getTodos, {}, [todo(1), todo(2), todo(3)]);
    store.controller.setResponse(getTodo, { id: 2 }, todo(2));
    store.controller.setResponse(getTodo, { id: 3 }, todo(3));
    // Mounted readers: the list and todo 2 (todo 3's result is stored, never read).
    store.controller.getResponse(getTodos, {}, store.getState());
    store.controller.getResponse(getTodo, { id: 2 }, store.getState());
    store.controller.setResponse(pushTodo, {}, todo(4));
    store.controller.setResponse(
      updateTodo,
      { id: 3 },
      { ...todo(3), title: 'renamed', due: new Date(0) },
    );
    store.controller.setResponse(deleteTodo, { id: 2 }, { id: 2 });
    store.controller.setError(getTodo, { id: 9 }, new Error('not found'));
    store.controller.invalidate(getTodo, { id: 3 });
    store.controller.expireAll(() => true);
    store.controller.resetEntireStore();
    store.controller.setResponse(getTodos, {}, [todo(5)]);
  }

  it('is described exactly as a panel connected from the start saw it, event for event', () => {
    // The same session in two stores, at the same (frozen) times: one watched live, one whose
    // panel connects once it is over.
    vi.useFakeTimers();
    const watched = createStore();
    const live = connect(watched);
    panel.connect(0, live.storeId);
    session(watched);
    live.flush();
    const seen = panel.events(live.storeId);
    const unwatched = createStore();
    const later = connect(unwatched);
    session(unwatched);
    panel.connect(0, later.storeId);
    const history = panel.events(later.storeId);
    expect(seen.map((event) => event.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    // Call sites are recorded only while a panel is connected: everything else is the same.
    const withoutTrace = (events: StoreEvent[]) =>
      events.map(({ action: { cause, ...action }, ...event }) => ({
        ...event,
        action: { ...action, reason: cause?.reason },
      }));
    expect(seen.some((event) => event.action.cause?.trace !== undefined)).toBe(true);
    expect(history.every((event) => event.action.cause?.trace === undefined)).toBe(true);
    expect(withoutTrace(history)).toEqual(withoutTrace(seen));
    // The session says something: an update's before and after, a delete's readers.
    const effects = seen.flatMap((event) => event.effects);
    expect(effects).toContainEqual({
      type: 'entities-updated',
      entity: 'Todo',
      updates: [
        {
          pk: '3',
          fields: [
            { field: 'title', before: 'todo 3', after: 'renamed' },
            {
              field: 'due',
              before: { '@t': 'undefined' },
              after: { '@t': 'date', v: '1970-01-01T00:00:00.000Z' },
            },
          ],
        },
      ],
      labels: ['renamed'],
    });
    expect(effects).toContainEqual({
      type: 'result-suspends',
      key: 'getTodo [{"id":2}]',
      endpoint: 'getTodo',
    });
    expect(effects).toContainEqual({
      type: 'result-lost-member',
      key: 'getTodos [{}]',
      endpoint: 'getTodos',
    });
    expect(effects).toContainEqual({ type: 'store-reset' });
    // Only what the app had read: todo 3's result was never read.
    const readers = effects.filter(
      (effect) => effect.type === 'result-suspends' || effect.type === 'result-lost-member',
    );
    expect(readers).toHaveLength(2);
  });
});

describe('answers made in several tasks (sliceMs)', () => {
  /** A store of `count` todos in one list, and a bridge that works one step per task. */
  function large(count: number) {
    const store = createStore();
    const connection = connect(store, { sliceMs: 0 });
    const { storeId } = connection;
    const todos = Array.from({ length: count }, (_, index) => ({
      id: `${String(index).padStart(8, '0')}-0000-4000-8000-000000000000`,
      title: `todo ${index}`,
    }));
    store.controller.setResponse(getTodos, {}, todos);
    notes(store, 50);
    return { store, storeId, connection };
  }
  /** Lets the bridge's later slices run until the ring's history (51 events) is posted. */
  const answered = (storeId: string, from = 0) =>
    vi.waitFor(() => expect(panel.events(storeId, from)).toHaveLength(51));

  it('a connect is answered over several tasks: hello at once, then the snapshot, its lists and the history', async () => {
    const { store, storeId } = large(8000);
    const answer = panel.connect(0, storeId);
    expect(answer.map((message) => message.kind)).toEqual(['hello']);
    await answered(storeId);
    const kinds = panel.since(0, storeId).map((message) => message.kind);
    expect(kinds.filter((kind) => kind === 'members').length).toBeGreaterThan(1);
    expect(kinds.lastIndexOf('snapshot')).toBeLessThan(kinds.indexOf('members'));
    expect(kinds.lastIndexOf('members')).toBeLessThan(kinds.indexOf('events'));
    expect(joinSnapshot(panel.since(0, storeId))).toEqual(expectedSnapshot(store));
    expect(panel.events(storeId).map((event) => event.seq)).toEqual(
      Array.from({ length: 51 }, (_, index) => index + 1),
    );
  });

  it('changes made meanwhile follow the answer as live events, with no seq lost', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { store, storeId } = large(3000);
    panel.connect(0, storeId);
    notes(store, 3, 100); // seqs 52–54, while the snapshot is made
    panel.send({ kind: 'rows', storeId, table: 'Todo', pks: ['missing'] });
    for (let step = 0; step < 1000 && panel.rowsMessages(storeId).length === 0; step++)
      vi.advanceTimersByTime(50);
    const posted = panel.since(0, storeId);
    const kinds = posted.map((message) => message.kind);
    const live = panel
      .eventMessages(storeId)
      .filter((message) => !message.history)
      .flatMap(eventsIn);
    expect(live.map((event) => event.seq)).toEqual([52, 53, 54]);
    expect(kinds.lastIndexOf('members')).toBeLessThan(kinds.indexOf('events'));
    // The read waited for the answer and the events before it, and says the latest seq.
    expect(kinds.at(-1)).toBe('rows');
    expect(panel.rowsMessages(storeId)[0]).toMatchObject({ seq: 54, rows: { missing: null } });
    expect(joinSnapshot(panel.since(0, storeId)).endpoints).not.toHaveProperty('note [100]');
  });

  it('flush() sends the rest of an answer at once, then the events that waited for it', () => {
    const { store, storeId, connection } = large(8000);
    panel.connect(0, storeId);
    notes(store, 1, 100);
    connection.flush();
    expect(joinSnapshot(panel.since(0, storeId)).pks?.Todo).toHaveLength(8000);
    expect(panel.events(storeId).map((event) => event.seq)).toEqual(
      Array.from({ length: 52 }, (_, index) => index + 1),
    );
  });

  it('a disconnect stops an answer half made: nothing more is posted', async () => {
    const { storeId } = large(8000);
    panel.connect(0, storeId);
    const mark = panel.mark;
    panel.send({ kind: 'disconnect' });
    await nextTask(100);
    expect(panel.since(mark, storeId)).toEqual([]);
  });

  it('a new connect replaces an answer half made', async () => {
    const { store, storeId } = large(8000);
    panel.connect(0, storeId);
    const mark = panel.mark;
    panel.connect(0, storeId);
    await answered(storeId, mark);
    const chunks = panel.snapshots(storeId, mark);
    expect(joinSnapshot(panel.since(mark, storeId))).toEqual(expectedSnapshot(store));
    expect(chunks.length).toBe(chunks[0]?.count);
  });
});
