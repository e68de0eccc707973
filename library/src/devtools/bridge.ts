import { registerEndpoint } from '../endpoint/registry.js';
import { EMPTY_TRACE } from '../normalize/trace.js';
import type { Action } from '../store/actions.js';
import { Controller } from '../store/Controller.js';
import type { Store, StoreRecord, TracedRecord } from '../store/createStore.js';
import { encode } from './encode.js';
import {
  EventDescriber,
  type EventLimits,
  encodeEvent,
  NotedChange,
  type Stamped,
} from './events.js';
import { History } from './history.js';
import {
  type Encoded,
  type ExtensionCommand,
  isExtensionCommand,
  MAX_MESSAGE_LENGTH,
  type PageMessageBody,
  pageMessage,
  type ReplayCommand,
  type RowsCommand,
  SNAPSHOT_CHUNK_LENGTH,
  type SnapshotState,
} from './protocol.js';
import { replayMutations } from './replay.js';

export interface DevtoolsOptions {
  /** Shown in the panel's store selector; the document title by default. */
  name?: string;
  /** How many recent events are kept for a panel that opens later (default 1000). */
  ringSize?: number;
  /** How long events wait to be sent together while a panel is connected, in ms (default 50). */
  batchInterval?: number;
  /** The window to talk through (the page's own window by default). */
  window?: Window;
}

export interface DevtoolsConnection {
  readonly storeId: string;
  /** Sends the events waiting for the next batch now (while a panel is connected). */
  flush(): void;
  /** Stops observing the store and listening for the panel. */
  disconnect(): void;
}

export const LIBRARY_VERSION = '0.1.0';
/**
 * Caps on what one event carries. A mutation's values are what a recording keeps and a replay
 * sends again; a read's answer is only a preview, as its rows are in the store (a panel asks for
 * the ones it shows).
 */
const EVENT_LIMITS: EventLimits = {
  mutation: { maxSize: 16 * 1024 },
  read: { maxSize: 1024 },
  effects: { maxSize: 256 * 1024 },
};
/** Room for the envelope of an events message around its JSON text. */
const ENVELOPE_LENGTH = 1024;
/** One `rows` answer stays this far below the largest message, whatever the rows hold. */
const ROWS_LENGTH = 6 * 1024 * 1024;
/** Snapshots carry the whole state. */
const SNAPSHOT_LIMITS = {
  maxSize: 64 * 1024 * 1024,
  maxItems: 1_000_000,
  maxDepth: 32,
  maxStringLength: 1_000_000,
};
/** Keep each events message around this size (JSON length). */
const BATCH_LENGTH = 512 * 1024;

let storeCount = 0;

/**
 * Connects a store to the RestLens panel over window messaging. Until a panel connects it only
 * keeps a ring of recent changes, untraced (nothing is traced or serialized; see History); while
 * connected it sends events in batches, answers resync requests with the missing events or a
 * snapshot, and runs the panel's commands (invalidate, expire all, reset, replay).
 */
export function connectDevtools(store: Store, options: DevtoolsOptions = {}): DevtoolsConnection {
  return new DevtoolsBridge(store, options);
}

/**
 * One store's side of the devtools. A class, so that a connected store costs one object and a
 * few callbacks: apps and tests make stores by the hundred, and every closure of a bridge built
 * from closures was one more object for the garbage collector to move while the store lives.
 */
class DevtoolsBridge implements DevtoolsConnection {
  readonly storeId = `store-${++storeCount}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly target: Window;
  private readonly storeName: string;
  private readonly batchInterval: number;
  private readonly history: History;
  private readonly describer: EventDescriber;
  private seq = 0;
  private connected = false;
  private queue: NotedChange[] = [];
  private snapshotDue = false;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /**
   * Replays running now, oldest first: what the store does meanwhile is tagged with the first.
   * A list, not a Set: it is almost always empty, and an empty Set is ten times the size.
   */
  private readonly replaying: string[] = [];
  private readonly unobserve: () => void;

  constructor(
    private readonly store: Store,
    options: DevtoolsOptions,
  ) {
    this.target = options.window ?? window;
    this.history = new History(options.ringSize ?? 1000);
    this.batchInterval = options.batchInterval ?? 50;
    this.storeName = options.name ?? (this.target.document?.title || 'RestLens store');
    this.describer = new EventDescriber(store.controller, registerEndpoint);
    this.unobserve = store.observe(this.observe, { traces: this.traces });
    this.target.addEventListener('message', this.onMessage);
    this.hello();
  }

  /** Sends the events waiting for the next batch now (a field: callers may pass it around). */
  readonly flush = (): void => {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.sendPending();
  };

  readonly disconnect = (): void => {
    this.unobserve();
    this.target.removeEventListener('message', this.onMessage);
    this.stopSending();
  };

  private readonly onMessage = (event: MessageEvent) => {
    // Only our own window's messages, with our tag, version and a valid shape; never code.
    if (event.source !== this.target || !isExtensionCommand(event.data)) return;
    const command = event.data;
    if ('storeId' in command && command.storeId !== undefined && command.storeId !== this.storeId)
      return;
    this.run(command);
  };

  private post(message: PageMessageBody) {
    this.target.postMessage(pageMessage(message), '*');
  }

  /** Announces the store: on its own at start, and `answering` a panel's connect. */
  private hello(answering?: true) {
    this.post({
      kind: 'hello',
      storeId: this.storeId,
      storeName: this.storeName,
      libraryVersion: LIBRARY_VERSION,
      seq: this.seq,
      ...(answering ? { answering } : {}),
    });
  }

  /**
   * While a panel is connected, every change is traced; while none is, only an optimistic fetch,
   * whose trace cannot be made again later (see History).
   */
  private readonly traces = (action: Action): boolean => this.connected || action.type === 'fetch';

  private readonly observe = (record: StoreRecord): void => {
    this.describer.track(record);
    const { trace } = record;
    if (this.connected && trace !== undefined)
      this.record(this.describer.note({ ...record, trace }));
    else this.history.keepUntraced(record, this.stamp);
  };

  /** Numbers an entry of the ring; what happens while a replay runs is tagged with it. */
  private readonly stamp = (entry: Stamped): void => {
    entry.stamp(++this.seq);
    // An `apply` runs synchronously; a `send` waits for the server, so a click in that time is
    // counted as the replay's too.
    if (this.replaying.length > 0) entry.replayId = this.replaying[0];
  };

  /** Keeps a note in the ring (and the queue, while connected); it is described when sent. */
  private record(change: NotedChange) {
    this.stamp(change);
    // A replay's outcome names its replay itself, and another may be the first running.
    if (change.type === 'replay') change.replayId = undefined;
    this.history.keep(change);
    if (!this.connected) return;
    this.queue.push(change);
    if (change.needsSnapshot) this.snapshotDue = true;
    this.timer ??= setTimeout(() => this.sendPending(), this.batchInterval);
  }

  /**
   * Posts events as JSON text in messages of about BATCH_LENGTH. Returns whether an event's
   * effects were too large to send (it went without them): the panel then needs a snapshot.
   */
  private sendEvents(changes: readonly NotedChange[], history = false): boolean {
    let texts: string[] = [];
    let length = 0;
    let omitted = false;
    const send = () => {
      this.post({
        kind: 'events',
        storeId: this.storeId,
        data: `[${texts.join(',')}]`,
        ...(history ? { history } : {}),
      });
      texts = [];
      length = 0;
    };
    for (const change of changes) {
      const event = this.describer.describe(change);
      let text = JSON.stringify(encodeEvent(event, EVENT_LIMITS));
      if (text.length > MAX_MESSAGE_LENGTH - ENVELOPE_LENGTH) {
        text = JSON.stringify({
          ...encodeEvent({ ...event, effects: [] }, EVENT_LIMITS),
          effectsOmitted: true,
        });
        omitted = true;
      }
      if (length + text.length > MAX_MESSAGE_LENGTH - ENVELOPE_LENGTH) send();
      texts.push(text);
      length += text.length + 1;
      if (length >= BATCH_LENGTH) send();
    }
    if (texts.length > 0) send();
    return omitted;
  }

  private sendSnapshot() {
    const state = this.store.getState();
    const snapshot: SnapshotState = {
      entities: encode(state.entities, SNAPSHOT_LIMITS) as SnapshotState['entities'],
      endpoints: encode(state.endpoints, SNAPSHOT_LIMITS) as SnapshotState['endpoints'],
      meta: encode(state.meta, SNAPSHOT_LIMITS) as SnapshotState['meta'],
      entitiesMeta: encode(state.entitiesMeta, SNAPSHOT_LIMITS) as SnapshotState['entitiesMeta'],
      indexes: encode(state.indexes, SNAPSHOT_LIMITS),
      optimistic: state.optimistic.map(({ key, endpoint, fetchedAt }) => ({
        key,
        endpoint: endpoint.name,
        fetchedAt,
      })),
    };
    const text = JSON.stringify(snapshot);
    // A chunk never ends between the two halves of a surrogate pair (an emoji): a relay that
    // encodes each chunk as UTF-8 (Chrome's extension messaging) would turn lone halves into
    // U+FFFD. A chunk that would end on a high surrogate ends one unit earlier.
    const chunks: string[] = [];
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + SNAPSHOT_CHUNK_LENGTH, text.length);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      chunks.push(text.slice(start, end));
      start = end;
    }
    for (const [index, data] of chunks.entries())
      this.post({
        kind: 'snapshot',
        storeId: this.storeId,
        seq: this.seq,
        index,
        count: chunks.length,
        data,
      });
  }

  /** The batch timer fired, or sending cannot wait (`flush`). */
  private sendPending() {
    this.timer = undefined;
    const events = this.queue;
    this.queue = [];
    if (events.length > 0 && this.sendEvents(events)) this.snapshotDue = true;
    if (this.snapshotDue) {
      this.snapshotDue = false;
      this.sendSnapshot();
    }
  }

  /** Drops the pending batch and a due snapshot, unsent. */
  private dropPending() {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.snapshotDue = false;
  }

  /**
   * After a disconnect nothing more is posted: not the pending batch, not a due snapshot, and
   * not events recorded later (e.g. by a replay still running).
   */
  private stopSending() {
    this.connected = false;
    this.dropPending();
  }

  /** A panel holding events up to `lastSeq` gets what it misses, or a snapshot if that left the ring. */
  private resync(lastSeq: number) {
    // What was pending is in what the resync sends.
    this.dropPending();
    const history = this.history.noted(this.noteRetraced());
    const oldest = history[0]?.seq ?? this.seq + 1;
    if (lastSeq > 0 && lastSeq <= this.seq && lastSeq >= oldest - 1) {
      const missing = history.filter((event) => event.seq > lastSeq);
      const omitted = this.sendEvents(missing);
      // As after a live batch, events the panel cannot follow from their effects alone
      // (optimistic ones, or ones sent without their effects) need a snapshot after them.
      if (omitted || missing.some((event) => event.needsSnapshot)) this.sendSnapshot();
      return;
    }
    this.sendSnapshot();
    this.sendEvents(history, true);
  }

  /**
   * Notes changes worked out after they happened, read with a Controller of their own: the
   * states made again must not enter the app's memo (see readersOfInvalidated).
   */
  private noteRetraced(): (record: TracedRecord) => NotedChange {
    const reader = new Controller({
      dispatch() {
        throw new Error('a reader of past states changes nothing');
      },
      getState: () => this.store.controller.getState(),
    });
    return (record) => this.describer.note(record, reader);
  }

  /** The rows a panel shows, as stored now; the events before them are posted first. */
  private sendRows(command: RowsCommand) {
    this.flush();
    const table = this.store.getState().entities[command.table];
    const limits = { maxSize: Math.floor(ROWS_LENGTH / Math.max(1, command.pks.length)) };
    const rows: Record<string, Encoded> = {};
    for (const pk of command.pks) {
      const row = table?.[pk];
      rows[pk] = row === undefined ? null : encode(row, limits);
    }
    this.post({ kind: 'rows', storeId: this.storeId, seq: this.seq, table: command.table, rows });
  }

  private async replay(command: ReplayCommand) {
    this.replaying.push(command.replayId);
    try {
      await replayMutations(this.store.controller, command.mutations, command.mode, {
        onOutcome: (outcome) => {
          const change = new NotedChange('replay', EMPTY_TRACE, [
            { type: 'replay-result', replayId: command.replayId, ...outcome },
          ]);
          if (outcome.endpoint) change.value = outcome.endpoint;
          this.record(change);
        },
      });
    } finally {
      this.replaying.splice(this.replaying.indexOf(command.replayId), 1);
    }
  }

  private run(command: ExtensionCommand) {
    const { controller } = this.store;
    switch (command.kind) {
      case 'connect':
        this.connected = true;
        this.hello(true);
        this.resync(command.lastSeq);
        return;
      case 'disconnect':
        this.stopSending();
        return;
      case 'snapshot':
        this.sendSnapshot();
        return;
      case 'rows':
        this.sendRows(command);
        return;
      case 'invalidate':
        controller.invalidateAll((key) => key === command.key);
        return;
      case 'expireAll':
        controller.expireAll(() => true);
        return;
      case 'reset':
        controller.resetEntireStore();
        return;
      case 'replay':
        void this.replay(command);
        return;
    }
  }
}
