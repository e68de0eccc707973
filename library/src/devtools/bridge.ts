import { registerEndpoint } from '../endpoint/registry.js';
import type { Store } from '../store/createStore.js';
import { encode } from './encode.js';
import { EventDescriber, encodeEvent, type RawStoreEvent } from './events.js';
import {
  type ExtensionCommand,
  isExtensionCommand,
  type PageMessageBody,
  pageMessage,
  type ReplayCommand,
  SNAPSHOT_CHUNK_LENGTH,
  type SnapshotState,
  type StoreEvent,
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
 * Caps on what one event carries. The action's values (args, body, response) are a preview: the
 * rows the response stored travel in full with the effects, so a long list is not sent twice.
 */
const EVENT_LIMITS = { action: { maxSize: 16 * 1024 }, effects: { maxSize: 256 * 1024 } };
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
  const ring: RawStoreEvent[] = [];
  let connected = false;
  let queue: RawStoreEvent[] = [];
  let snapshotDue = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Replays running now: what the store does meanwhile is tagged with their id. */
  const replaying = new Set<string>();

  const post = (message: PageMessageBody) => target.postMessage(pageMessage(message), '*');
  const describer = new EventDescriber(store.controller, registerEndpoint);

  const record = (event: Omit<RawStoreEvent, 'seq' | 'time'>) => {
    // Each description is a fresh object: number it in place rather than copy it.
    const full = Object.assign(event, { seq: ++seq, time: Date.now() }) as RawStoreEvent;
    // What happens while a replay runs is its doing (an `apply` runs synchronously; a `send`
    // waits for the server, so a click in that time is counted as the replay's too).
    const [replayId] = replaying;
    if (replayId !== undefined && full.action.type !== 'replay') full.action.replayId = replayId;
    ring.push(full);
    if (ring.length > ringSize) ring.shift();
    if (!connected) return;
    queue.push(full);
    if (full.needsSnapshot) snapshotDue = true;
    timer ??= setTimeout(flush, batchInterval);
  };

  const sendEvents = (events: readonly RawStoreEvent[], history = false) => {
    let batch: StoreEvent[] = [];
    let length = 0;
    for (const event of events) {
      const encoded = encodeEvent(event, EVENT_LIMITS);
      length += encoded.size;
      batch.push(encoded.event);
      if (length >= BATCH_LENGTH) {
        post({ kind: 'events', storeId, events: batch, ...(history ? { history } : {}) });
        batch = [];
        length = 0;
      }
    }
    if (batch.length > 0)
      post({ kind: 'events', storeId, events: batch, ...(history ? { history } : {}) });
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

  function flush() {
    timer = undefined;
    const events = queue;
    queue = [];
    if (events.length > 0) sendEvents(events);
    if (snapshotDue) {
      snapshotDue = false;
      sendSnapshot();
    }
  }

  /**
   * After a disconnect nothing more is posted: not the pending batch, not a due snapshot, and
   * not events recorded later (e.g. by a replay still running).
   */
  const stopSending = () => {
    connected = false;
    queue = [];
    snapshotDue = false;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  /** A panel holding events up to `lastSeq` gets what it misses, or a snapshot if that left the ring. */
  const resync = (lastSeq: number) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    queue = [];
    snapshotDue = false;
    const oldest = ring[0]?.seq ?? seq + 1;
    if (lastSeq > 0 && lastSeq <= seq && lastSeq >= oldest - 1) {
      const missing = ring.filter((event) => event.seq > lastSeq);
      sendEvents(missing);
      // As after a live batch, events the panel cannot follow from their effects alone
      // (optimistic ones) need a snapshot after them.
      if (missing.some((event) => event.needsSnapshot)) sendSnapshot();
      return;
    }
    sendSnapshot();
    sendEvents(ring, true);
  };

  const replay = async (command: ReplayCommand) => {
    replaying.add(command.replayId);
    try {
      await replayMutations(store.controller, command.mutations, command.mode, {
        onOutcome: (outcome) =>
          record({
            action: { type: 'replay', ...(outcome.endpoint ? { endpoint: outcome.endpoint } : {}) },
            effects: [{ type: 'replay-result', replayId: command.replayId, ...outcome }],
          }),
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

  const unobserve = store.observe((change) => record(describer.describe(change)));
  target.addEventListener('message', onMessage);
  post({ kind: 'hello', storeId, storeName, libraryVersion: LIBRARY_VERSION, seq });

  return {
    storeId,
    flush() {
      if (timer !== undefined) clearTimeout(timer);
      flush();
    },
    disconnect() {
      unobserve();
      target.removeEventListener('message', onMessage);
      stopSending();
    },
  };
}
