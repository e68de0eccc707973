import { registerEndpoint } from '../endpoint/registry.js';
import type { Store } from '../store/createStore.js';
import { encode } from './encode.js';
import { EventDescriber, type EventLimits, encodeEvent, NotedChange } from './events.js';
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
import { Ring } from './ring.js';

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
 * keeps a ring of recent events (nothing is serialized); while connected it sends events in
 * batches, answers resync requests with the missing events or a snapshot, and runs the panel's
 * commands (invalidate, expire all, reset, replay).
 */
export function connectDevtools(store: Store, options: DevtoolsOptions = {}): DevtoolsConnection {
  const target = options.window ?? window;
  const ringSize = options.ringSize ?? 1000;
  const batchInterval = options.batchInterval ?? 50;
  const storeId = `store-${++storeCount}-${Math.random().toString(36).slice(2, 8)}`;
  const storeName = options.name ?? (target.document?.title || 'RestLens store');

  let seq = 0;
  const ring = new Ring<NotedChange>(ringSize);
  let connected = false;
  let queue: NotedChange[] = [];
  let snapshotDue = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Replays running now: what the store does meanwhile is tagged with their id. */
  const replaying = new Set<string>();

  const post = (message: PageMessageBody) => target.postMessage(pageMessage(message), '*');
  const describer = new EventDescriber(store.controller, registerEndpoint);

  /** Keeps a change in the ring (and the queue, while connected); it is described when sent. */
  const record = (change: NotedChange) => {
    change.stamp(++seq);
    // What happens while a replay runs is its doing (an `apply` runs synchronously; a `send`
    // waits for the server, so a click in that time is counted as the replay's too).
    if (replaying.size > 0 && change.type !== 'replay')
      change.replayId = replaying.values().next().value;
    ring.push(change);
    if (!connected) return;
    queue.push(change);
    if (change.needsSnapshot) snapshotDue = true;
    timer ??= setTimeout(flush, batchInterval);
  };

  /**
   * Posts events as JSON text in messages of about BATCH_LENGTH. Returns whether an event's
   * effects were too large to send (it went without them): the panel then needs a snapshot.
   */
  const sendEvents = (changes: readonly NotedChange[], history = false): boolean => {
    let texts: string[] = [];
    let length = 0;
    let omitted = false;
    const send = () => {
      post({
        kind: 'events',
        storeId,
        data: `[${texts.join(',')}]`,
        ...(history ? { history } : {}),
      });
      texts = [];
      length = 0;
    };
    for (const change of changes) {
      const event = describer.describe(change);
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
  };

  const sendSnapshot = () => {
    const state = store.getState();
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
      post({ kind: 'snapshot', storeId, seq, index, count: chunks.length, data });
  };

  /** The batch timer fired, or sending cannot wait (`flushNow`). */
  function flush() {
    timer = undefined;
    const events = queue;
    queue = [];
    if (events.length > 0 && sendEvents(events)) snapshotDue = true;
    if (snapshotDue) {
      snapshotDue = false;
      sendSnapshot();
    }
  }

  const flushNow = () => {
    if (timer !== undefined) clearTimeout(timer);
    flush();
  };

  /** Drops the pending batch and a due snapshot, unsent. */
  const dropPending = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    queue = [];
    snapshotDue = false;
  };

  /**
   * After a disconnect nothing more is posted: not the pending batch, not a due snapshot, and
   * not events recorded later (e.g. by a replay still running).
   */
  const stopSending = () => {
    connected = false;
    dropPending();
  };

  /** A panel holding events up to `lastSeq` gets what it misses, or a snapshot if that left the ring. */
  const resync = (lastSeq: number) => {
    // What was pending is in what the resync sends.
    dropPending();
    const oldest = ring.oldest?.seq ?? seq + 1;
    if (lastSeq > 0 && lastSeq <= seq && lastSeq >= oldest - 1) {
      const missing = ring.toArray().filter((event) => event.seq > lastSeq);
      const omitted = sendEvents(missing);
      // As after a live batch, events the panel cannot follow from their effects alone
      // (optimistic ones, or ones sent without their effects) need a snapshot after them.
      if (omitted || missing.some((event) => event.needsSnapshot)) sendSnapshot();
      return;
    }
    sendSnapshot();
    sendEvents(ring.toArray(), true);
  };

  /** The rows a panel shows, as stored now; the events before them are posted first. */
  const sendRows = (command: RowsCommand) => {
    flushNow();
    const table = store.getState().entities[command.table];
    const limits = { maxSize: Math.floor(ROWS_LENGTH / Math.max(1, command.pks.length)) };
    const rows: Record<string, Encoded> = {};
    for (const pk of command.pks) {
      const row = table?.[pk];
      rows[pk] = row === undefined ? null : encode(row, limits);
    }
    post({ kind: 'rows', storeId, seq, table: command.table, rows });
  };

  const replay = async (command: ReplayCommand) => {
    replaying.add(command.replayId);
    try {
      await replayMutations(store.controller, command.mutations, command.mode, {
        onOutcome: (outcome) => {
          const change = new NotedChange(
            'replay',
            [],
            [{ type: 'replay-result', replayId: command.replayId, ...outcome }],
          );
          if (outcome.endpoint) change.value = outcome.endpoint;
          record(change);
        },
      });
    } finally {
      replaying.delete(command.replayId);
    }
  };

  const run = (command: ExtensionCommand) => {
    const { controller } = store;
    switch (command.kind) {
      case 'connect':
        connected = true;
        post({
          kind: 'hello',
          storeId,
          storeName,
          libraryVersion: LIBRARY_VERSION,
          seq,
          answering: true,
        });
        resync(command.lastSeq);
        return;
      case 'disconnect':
        stopSending();
        return;
      case 'snapshot':
        sendSnapshot();
        return;
      case 'rows':
        sendRows(command);
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
        void replay(command);
        return;
    }
  };

  const onMessage = (event: MessageEvent) => {
    // Only our own window's messages, with our tag, version and a valid shape; never code.
    if (event.source !== target || !isExtensionCommand(event.data)) return;
    const command = event.data;
    if ('storeId' in command && command.storeId !== undefined && command.storeId !== storeId)
      return;
    run(command);
  };

  const unobserve = store.observe((change) => record(describer.note(change)));
  target.addEventListener('message', onMessage);
  post({ kind: 'hello', storeId, storeName, libraryVersion: LIBRARY_VERSION, seq });

  return {
    storeId,
    flush: flushNow,
    disconnect() {
      unobserve();
      target.removeEventListener('message', onMessage);
      stopSending();
    },
  };
}
