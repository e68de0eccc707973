// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import type { StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import {
  type ExtensionCommand,
  extensionCommand,
  type PageMessage,
} from '../../../library/src/devtools/protocol/messages.js';
import { PanelConnection } from '../../src/panel/connection.js';
import {
  applyEvents,
  applySnapshotChunk,
  emptyStoreView,
  MAX_TIMELINE,
  type StoreView,
  UNLOADED,
} from '../../src/panel/model.js';
import { createPanelStore, MAX_PENDING_STORES, type PanelStore } from '../../src/panel/store.js';
import {
  type BackgroundToPanel,
  PANEL_PORT,
  type PanelToBackground,
} from '../../src/shared/ports.js';
import {
  batch,
  events,
  eventsOf,
  hello,
  malformedEventTexts,
  rows,
  snapshot,
  storeEvent,
} from '../support/messages.js';
import {
  FakeClock,
  type FakePort,
  FakeRuntime,
  settle as settlePorts,
  untilNextConnect,
} from '../support/ports.js';
import { plainTable, plainTables } from '../support/tables.js';

/** The panel's side of the connection, against a background played by the test. */

/**
 * Lets the ports deliver, then runs what the panel put off to the next task (events and rows
 * are taken together with those that came within a task).
 */
async function settle(): Promise<void> {
  await settlePorts();
  clock.advance(0);
  await settlePorts();
}

type BackgroundEnd = FakePort<PanelToBackground, BackgroundToPanel>;

let runtime: FakeRuntime;
let clock: FakeClock;
let store: PanelStore;
let accepted: BackgroundEnd[];
let connectTimes: number[];

beforeEach(() => {
  runtime = new FakeRuntime();
  clock = new FakeClock();
  store = createPanelStore();
  accepted = [];
  connectTimes = [];
  runtime.serve((port) => accepted.push(port as BackgroundEnd));
});

function start(tabId = 4): PanelConnection {
  const connection = new PanelConnection(
    {
      connect(name) {
        connectTimes.push(clock.now);
        return runtime.connect(name, {});
      },
      setTimeout: clock.setTimeout,
    },
    tabId,
    store,
  );
  connection.start();
  return connection;
}

function background(): BackgroundEnd {
  const port = accepted.at(-1);
  if (!port) throw new Error('the panel has not connected');
  return port;
}

function toPanel(...messages: (PageMessage | BackgroundToPanel)[]) {
  for (const message of messages)
    background().postMessage('tag' in message ? { type: 'page', message } : message);
}

/** Starts the panel; once it is connected, a first page (p1) connects and sends `messages`. */
async function startOnFirstPage(...messages: PageMessage[]): Promise<void> {
  start();
  await settle();
  toPanel({ type: 'content-connected', pageId: 'p1' }, ...messages);
  await settle();
}

/** The commands the panel sent since `from`. */
function commands(port = background(), from = 0): ExtensionCommand[] {
  return port.received
    .slice(from)
    .flatMap((message) => (message.type === 'command' ? [message.command] : []));
}

/** Runs the fake clock's timers until the panel calls `runtime.connect` again. */
const nextConnect = () => untilNextConnect(clock, connectTimes);

describe('panel connection', () => {
  it('connects with its tab id and asks every store for everything on a first page', async () => {
    start(4);
    await settle();
    expect(runtime.connections.map((c) => c.client.name)).toEqual([PANEL_PORT]);
    expect(background().received).toEqual([{ type: 'init', tabId: 4 }]);
    expect(store.getState().connection).toBe('connected');
    toPanel({ type: 'content-connected', pageId: 'p1' });
    await settle();
    expect(commands()).toEqual([extensionCommand({ kind: 'connect', lastSeq: 0 })]);
    expect(store.getState()).toMatchObject({ pageConnected: true, pageId: 'p1', reloads: 0 });
  });

  it('asks for what follows a gap, and ends with a timeline without holes', async () => {
    await startOnFirstPage(hello('s'), snapshot('s', 0), events('s', 1, 2));
    const mark = background().received.length;
    toPanel(events('s', 5, 6)); // 3 and 4 were lost
    await settle();
    expect(commands(background(), mark)).toEqual([
      extensionCommand({ kind: 'connect', storeId: 's', lastSeq: 2 }),
    ]);
    toPanel(events('s', 3, 4, 5, 6), events('s', 7));
    await settle();
    const view = store.getState().stores.s!;
    expect(view.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(view.lastSeq).toBe(7);
    expect(view.endpoints.size).toBe(7);
  });

  it('applies the events messages that came within a task in one update of the copy', async () => {
    await startOnFirstPage(hello('s'), snapshot('s', 0));
    let updates = 0;
    const unsubscribe = store.subscribe(() => updates++);
    toPanel(events('s', 1));
    await settle();
    const perMessage = updates;
    updates = 0;
    toPanel(events('s', 2, 3), events('s', 4), events('s', 5, 6));
    await settle();
    unsubscribe();
    const view = store.getState().stores.s!;
    expect(view.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(view.endpoints.size).toBe(6);
    // Three messages, taken as one: one new copy of the store, not three.
    expect(updates).toBe(perMessage);
  });

  it('resyncs each store from its last seq when the same page reconnects', async () => {
    await startOnFirstPage(
      hello('a'),
      snapshot('a', 0),
      events('a', 1, 2, 3),
      hello('b'),
      snapshot('b', 4),
    );
    background().disconnect(); // the background was stopped
    await settle();
    expect(store.getState().connection).toBe('disconnected');
    await nextConnect();
    expect(store.getState().connection).toBe('connected');
    expect(background().received).toEqual([{ type: 'init', tabId: 4 }]);
    toPanel({ type: 'content-connected', pageId: 'p1' });
    await settle();
    expect(commands()).toEqual([
      extensionCommand({ kind: 'connect', storeId: 'a', lastSeq: 3 }),
      extensionCommand({ kind: 'connect', storeId: 'b', lastSeq: 4 }),
    ]);
    expect(store.getState().reloads).toBe(0);
  });

  it('starts a fresh history when the page was reloaded', async () => {
    await startOnFirstPage(hello('a'), snapshot('a', 0), events('a', 1));
    const mark = background().received.length;
    toPanel({ type: 'content-disconnected' }, { type: 'content-connected', pageId: 'p2' });
    await settle();
    expect(store.getState()).toMatchObject({
      pageId: 'p2',
      reloads: 1,
      stores: {},
      storeOrder: [],
    });
    expect(commands(background(), mark)).toEqual([
      extensionCommand({ kind: 'connect', lastSeq: 0 }),
    ]);
  });

  it('ignores invalid messages from the background', async () => {
    start();
    await settle();
    const bogus = [
      null,
      'content-connected',
      { type: 'page', message: { ...hello('x'), tag: 'other' } },
      { type: 'page', message: { ...events('x', 1), source: 'extension' } },
      { type: 'page' },
      { type: 'eval', code: '1' },
    ];
    for (const message of bogus) background().postMessage(message as BackgroundToPanel);
    await settle();
    expect(store.getState().stores).toEqual({});
    expect(commands()).toEqual([]);
  });

  it('drops snapshot chunks announcing more chunks than a snapshot may have', async () => {
    await startOnFirstPage(hello('s'));
    for (let index = 0; index < 6; index++)
      toPanel({ ...snapshot('s', 9), index, count: 120_000_000 });
    await settle();
    expect(store.getState().stores.s?.ready).toBe(false);
    expect(store.getState().stores.s?.pendingSnapshot).toBeUndefined();
    toPanel(snapshot('s', 9));
    await settle();
    expect(store.getState().stores.s).toMatchObject({ ready: true, lastSeq: 9 });
  });

  it('drops commands while disconnected (a resync follows the reconnect)', async () => {
    const connection = start();
    await settle();
    background().disconnect();
    await settle();
    expect(() => connection.send({ kind: 'reset', storeId: 's' })).not.toThrow();
    await nextConnect();
    expect(commands()).toEqual([]);
  });

  it('backs off while the background cannot be reached, and starts over once connected', async () => {
    start();
    await settle();
    runtime.kill();
    for (let attempt = 0; attempt < 8; attempt++) await nextConnect();
    const gaps = connectTimes.slice(1).map((time, index) => time - connectTimes[index]!);
    expect(gaps).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000]);

    runtime.serve((port) => accepted.push(port as BackgroundEnd));
    await nextConnect();
    expect(runtime.live(PANEL_PORT)).toHaveLength(1);
    clock.advance(10_000);
    await settle();
    background().disconnect();
    const dropped = clock.now;
    await nextConnect();
    expect(connectTimes.at(-1)).toBe(dropped + 100);
  });
});

describe('panel connection: events as text, rows on demand', () => {
  /** Store s at seq 2: Todos 1 and 2 added by an event, their rows not fetched. */
  const todosAdded = eventsOf('s', [
    {
      seq: 1,
      time: 1,
      action: { type: 'setResponse', endpoint: 'Todo.getList' },
      effects: [{ type: 'entities-added', entity: 'Todo', pks: ['1', '2'] }],
    },
  ]);
  const rowsCommands = (port = background()) =>
    commands(port).filter((command) => command.kind === 'rows');

  it.each(malformedEventTexts())(
    'drops an events message whose text is %s, whole and without an exception',
    async (_why, data) => {
      await startOnFirstPage(hello('s'), snapshot('s', 0), { ...events('s', 1), data });
      expect(store.getState().stores.s).toMatchObject({ lastSeq: 0, events: [] });
      toPanel(events('s', 1));
      await settle();
      expect(store.getState().stores.s?.lastSeq).toBe(1);
    },
  );

  it('asks the page for rows and takes its answer: rows set, a null one removed', async () => {
    const connection = start();
    await settle();
    toPanel({ type: 'content-connected', pageId: 'p1' }, hello('s'), snapshot('s', 0), todosAdded);
    await settle();
    connection.requestRows('s', 'Todo', ['1', '2']);
    connection.requestRows('s', 'Todo', ['2']);
    await settle();
    expect(rowsCommands()).toEqual([
      extensionCommand({ kind: 'rows', storeId: 's', table: 'Todo', pks: ['1', '2'] }),
    ]);
    toPanel(rows('s', 1, 'Todo', { '1': { id: 1, title: 'one' }, '2': null }));
    await settle();
    // Rows answered are taken together, in a task after they came.
    clock.advance(0);
    expect(plainTable(store.getState().stores.s?.entities.Todo)).toEqual({
      '1': { id: 1, title: 'one' },
    });
    connection.requestRows('s', 'Todo', ['1', '2']);
    await settle();
    expect(rowsCommands()).toHaveLength(1);
  });

  it('takes rows answered one after the other in one update of the copy', async () => {
    const connection = start();
    await settle();
    toPanel({ type: 'content-connected', pageId: 'p1' }, hello('s'), snapshot('s', 0), todosAdded);
    await settle();
    connection.requestRows('s', 'Todo', ['1']);
    connection.requestRows('s', 'Todo', ['2']);
    await settle();
    let updates = 0;
    const unsubscribe = store.subscribe(() => updates++);
    toPanel(rows('s', 1, 'Todo', { '1': { id: 1, title: 'one' } }));
    toPanel(rows('s', 1, 'Todo', { '2': { id: 2, title: 'two' } }));
    await settle();
    clock.advance(0);
    unsubscribe();
    expect(updates).toBe(1);
    expect(plainTable(store.getState().stores.s?.entities.Todo)).toEqual({
      '1': { id: 1, title: 'one' },
      '2': { id: 2, title: 'two' },
    });
  });

  it('takes only the rows it asked for: an answer nobody asked for changes nothing', async () => {
    const connection = start();
    await settle();
    toPanel({ type: 'content-connected', pageId: 'p1' }, hello('s'), snapshot('s', 0), todosAdded);
    await settle();
    const before = store.getState().stores.s;
    // A script of the page answers what was never asked, for pks the copy holds and does not.
    toPanel(rows('s', 1, 'Todo', { '1': { id: 1, title: 'forged' }, '9': { id: 9 } }));
    toPanel(rows('s', 1, 'Forged', { '1': { id: 1 } }));
    await settle();
    // Rows answered are taken together, in a task after they came.
    clock.advance(0);
    expect(store.getState().stores.s).toBe(before);

    connection.requestRows('s', 'Todo', ['1']);
    await settle();
    toPanel(
      rows('s', 1, 'Todo', { '1': { id: 1, title: 'one' }, '2': { id: 2, title: 'forged' } }),
    );
    await settle();
    // Rows answered are taken together, in a task after they came.
    clock.advance(0);
    expect(plainTable(store.getState().stores.s?.entities.Todo)).toEqual({
      '1': { id: 1, title: 'one' },
      '2': UNLOADED,
    });
  });

  it('takes no rows of a past state (read as of a seq), even for pks it asked for', async () => {
    const connection = start();
    await settle();
    toPanel({ type: 'content-connected', pageId: 'p1' }, hello('s'), snapshot('s', 0), todosAdded);
    await settle();
    connection.requestRows('s', 'Todo', ['1']);
    await settle();
    const before = store.getState().stores.s;
    toPanel({ ...rows('s', 1, 'Todo', { '1': { id: 1, title: 'past' } }), asOf: 0 });
    await settle();
    expect(store.getState().stores.s).toBe(before);
    // The answer to what it asked for still comes in.
    toPanel(rows('s', 1, 'Todo', { '1': { id: 1, title: 'now' } }));
    await settle();
    // Rows answered are taken together, in a task after they came.
    clock.advance(0);
    expect(store.getState().stores.s?.entities.Todo?.get('1')).toEqual({ id: 1, title: 'now' });
  });

  it('asks again for rows in flight once the port reconnects or a snapshot comes', async () => {
    const connection = start();
    await settle();
    toPanel({ type: 'content-connected', pageId: 'p1' }, hello('s'), snapshot('s', 0), todosAdded);
    await settle();
    connection.requestRows('s', 'Todo', ['1']);
    await settle();
    expect(rowsCommands()).toHaveLength(1);

    // The answer is lost with the background: after the reconnect the row is asked again.
    background().disconnect();
    await settle();
    await nextConnect();
    toPanel({ type: 'content-connected', pageId: 'p1' });
    await settle();
    connection.requestRows('s', 'Todo', ['1']);
    await settle();
    expect(rowsCommands()).toEqual([
      extensionCommand({ kind: 'rows', storeId: 's', table: 'Todo', pks: ['1'] }),
    ]);

    // A snapshot brings every row: what was in flight no longer waits for its answer.
    toPanel(snapshot('s', 1, { Todo: { '1': { id: 1 }, '2': { id: 2 } } }));
    toPanel(
      eventsOf('s', [
        {
          seq: 2,
          time: 2,
          action: { type: 'setResponse' },
          effects: [
            {
              type: 'entities-updated',
              entity: 'Todo',
              updates: [{ pk: '1', fields: [{ field: 'id', before: 1, after: 1 }] }],
            },
          ],
        },
      ]),
    );
    await settle();
    connection.requestRows('s', 'Todo', ['1']);
    await settle();
    expect(rowsCommands()).toHaveLength(2);
  });
});

describe('panel model: the timeline', () => {
  it('fills a gap when the missing events come after the ones past it', () => {
    let view = { ...emptyStoreView('s'), ready: true };
    view = applyEvents(view, batch('s', 1, 2)).view;
    const afterGap = applyEvents(view, batch('s', 5, 6));
    expect(afterGap.gapAfter).toBe(2);
    expect(afterGap.view.lastSeq).toBe(2);
    const resynced = applyEvents(afterGap.view, batch('s', 3, 4, 5, 6));
    expect(resynced.gapAfter).toBeUndefined();
    expect(resynced.view.lastSeq).toBe(6);
    expect(resynced.view.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps the newest events when it trims, whatever order they came in', () => {
    let view = { ...emptyStoreView('s'), ready: true, lastSeq: MAX_TIMELINE + 1 };
    const newest = Array.from({ length: MAX_TIMELINE }, (_, index) => index + 2);
    view = applyEvents(view, { ...batch('s', ...newest), history: true }).view;
    view = applyEvents(view, { ...batch('s', 1), history: true }).view; // older than all
    const seqs = view.events.map((event) => event.seq);
    expect(seqs.length).toBe(MAX_TIMELINE);
    expect([seqs[0], seqs.at(-1)]).toEqual([2, MAX_TIMELINE + 1]);
  });

  it('takes history only where the copy already is: never past its last seq', () => {
    let view = { ...emptyStoreView('s'), ready: true, lastSeq: 3 };
    view = applyEvents(view, { ...batch('s', 2, 3, 4, 99), history: true }).view;
    expect(view.events.map((event) => event.seq)).toEqual([2, 3]);
  });

  it('never holds an event twice', () => {
    let view = { ...emptyStoreView('s'), ready: true };
    view = applyEvents(view, batch('s', 1, 2, 3)).view;
    view = applyEvents(view, { ...batch('s', 1, 2, 3), history: true }).view;
    view = applyEvents(view, batch('s', 2, 3, 4)).view;
    expect(view.events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
  });
});

describe('panel model: two events with one seq', () => {
  /** The copy at seq 2, from a snapshot and events 1 and 2. */
  function following(): StoreView {
    const view = applySnapshotChunk(emptyStoreView('s'), snapshot('s', 0));
    return applyEvents(view, batch('s', 1, 2)).view;
  }
  /** A forged event: it stores a result of its own. */
  const forged = (seq: number): StoreEvent => ({
    ...storeEvent(seq),
    action: { type: 'setResponse', endpoint: 'forged' },
    effects: [
      {
        type: 'result-stored',
        key: 'forged',
        endpoint: 'forged',
        expiresAt: 0,
        kept: true,
        result: 1,
      },
    ],
  });
  const endpointsAt = (view: StoreView) =>
    view.events.map((event) => `${event.seq} ${event.action.endpoint}`);

  it('ignores a copy of an event it holds, and asks for nothing', () => {
    const result = applyEvents(following(), batch('s', 1, 2));
    expect(result.gapAfter).toBeUndefined();
    expect(endpointsAt(result.view)).toEqual(['1 note', '2 note']);
  });

  it('keeps the first: a later event with a seq it holds never replaces it, and it resyncs', () => {
    const result = applyEvents(following(), { storeId: 's', events: [forged(2)] });
    // Which of the two is the store's cannot be told: neither is kept, and a snapshot is asked for.
    expect(result.gapAfter).toBe(0);
    expect(endpointsAt(result.view)).toEqual(['1 note']);
    expect(result.applied).toEqual([]);
  });

  it('takes a forged event at the next seq first, then resyncs when the real one comes', () => {
    let view = applyEvents(following(), { storeId: 's', events: [forged(3)] }).view;
    expect(view.endpoints.get('forged')).toBe(1);
    const real = applyEvents(view, batch('s', 3));
    expect(real.gapAfter).toBe(0);
    expect(endpointsAt(real.view)).toEqual(['1 note', '2 note']);
    // The page answers the resync with a snapshot at its seq and its history.
    view = applySnapshotChunk(real.view, snapshot('s', 3));
    view = applyEvents(view, { ...batch('s', 1, 2, 3), history: true }).view;
    expect(endpointsAt(view)).toEqual(['1 note', '2 note', '3 note']);
    expect(view.endpoints.get('forged')).toBeUndefined();
    view = applyEvents(view, batch('s', 4)).view;
    expect(view.lastSeq).toBe(4);
  });

  it('keeps an event far ahead out of the timeline: it only asks for what it missed', () => {
    const result = applyEvents(following(), { storeId: 's', events: [forged(1_000_000)] });
    expect(result.gapAfter).toBe(2);
    expect(endpointsAt(result.view)).toEqual(['1 note', '2 note']);
    expect(applyEvents(result.view, batch('s', 3)).view.lastSeq).toBe(3);
  });

  it('follows the store again after a snapshot at a forged seq far ahead', () => {
    let view = applySnapshotChunk(following(), snapshot('s', 1_000_000));
    view = applyEvents(view, { storeId: 's', events: [forged(1_000_001)] }).view;
    // The real store's next event is behind the forged seq, and not one the panel holds.
    const real = applyEvents(view, batch('s', 3));
    expect(real.gapAfter).toBe(0);
    // The panel store notes the resync it asks for; the page answers it with a snapshot.
    view = applySnapshotChunk({ ...real.view, resyncAfter: 0 }, snapshot('s', 3));
    expect(view.lastSeq).toBe(3);
    expect(endpointsAt(view)).toEqual(['1 note', '2 note']);
    expect(applyEvents(view, batch('s', 4)).view.lastSeq).toBe(4);
  });
});

describe('panel connection: a snapshot behind the copy', () => {
  it('is not taken unless asked for: it asks for one, and takes that', async () => {
    await startOnFirstPage(hello('s'), snapshot('s', 0), events('s', 1, 2, 3));
    const mark = background().received.length;
    const before = store.getState().stores.s;
    // A script of the page posts a snapshot of its own, older than the copy.
    toPanel(snapshot('s', 1, { Forged: { '1': { id: 1 } } }));
    await settle();
    expect(plainTables(store.getState().stores.s?.entities ?? {})).toEqual(
      plainTables(before?.entities ?? {}),
    );
    expect(store.getState().stores.s?.lastSeq).toBe(3);
    expect(commands(background(), mark)).toEqual([
      extensionCommand({ kind: 'connect', storeId: 's', lastSeq: 0 }),
    ]);
    // The page's answer is current; one behind the copy would be taken too, once asked for.
    toPanel(snapshot('s', 3, { Todo: { '1': { id: 1 } } }), events('s', 4));
    await settle();
    expect(store.getState().stores.s?.lastSeq).toBe(4);
    expect(plainTables(store.getState().stores.s?.entities ?? {})).toEqual({
      Todo: { '1': { id: 1 } },
    });
    expect(commands(background(), mark)).toHaveLength(1);
  });
});

describe('panel connection: stores that only said hello', () => {
  it(`keeps at most ${MAX_PENDING_STORES} of them, dropping the oldest`, async () => {
    await startOnFirstPage(hello('real'), snapshot('real', 0), events('real', 1));
    for (let n = 0; n < 1429; n++) toPanel(hello(`forged-${n}`));
    await settle();
    const { storeOrder, stores, selectedStoreId } = store.getState();
    expect(storeOrder).toHaveLength(1 + MAX_PENDING_STORES);
    expect(storeOrder[0]).toBe('real');
    expect(storeOrder.at(-1)).toBe('forged-1428');
    expect(Object.keys(stores).sort()).toEqual([...storeOrder].sort());
    expect(selectedStoreId).toBe('real');
    toPanel(events('real', 2));
    await settle();
    expect(store.getState().stores.real?.lastSeq).toBe(2);
  });

  it('moves the selection to the first store that sends its state, off one that only said hello', async () => {
    await startOnFirstPage(hello('forged'));
    expect(store.getState().selectedStoreId).toBe('forged');
    toPanel(hello('real'), snapshot('real', 0));
    await settle();
    expect(store.getState().selectedStoreId).toBe('real');
    // A store picked once it has its state stays picked.
    toPanel(hello('other'), snapshot('other', 0));
    await settle();
    expect(store.getState().selectedStoreId).toBe('real');
  });

  it('asks a store that said hello for its state once', async () => {
    await startOnFirstPage();
    const mark = background().received.length;
    toPanel(hello('s'), hello('s'), hello('s'));
    await settle();
    expect(commands(background(), mark)).toEqual([
      extensionCommand({ kind: 'connect', storeId: 's', lastSeq: 0 }),
    ]);
  });
});
