import {
  type ExtensionCommandBody,
  extensionCommand,
  type PageMessage,
  type RowsMessage,
} from '../../../library/src/devtools/protocol/messages.js';
import {
  isPageMessage,
  parseEvents,
  parseMembers,
} from '../../../library/src/devtools/protocol/validate.js';
import {
  type BackgroundToPanel,
  backoff,
  isObject,
  PANEL_PORT,
  type PanelToBackground,
  type PortLike,
  STABLE_PORT_MS,
} from '../shared/ports.js';
import { dict } from './dict.js';
import { type EventBatch, type ListPart, resyncPoint } from './model.js';
import { RowRequests } from './rowRequests.js';
import type { PanelStore } from './store.js';

interface ConnectionEnvironment {
  /** Opens a runtime port to the background. */
  connect(name: string): PortLike<unknown, PanelToBackground>;
  setTimeout(callback: () => void, ms: number): unknown;
}

/**
 * The panel's one link to its tab: every message in goes into the panel store, every command
 * out goes through `send`. It tracks each store's last seq, asks for what it missed after a gap
 * or a reconnect, and reconnects with backoff when the background goes away.
 */
export class PanelConnection {
  private port: PortLike<unknown, PanelToBackground> | undefined;
  private attempts = 0;
  private readonly rowRequests: RowRequests;
  /**
   * Rows answered and not yet taken into the copy. Answers come in hundreds when a filter needs
   * every row of a large table, and each one taken makes a new copy the views render again:
   * those that came within a task or two are taken together.
   */
  private answeredRows: RowsMessage[] = [];
  /**
   * Parts of the lists that follow a snapshot, not yet taken, by store. A table's pks come in
   * dozens of parts, and each one taken makes a new copy the views render again: those that came
   * within a task or two are taken together.
   */
  private listParts = new Map<string, ListPart[]>();
  /**
   * Events messages not yet applied, in the order they came. A burst of writes on the page comes
   * as many messages, and each batch applied makes a new copy the views render again: those that
   * came within a task or two are applied together, so the panel keeps up with the page.
   */
  private eventBatches: EventBatch[] = [];

  constructor(
    private readonly env: ConnectionEnvironment,
    private readonly tabId: number,
    private readonly store: PanelStore,
  ) {
    this.rowRequests = new RowRequests(store, (command) => this.send(command));
  }

  start(): void {
    const port = this.env.connect(PANEL_PORT);
    this.port = port;
    port.onMessage.addListener((message) => this.receive(message));
    port.onDisconnect.addListener(() => {
      this.port = undefined;
      this.store.getState().setConnection('disconnected');
      this.env.setTimeout(() => this.start(), backoff(this.attempts++));
    });
    port.postMessage({ type: 'init', tabId: this.tabId });
    this.store.getState().setConnection('connected');
    // The backoff starts over only once the port has stayed up: a background that cannot start
    // must not be retried every 100 ms forever.
    this.env.setTimeout(() => {
      if (this.port === port) this.attempts = 0;
    }, STABLE_PORT_MS);
  }

  /** Sends a command to the page (dropped while disconnected: a resync follows the reconnect). */
  send(command: ExtensionCommandBody): void {
    this.port?.postMessage({ type: 'command', command: extensionCommand(command) });
  }

  /** Asks for rows a view shows: only those missing or out of date are sent, once. */
  requestRows(storeId: string, table: string, pks: readonly string[]): void {
    this.rowRequests.request(storeId, table, pks);
  }

  private receive(raw: unknown) {
    if (!isObject(raw)) return;
    const message = raw as BackgroundToPanel;
    const state = this.store.getState();
    switch (message.type) {
      case 'content-connected': {
        // Rows asked for until now may never be answered: the content script or the port they
        // went through may be gone. Views ask again for what they still miss.
        this.rowRequests.forget();
        // A new page load starts from scratch; the same page (after the background or the
        // panel reconnected) only sends what this panel missed.
        if (state.contentConnected(message.pageId)) this.send({ kind: 'connect', lastSeq: 0 });
        else this.resyncAll();
        return;
      }
      case 'content-disconnected':
        state.contentDisconnected();
        return;
      case 'page':
        if (isPageMessage(message.message)) this.receivePage(message.message);
        return;
    }
  }

  /** Takes the rows answered so far into the copy, one table at a time. */
  private takeRows() {
    // The page sends a snapshot's lists before any answer that follows it.
    this.takeListParts();
    const answers = this.answeredRows;
    this.answeredRows = [];
    const byTable = new Map<string, RowsMessage>();
    for (const answer of answers) {
      const id = JSON.stringify([answer.storeId, answer.table]);
      const earlier = byTable.get(id);
      byTable.set(
        id,
        earlier ? { ...answer, rows: Object.assign(earlier.rows, answer.rows) } : answer,
      );
    }
    const state = this.store.getState();
    for (const answer of byTable.values()) state.rows(answer);
  }

  /** Takes the parts of lists that came so far into the copies. */
  private takeListParts() {
    const parts = this.listParts;
    if (parts.size === 0) return;
    this.listParts = new Map();
    const state = this.store.getState();
    for (const [storeId, storeParts] of parts)
      this.resync(storeId, state.listParts(storeId, storeParts));
  }

  /** Asks one store for what follows `after` (0: everything), when the store says it must. */
  private resync(storeId: string, after: number | undefined) {
    const view = this.store.getState().stores[storeId];
    if (after !== undefined)
      this.send({ kind: 'connect', storeId, lastSeq: view ? resyncPoint(view, after) : 0 });
  }

  private resyncAll() {
    const { stores, storeOrder } = this.store.getState();
    for (const storeId of storeOrder) {
      const view = stores[storeId];
      this.send({ kind: 'connect', storeId, lastSeq: view ? resyncPoint(view, view.lastSeq) : 0 });
    }
  }

  /** Applies the events that came so far, consecutive batches of one store as one. */
  private takeEvents() {
    const batches = this.eventBatches;
    if (batches.length === 0) return;
    this.eventBatches = [];
    const joined: EventBatch[] = [];
    for (const batch of batches) {
      const last = joined.at(-1);
      if (last && last.storeId === batch.storeId && last.history === batch.history)
        joined[joined.length - 1] = { ...last, events: last.events.concat(batch.events) };
      else joined.push(batch);
    }
    for (const batch of joined) {
      this.resync(batch.storeId, this.store.getState().events(batch));
      // A replay result may have made the next replay command due (one by one, or the next
      // chunk): it goes out from here, so a replay goes on whichever view is shown.
      const replay = this.store.getState().takeReplayCommand();
      if (replay) this.send(replay);
    }
  }

  private receivePage(message: PageMessage) {
    // Whatever follows events on the page's side is applied after them.
    if (message.kind !== 'events') this.takeEvents();
    const state = this.store.getState();
    switch (message.kind) {
      case 'hello': {
        const known = state.stores[message.storeId];
        state.hello(message);
        // A store greeting on its own (it appeared after we connected): ask for its state. One
        // answering our connect is already sending it.
        if (!known && !message.answering)
          this.send({ kind: 'connect', storeId: message.storeId, lastSeq: 0 });
        return;
      }
      case 'snapshot':
        this.takeRows();
        this.resync(message.storeId, state.snapshot(message));
        if (!this.store.getState().stores[message.storeId]?.pendingSnapshot)
          this.rowRequests.forget(message.storeId);
        return;
      case 'members': {
        const pks = parseMembers(message);
        if (!pks) return;
        const { storeId, seq, table, row } = message;
        if (this.listParts.size === 0) this.env.setTimeout(() => this.takeListParts(), 0);
        const parts = this.listParts.get(storeId) ?? [];
        parts.push(row === undefined ? { seq, table, pks } : { seq, table, row, pks });
        this.listParts.set(storeId, parts);
        return;
      }
      case 'rows': {
        // Rows of a past state are not the copy's: they are the time travel's.
        if (message.asOf !== undefined) {
          state.pastRows(message);
          return;
        }
        // Only the rows it asked for: a script of the page may post answers nobody asked for.
        const { rows } = message;
        const asked = this.rowRequests.answered(message.storeId, message.table, Object.keys(rows));
        if (asked.length === 0) return;
        if (this.answeredRows.length === 0) this.env.setTimeout(() => this.takeRows(), 0);
        this.answeredRows.push({
          ...message,
          rows: dict(asked.map((pk) => [pk, rows[pk] ?? null])),
        });
        return;
      }
      case 'results':
        // The panel reads results only as of a past seq (time travel).
        if (message.asOf !== undefined) state.pastResults(message);
        return;
      case 'readers':
        state.readers(message);
        return;
      case 'search':
        state.search(message);
        return;
      case 'command-error':
        state.commandError(message);
        return;
      case 'events': {
        // Rows answered before these events are as of before them: taken first, so that the
        // events mark them stale where they change them (and the lists of a snapshot before).
        this.takeRows();
        const events = parseEvents(message);
        // Malformed text: the whole message is dropped, like any invalid message (a gap in seq
        // then brings its events again).
        if (!events) return;
        if (this.eventBatches.length === 0) this.env.setTimeout(() => this.takeEvents(), 0);
        this.eventBatches.push({ storeId: message.storeId, events, history: message.history });
        return;
      }
    }
  }
}
