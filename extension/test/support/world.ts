import { expect, vi } from 'vitest';
import {
  connectDevtools,
  type DevtoolsConnection,
  type DevtoolsOptions,
} from '../../../library/src/devtools/index.js';
import { encode } from '../../../library/src/devtools/page/encode.js';
import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { createStore, Endpoint, Entity, type Store, schema } from '../../../library/src/index.js';
import { plain } from '../../../library/test/fixtures.js';
import { Router } from '../../src/background/router.js';
import { ContentRelay } from '../../src/content/relay.js';
import { PanelConnection } from '../../src/panel/connection.js';
import { isCollectionKey, type Row, type StoreView } from '../../src/panel/model.js';
import { createPanelStore, type PanelStore } from '../../src/panel/store.js';
import { CONTENT_PORT, PANEL_PORT } from '../../src/shared/ports.js';
import { TestPage } from './page.js';
import {
  contentSender,
  type FakePort,
  FakeRuntime,
  OWN_EXTENSION,
  PANEL_SENDER,
  settle,
} from './ports.js';
import { plainTables } from './tables.js';

/**
 * The whole message path with real parts and fake ports (this file holds no tests): a page
 * store connected with `connectDevtools`, the content script (`ContentRelay`), the background
 * (`Router`) and a panel (`PanelConnection` + the panel store). Needs jsdom and vitest's fake
 * timers for `setTimeout` (the bridge batches with the global one; the relay and the panel
 * connection get it through their environment).
 */

export class Todo extends Entity {
  id = 0;
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

export const todoList = new schema.Collection([Todo]);
const keyOf =
  (name: string) =>
  (...args: unknown[]) =>
    `${name} ${JSON.stringify(args)}`;
const never = async (..._args: any[]): Promise<unknown> => undefined;
export const getTodos = new Endpoint(never, {
  name: 'getTodos',
  schema: todoList,
  key: keyOf('getTodos'),
});
export const pushTodo = new Endpoint(never, {
  name: 'pushTodo',
  schema: todoList.push,
  sideEffect: true,
  key: keyOf('pushTodo'),
});
export const unshiftTodo = new Endpoint(never, {
  name: 'unshiftTodo',
  schema: todoList.unshift,
  sideEffect: true,
  key: keyOf('unshiftTodo'),
});
export const deleteTodo = new Endpoint(never, {
  name: 'deleteTodo',
  schema: new schema.Invalidate(Todo),
  sideEffect: true,
  key: keyOf('deleteTodo'),
});
export const note = new Endpoint(never, { name: 'note', key: keyOf('note') });

/** The browser: one runtime, and a background that can be stopped and started again. */
export class World {
  readonly runtime = new FakeRuntime();
  router = new Router(OWN_EXTENSION);
  /** How many times the background was started (1 at first). */
  starts = 1;

  constructor() {
    this.runtime.serve((port) => this.router.accept(port));
  }

  /** The browser stops the service worker: every port closes and its memory is gone. */
  killBackground(): void {
    this.runtime.kill();
  }

  /** The next connect starts a fresh background. */
  startBackground(): void {
    this.router = new Router(OWN_EXTENSION);
    this.starts++;
    const router = this.router;
    this.runtime.serve((port) => router.accept(port));
  }

  /** Both at once: the background restarts right away, as when a port wakes it up. */
  restartBackground(): void {
    this.killBackground();
    this.startBackground();
  }

  /** Lets fake time pass in steps, delivering port and window messages after each step. */
  async run(ms: number, step = 10): Promise<void> {
    await settle();
    for (let elapsed = 0; elapsed < ms; elapsed += step) {
      vi.advanceTimersByTime(Math.min(step, ms - elapsed));
      await settle();
    }
  }
}

/** One page load in a tab: its window, store, bridge and content script. */
export class Tab {
  readonly page = new TestPage();
  readonly store: Store = createStore();
  readonly relay: ContentRelay;
  readonly bridge: DevtoolsConnection;
  /** The content script's ports. */
  readonly ports: FakePort[] = [];
  /** How many events the store produced (its latest seq). */
  produced = 0;
  /** What the content script warned about. */
  readonly warnings: string[] = [];
  private nextId = 1;

  constructor(
    readonly world: World,
    readonly tabId: number,
    options: Omit<DevtoolsOptions, 'window' | 'name'> = {},
  ) {
    // The content script runs at document_start, before the page's scripts.
    this.relay = new ContentRelay({
      window: this.page.window,
      connect: (name) => {
        const port = world.runtime.connect(name, contentSender(tabId));
        this.ports.push(port);
        return port;
      },
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      warn: (message) => this.warnings.push(message),
    });
    this.store.observe(() => this.produced++);
    this.bridge = connectDevtools(this.store, {
      ...options,
      window: this.page.window,
      name: `tab ${tabId}`,
    });
  }

  /** A realistic mix of changes: list replace, push, unshift, delete (Invalidate), plain results. */
  activity(rounds = 1): void {
    const { controller } = this.store;
    for (let round = 0; round < rounds; round++) {
      const a = this.nextId++;
      const b = this.nextId++;
      const c = this.nextId++;
      controller.setResponse(getTodos, { list: 'all' }, [
        { id: a, title: `todo ${a}` },
        { id: b, title: `todo ${b}` },
      ]);
      controller.setResponse(pushTodo, { list: 'all' }, { id: c, title: `pushed ${c}` });
      controller.setResponse(unshiftTodo, { list: 'all' }, { id: b, title: `again ${b}` });
      controller.setResponse(unshiftTodo, { list: 'all' }, { id: c + 1000, title: 'first' });
      controller.setResponse(deleteTodo, { id: a }, { id: a });
      controller.setResponse(note, round, { round });
    }
  }

  /** Closes the page: the content script's port closes and the page is gone. */
  unload(): void {
    this.bridge.disconnect();
    for (const port of this.ports) port.disconnect();
    this.page.unload();
  }

  /** The store's collections, as the panel shows them (encoded like a snapshot). */
  collections(): Record<string, Encoded> {
    const entities = encode(plain(this.store.getState().entities)) as Record<string, Encoded>;
    return Object.fromEntries(Object.entries(entities).filter(([key]) => isCollectionKey(key)));
  }

  /** The store's entity tables (not the collections), encoded. */
  entityTables(): Record<string, Record<string, Encoded>> {
    const entities = encode(plain(this.store.getState().entities)) as Record<
      string,
      Record<string, Encoded>
    >;
    return Object.fromEntries(Object.entries(entities).filter(([key]) => !isCollectionKey(key)));
  }
}

/** A DevTools panel watching a tab. */
export class Panel {
  readonly store: PanelStore = createPanelStore();
  readonly connection: PanelConnection;
  readonly ports: FakePort[] = [];
  /** Closed: the panel page is gone, and its timers with it. */
  private closed = false;

  constructor(
    readonly world: World,
    readonly tabId: number,
  ) {
    this.connection = new PanelConnection(
      {
        connect: (name) => {
          const port = world.runtime.connect(name, PANEL_SENDER);
          this.ports.push(port);
          return port;
        },
        setTimeout: (callback, ms) =>
          setTimeout(() => {
            if (!this.closed) callback();
          }, ms),
      },
      tabId,
      this.store,
    );
    this.connection.start();
  }

  /** The panel's copy of the only (or the given) page store. */
  view(storeId?: string): StoreView {
    const state = this.store.getState();
    const id = storeId ?? state.storeOrder[0];
    const view = id === undefined ? undefined : state.stores[id];
    if (!view) throw new Error(`the panel has no store ${id ?? ''}`);
    return view;
  }

  /** The collections, each as a plain object. */
  collections(storeId?: string): Record<string, Record<string, string[]>> {
    return plainTables(this.view(storeId).collections);
  }

  /** The entity tables, each as a plain object: rows not asked for yet are UNLOADED. */
  entityTables(storeId?: string): Record<string, Record<string, Row>> {
    return plainTables(this.view(storeId).entities);
  }

  /** Asks for every row the copy lacks or holds out of date, and lets the answers come. */
  async loadRows(storeId?: string): Promise<void> {
    const view = this.view(storeId);
    for (const [table, rows] of Object.entries(view.entities))
      this.connection.requestRows(view.id, table, [...rows.keys()]);
    await this.world.run(100);
  }

  /** The seqs of the timeline, oldest first. */
  timeline(storeId?: string): number[] {
    return this.view(storeId).events.map((event) => event.seq);
  }

  /** Closes DevTools: the panel page is gone (it never reconnects). */
  close(): void {
    this.closed = true;
    for (const port of this.ports) port.disconnect();
  }
}

const pksOf = (tables: Record<string, Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(tables).map(([type, rows]) => [type, Object.keys(rows).sort()]),
  );

/**
 * The panel holds every event of the tab's store, the same collections and the same entities:
 * every pk at once, and every row once asked for.
 */
export async function expectInSync(panel: Panel, tab: Tab) {
  const storeId = tab.bridge.storeId;
  expect(tab.produced).toBeGreaterThan(0);
  expect(panel.timeline(storeId)).toEqual(seqs(tab.produced));
  const view = panel.view(storeId);
  expect(view.ready).toBe(true);
  expect(view.lastSeq).toBe(tab.produced);
  expect(panel.collections(storeId)).toEqual(tab.collections());
  expect(pksOf(panel.entityTables(storeId))).toEqual(pksOf(tab.entityTables()));
  await panel.loadRows(storeId);
  expect(panel.entityTables(storeId)).toEqual(tab.entityTables());
}

/** 1, 2, …, n. */
export function seqs(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index + 1);
}

export { CONTENT_PORT, PANEL_PORT };
