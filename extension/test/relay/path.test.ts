// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPIRED_EXPIRY } from '../../../library/src/store/resultExpiry.js';
import { type StoreView, UNLOADED } from '../../src/panel/model.js';
import { resultRows } from '../../src/panel/results.js';
import { eventsOf, hello, storeEvent } from '../support/messages.js';
import { keysOf } from '../support/tables.js';
import {
  CONTENT_PORT,
  deleteTodo,
  expectInSync,
  getTodos,
  PANEL_PORT,
  Panel,
  pushTodo,
  seqs,
  Tab,
  World,
} from '../support/world.js';

/**
 * The whole path with real parts: page store → connectDevtools → ContentRelay → Router →
 * PanelConnection → panel store, over fake ports, with fake timers.
 */

let world: World;
const tabs: Tab[] = [];

function openTab(tabId = 1, options?: ConstructorParameters<typeof Tab>[2]): Tab {
  const tab = new Tab(world, tabId, options);
  tabs.push(tab);
  return tab;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  world = new World();
});
afterEach(() => {
  for (const tab of tabs.splice(0)) tab.unload();
  vi.useRealTimers();
});

describe('message path', () => {
  it('gives a panel the page’s history and then its live events', async () => {
    const tab = openTab();
    tab.activity(3); // before any panel: kept in the page's ring
    await world.run(100);
    const panel = new Panel(world, 1);
    await world.run(200);
    await expectInSync(panel, tab);
    tab.activity(2);
    await world.run(200);
    await expectInSync(panel, tab);
    expect(panel.store.getState()).toMatchObject({
      connection: 'connected',
      pageConnected: true,
      pageId: tab.relay.pageId,
      reloads: 0,
    });
  });

  it('takes a snapshot the page sends over many tasks: its text, then its lists in parts, rows when asked', async () => {
    const tab = openTab(1, { sliceMs: 0 });
    const todos = Array.from({ length: 8000 }, (_, index) => ({
      id: `${String(index).padStart(8, '0')}-0000-4000-8000-000000000000`,
      title: `todo ${index}`,
    }));
    tab.store.controller.setResponse(getTodos, { list: 'big' }, todos);
    tab.activity(2);
    const panel = new Panel(world, 1);
    const parts = vi.spyOn(panel.store.getState(), 'listParts');
    await world.run(500);
    expect(parts.mock.calls.flatMap(([, taken]) => taken).length).toBeGreaterThan(2);
    const view = panel.view();
    expect(view.ready).toBe(true);
    expect(panel.timeline()).toEqual(seqs(tab.produced));
    expect(view.collections['[Todo]']?.get('{"list":"big"}')).toEqual(todos.map((todo) => todo.id));
    const stored = [...(tab.store.getState().entities.get('Todo')?.keys() ?? [])];
    expect(keysOf(view.entities.Todo).sort()).toEqual(stored.sort());
    expect([...(view.entities.Todo?.values() ?? [])].every((row) => row === UNLOADED)).toBe(true);
    // A view shows some: their rows come.
    const shown = todos.slice(0, 3).map((todo) => todo.id);
    panel.connection.requestRows(tab.bridge.storeId, 'Todo', shown);
    await world.run(100);
    expect(shown.map((pk) => panel.view().entities.Todo?.get(pk))).toEqual(todos.slice(0, 3));
  });

  it('shows a pushed member with its row as its event comes, asking the page for nothing', async () => {
    const tab = openTab();
    tab.store.controller.setResponse(getTodos, { list: 'all' }, [{ id: 1, title: 'one' }]);
    const panel = new Panel(world, 1);
    await world.run(200);
    tab.store.controller.setResponse(pushTodo, { list: 'all' }, { id: 2, title: 'pushed' });
    await world.run(200);
    const view = panel.view();
    expect(view.collections['[Todo]']?.get('{"list":"all"}')).toEqual(['1', '2']);
    expect(view.entities.Todo?.get('2')).toEqual({ id: 2, title: 'pushed' });
  });

  it('shows the history from before it opened exactly as a panel open all along saw it live', async () => {
    const tab = openTab();
    const early = new Panel(world, 1);
    await world.run(100);
    const { controller } = tab.store;
    controller.setResponse(getTodos, { list: 'all' }, [
      { id: 1, title: 'one' },
      { id: 2, title: 'two' },
    ]);
    controller.getResponse(getTodos, { list: 'all' }, tab.store.getState()); // a list on screen
    controller.setResponse(pushTodo, { list: 'all' }, { id: 3, title: 'three' });
    controller.setResponse(deleteTodo, { id: 1 }, { id: 1 });
    tab.activity(2);
    await world.run(200);
    const late = new Panel(world, 1);
    await world.run(200);
    await expectInSync(late, tab);
    const live = early.view().events;
    expect(live.map((event) => event.seq)).toEqual(seqs(tab.produced));
    expect(late.view().events).toEqual(live);
    // What the history says is not nothing: a delete's effect on the list on screen.
    const effects = live.flatMap((event) => event.effects.map((effect) => effect.type));
    expect(effects).toEqual(
      expect.arrayContaining(['entity-invalidated', 'collection-changed', 'result-lost-member']),
    );
  });

  it('shows every result as the store holds it: a panel open all along, as one opened after', async () => {
    const tab = openTab();
    const early = new Panel(world, 1);
    await world.run(100);
    const { controller } = tab.store;
    const list = (name: string) => [{ id: name.length, title: name }];
    for (const name of ['fresh', 'failed', 'failed then invalidated', 'expired', '__proto__'])
      controller.setResponse(getTodos, { list: name }, list(name));
    controller.setError(getTodos, { list: 'failed' }, new Error('down'));
    controller.setError(getTodos, { list: 'failed then invalidated' }, new Error('down'));
    controller.invalidate(getTodos, { list: 'failed then invalidated' });
    controller.invalidate(getTodos, { list: '__proto__' });
    controller.expireAll((key) => key.includes('expired'));
    // A mutation's answer and error are not results the store keeps.
    controller.setResponse(pushTodo, { list: 'fresh' }, { id: 9, title: 'pushed' });
    controller.setError(pushTodo, { list: 'fresh' }, new Error('refused'));
    await world.run(200);
    const shown = (view: StoreView) =>
      resultRows(view, Date.now()).map(({ key, status, result }) => ({ key, status, result }));
    // Taken before another panel connects: the snapshot it asks for reaches every panel.
    const live = early.view();
    expect(Object.fromEntries(shown(live).map(({ key, status }) => [key, status]))).toEqual({
      'getTodos [{"list":"fresh"}]': 'fresh',
      'getTodos [{"list":"failed"}]': 'error',
      'getTodos [{"list":"failed then invalidated"}]': 'invalid',
      'getTodos [{"list":"expired"}]': 'stale',
      'getTodos [{"list":"__proto__"}]': 'invalid',
    });
    for (const [key, held] of tab.store.getState().meta)
      expect(live.meta.get(key)).toMatchObject({
        ...(held.error === undefined ? {} : { error: expect.anything() }),
        ...(held.invalidated ? { invalidated: true, expiresAt: held.expiresAt } : {}),
        ...(held.expiresAt === EXPIRED_EXPIRY ? { expiresAt: held.expiresAt } : {}),
      });
    const late = new Panel(world, 1);
    await world.run(200);
    expect(late.view().meta.get('getTodos [{"list":"fresh"}]')).toHaveProperty('fetchedAt');
    expect(shown(late.view())).toEqual(shown(live));
  });

  it('keeps tabs apart end to end: each panel has only its tab’s store', async () => {
    const tab1 = openTab(1);
    const tab2 = openTab(2);
    const panel1 = new Panel(world, 1);
    const panel2 = new Panel(world, 2);
    const panel1b = new Panel(world, 1);
    tab1.activity(2);
    tab2.activity(1);
    await world.run(300);
    for (const panel of [panel1, panel1b]) {
      expect(panel.store.getState().storeOrder).toEqual([tab1.bridge.storeId]);
      await expectInSync(panel, tab1);
    }
    expect(panel2.store.getState().storeOrder).toEqual([tab2.bridge.storeId]);
    await expectInSync(panel2, tab2);
  });

  it('tells the page to stop sending when its last panel closes, and resumes for a new panel', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    const posted = tab.page.posted.length;
    panel.close();
    await world.run(100);
    tab.activity(2);
    await world.run(200);
    // Only the command came in: the page posted no events while no panel watched.
    expect(tab.page.posted.slice(posted)).toEqual([
      expect.objectContaining({ source: 'extension', kind: 'disconnect' }),
    ]);
    const next = new Panel(world, 1);
    await world.run(200);
    await expectInSync(next, tab);
  });
});

/** Whether the page posted an `events` message since `from`. */
const postedEvents = (tab: Tab, from: number) =>
  tab.page.postedSince(from, (message) => (message as { kind?: string }).kind === 'events');

describe('a restarted background', () => {
  it.each([
    ['while the background is down', 'down'],
    ['after it restarted, before the content script is back', 'restarted'],
  ] as const)('leaves the page silent when the panel closes %s', async (_when, moment) => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    await expectInSync(panel, tab);

    world.killBackground();
    if (moment === 'restarted') {
      world.startBackground();
      world.runtime.refuse = (name) => name === CONTENT_PORT;
      await world.run(300); // the panel is back; the content script keeps backing off
      expect(world.runtime.live(PANEL_PORT)).toHaveLength(1);
    }
    panel.close();
    await world.run(50);
    if (moment === 'down') world.startBackground();
    world.runtime.refuse = () => false;
    await world.run(6000); // the content script is back, with no panel to serve
    expect(world.runtime.live(CONTENT_PORT)).toHaveLength(1);
    const from = tab.page.posted.length;
    tab.activity(3);
    await world.run(500);
    expect(postedEvents(tab, from).length).toBe(0);

    // A panel opened later still gets everything.
    const next = new Panel(world, 1);
    await world.run(300);
    await expectInSync(next, tab);
  });

  it('loses nothing once the panel resyncs: killed mid-stream, restarted at once', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    await world.run(100);
    tab.activity(2);
    await world.run(200);
    await expectInSync(panel, tab);

    tab.activity(1);
    await world.run(20); // a batch is waiting in the page
    world.restartBackground();
    tab.activity(1); // while the ports are down
    await world.run(30); // the batch goes out while the ports are down
    tab.activity(1);
    await world.run(1000); // both sides reconnect with their backoff
    tab.activity(1);
    await world.run(200);

    expect(world.runtime.live(CONTENT_PORT)).toHaveLength(1);
    expect(world.runtime.live(PANEL_PORT)).toHaveLength(1);
    await expectInSync(panel, tab);
    expect(panel.store.getState()).toMatchObject({ connection: 'connected', reloads: 0 });
  });

  it.each([
    ['the content script reconnects first', 'panel'],
    ['the panel reconnects first', 'content'],
  ] as const)('loses nothing when %s', async (_order, late) => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    await expectInSync(panel, tab);

    world.restartBackground();
    // One side cannot reach the new background for a while (it keeps backing off).
    world.runtime.refuse = (name) => name === (late === 'panel' ? PANEL_PORT : CONTENT_PORT);
    for (let n = 0; n < 5; n++) {
      tab.activity(1);
      await world.run(40);
    }
    expect(world.runtime.live(late === 'panel' ? CONTENT_PORT : PANEL_PORT)).toHaveLength(1);
    world.runtime.refuse = () => false;
    tab.activity(1);
    await world.run(3000);
    tab.activity(1);
    await world.run(200);

    expect(world.runtime.live()).toHaveLength(2);
    await expectInSync(panel, tab);
  });

  it('loses nothing through repeated kills at every point of the stream, with two panels', async () => {
    const tab = openTab();
    const panels = [new Panel(world, 1), new Panel(world, 1)];
    await world.run(100);
    // Kill at every offset within and around the page's 50 ms batching window.
    for (const offset of [0, 10, 40, 50, 60, 120, 250]) {
      tab.activity(1);
      await world.run(offset, 5);
      world.killBackground();
      tab.activity(1);
      await world.run(offset % 70, 5);
      world.startBackground();
      tab.activity(1);
      await world.run(offset, 5);
    }
    await world.run(6000);
    tab.activity(1);
    await world.run(200);
    expect(world.starts).toBe(8);
    for (const panel of panels) await expectInSync(panel, tab);
  });

  it('loses nothing when the background stays down for a while', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    world.killBackground();
    for (let n = 0; n < 10; n++) {
      tab.activity(1);
      await world.run(300);
    }
    world.startBackground();
    await world.run(6000);
    tab.activity(1);
    await world.run(200);
    await expectInSync(panel, tab);
  });
});

describe('a script of the page forging messages', () => {
  /** An event the real store did not make, as a script of the page would post it. */
  const forgedEvents = (tab: Tab, seq: number) =>
    eventsOf(tab.bridge.storeId, [
      {
        ...storeEvent(seq),
        action: { type: 'setResponse', endpoint: 'forged' },
        effects: [{ type: 'entities-added', entity: 'Todo', pks: ['forged'] }],
      },
    ]);

  it('cannot post the store’s next event on the window: it is dropped, and the store’s own come on its port', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    await expectInSync(panel, tab);

    tab.page.window.postMessage(forgedEvents(tab, tab.produced + 1), '*');
    await world.run(20);
    expect(panel.view().lastSeq).toBe(tab.produced); // never reached the panel
    tab.activity(1);
    await world.run(300);
    await expectInSync(panel, tab);
    const endpoints = panel.view().events.map((event) => event.action.endpoint);
    expect(endpoints).not.toContain('forged');
    expect(panel.entityTables().Todo?.forged).toBeUndefined();
  });

  it('cannot speak for the store by greeting again under its id with a port of its own', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    const forger = tab.page.greet(hello(tab.bridge.storeId, tab.produced));
    forger.postMessage(forgedEvents(tab, tab.produced + 1));
    await world.run(20);
    expect(panel.view().lastSeq).toBe(tab.produced);
    tab.activity(1);
    await world.run(300);
    await expectInSync(panel, tab);
    expect(panel.view().events.map((event) => event.action.endpoint)).not.toContain('forged');
  });

  it('cannot take the store ahead of itself with an event or a snapshot far ahead', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    const far = 1_000_000;
    tab.page.window.postMessage(forgedEvents(tab, far), '*');
    tab.page.window.postMessage(
      {
        ...hello(tab.bridge.storeId),
        kind: 'snapshot',
        seq: far,
        index: 0,
        count: 1,
        data: '{"entities":{},"endpoints":{},"meta":{},"optimistic":[]}',
      },
      '*',
    );
    await world.run(100);
    tab.activity(1);
    await world.run(300);
    await expectInSync(panel, tab);
  });

  it('cannot fill the store selector with stores that only say hello', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    // Each greets as a store does, with a port of its own: the content script takes them.
    for (let n = 0; n < 1429; n++) tab.page.greet(hello(`forged-${n}`));
    await world.run(300);
    tab.activity(1);
    await world.run(200);
    const state = panel.store.getState();
    expect(state.storeOrder.length).toBeLessThan(100);
    expect(state.selectedStoreId).toBe(tab.bridge.storeId);
    await expectInSync(panel, tab);
  });
});

describe('a page reload', () => {
  it('gives the panel a fresh history and bumps reloads', async () => {
    const first = openTab();
    const panel = new Panel(world, 1);
    first.activity(3);
    await world.run(200);
    await expectInSync(panel, first);

    first.unload();
    const second = openTab();
    second.activity(1);
    await world.run(300);

    const state = panel.store.getState();
    expect(second.relay.pageId).not.toBe(first.relay.pageId);
    expect(state.pageId).toBe(second.relay.pageId);
    expect(state.reloads).toBe(1);
    expect(state.storeOrder).toEqual([second.bridge.storeId]);
    expect(state.stores[first.bridge.storeId]).toBeUndefined();
    await expectInSync(panel, second);
    expect(panel.timeline()).toEqual(seqs(second.produced)); // the old page's events are gone

    second.activity(1);
    await world.run(200);
    await expectInSync(panel, second);
    expect(panel.store.getState().reloads).toBe(1);
  });

  it('does not count a background restart as a reload', async () => {
    const tab = openTab();
    const panel = new Panel(world, 1);
    tab.activity(1);
    await world.run(200);
    world.restartBackground();
    await world.run(1000);
    expect(panel.store.getState()).toMatchObject({ reloads: 0, pageId: tab.relay.pageId });
  });
});
