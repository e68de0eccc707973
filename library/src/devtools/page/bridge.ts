import type { Store, StoreRecord } from '../../store/createStore.js';
import type { State } from '../../store/state.js';
import type { ReplayOutcome } from '../protocol/effects.js';
import { TIMELINE_LENGTH } from '../protocol/messages.js';
import { PanelAgent, type StoreFeed } from './agent.js';
import { Describer, type EventLimits, encodeEvent, needsSnapshot } from './describe.js';
import { EndpointNames } from './endpointNames.js';
import { entityLabelsOf } from './entityLabels.js';
import { History, type HistoryEntry } from './history.js';
import { snapshotParts } from './snapshot.js';
import { StaleSources } from './staleSources.js';
import { MAX_EVENT_LENGTH, PanelTransport } from './transport.js';

/** Options of `connectDevtools`. */
export interface DevtoolsOptions {
  /** Shown in the panel's store selector; the document title by default. */
  name?: string;
  /** How many recent changes are kept for a panel that opens later (default 1000). */
  ringSize?: number;
  /**
   * How many of the latest changes keep their state, for the panel's reads "as of" their seq
   * (default 100, at most ringSize). Older ones are still described; reads as of them are
   * answered `leftRing`.
   */
  statesKept?: number;
  /**
   * How long the page may work at once answering a panel (a snapshot, the ring's history), in
   * ms (default 10): longer work goes on in later tasks, and the page stays responsive.
   */
  sliceMs?: number;
  /**
   * While a panel is connected, events are sent together at most this often, in ms (default
   * 50): the first after a quiet spell goes once the task that made it ends, the next ones wait
   * for the interval since the last batch.
   */
  batchInterval?: number;
  /**
   * The window to greet the content script through (the page's own window by default); its
   * `MessageChannel` makes the port the store talks on after that. Where there is none (a
   * server render), the connection does nothing.
   */
  window?: Window;
  /**
   * Record the app's call site (a stack) of every action even while no panel is connected, so
   * that the history a panel opens to has them too. By default they are recorded only while a
   * panel is connected: a stack costs each call.
   */
  traceAlways?: boolean;
}

/** A store's connection to the RestLens panel, as `connectDevtools` returns it. */
export interface DevtoolsConnection {
  readonly storeId: string;
  /** Sends the events waiting for the next batch now (while a panel is connected). */
  flush(): void;
  /** Stops observing the store and listening for the panel. */
  disconnect(): void;
}

/** How many recent changes the ring keeps by default, and how many of them keep their state. */
export const DEFAULT_RING_SIZE = 1000;
export const DEFAULT_STATES_KEPT = 100;
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

/**
 * The random part of a store id. A store's id is what its content script binds its port to, so
 * a script of the page must not guess it before the store greets (and greet first with its own
 * port): the browser's random source, never `Math.random`, whose next values can be worked out
 * from earlier ones. `getRandomValues` needs no secure context (pages on plain http have it).
 */
function randomPart(): string {
  return Array.from(crypto.getRandomValues(new Uint32Array(2)), (word) => word.toString(36)).join(
    '',
  );
}

/**
 * Connects a store to the RestLens panel, in three parts as React DevTools' backend is: the
 * transport (PanelTransport) talks to the content script and knows no store; the agent
 * (PanelAgent) answers the panel's commands; the bridge (here) records the store's changes in a
 * ring and describes them (Describer) as the events the transport sends. Until a panel connects
 * it only keeps the ring (see History; nothing is serialized); while connected it sends events in
 * batches, and answers resync requests with the missing events or a snapshot.
 */
export function connectDevtools(store: Store, options: DevtoolsOptions = {}): DevtoolsConnection {
  const target = options.window ?? (typeof window === 'undefined' ? undefined : window);
  // A server render has no window and no panel to talk to: the store runs as it is, and the
  // module that connects it runs unchanged on the server and in the browser.
  if (target === undefined) return { storeId: newStoreId(), flush() {}, disconnect() {} };
  return new DevtoolsBridge(store, target, options);
}

/** A store's id on the page: unique there, unlikely to repeat after a reload, never guessed. */
function newStoreId(): string {
  return `store-${randomPart()}`;
}

/**
 * Records a store for the panel: each change the store reports goes into the ring (History) and,
 * while a panel is connected, the transport's queue; it is described when sent. It makes what the
 * transport posts of the store (batches, snapshots, resync answers) and what the agent reads.
 */
class DevtoolsBridge implements DevtoolsConnection, StoreFeed {
  private readonly history: History;
  private readonly describer: Describer;
  /** The names the store's endpoints are recorded and replayed by. */
  private readonly names: EndpointNames;
  private readonly transport: PanelTransport<HistoryEntry>;
  private readonly agent: PanelAgent;
  /** The state components see now: the last change's, or the store's when the bridge started. */
  state: State;
  seq = 0;
  /** The last event (or snapshot) posted to the panel, and the state just after it. */
  private sent: { seq: number; state: State };
  /** Replays running now, oldest first: what the store does meanwhile is tagged with the first. */
  readonly replaying: string[] = [];
  private readonly staleSources = new StaleSources((action) =>
    action.type === 'fetch' || action.type === 'setResponse'
      ? this.names.nameOf(action.endpoint)
      : action.type,
  );
  private readonly unobserve: () => void;

  constructor(store: Store, target: Window, options: DevtoolsOptions) {
    const ringSize = options.ringSize ?? DEFAULT_RING_SIZE;
    this.history = new History(
      ringSize,
      options.statesKept ?? Math.min(DEFAULT_STATES_KEPT, ringSize),
    );
    this.names = new EndpointNames(store.controller);
    this.describer = new Describer(store.controller, (endpoint) => this.names.nameOf(endpoint));
    this.state = store.getState();
    this.sent = { seq: 0, state: this.state };
    this.transport = new PanelTransport(
      target,
      {
        storeId: newStoreId(),
        storeName: options.name ?? (target.document?.title || 'RestLens store'),
        batchInterval: options.batchInterval ?? 50,
        sliceMs: options.sliceMs ?? 10,
      },
      { run: (command) => this.agent.run(command), batch: (entries) => this.postBatch(entries) },
    );
    this.agent = new PanelAgent(
      store,
      this.transport,
      this,
      this.describer,
      options.traceAlways ?? false,
    );
    this.unobserve = store.observe(this.observe);
  }

  get storeId(): string {
    return this.transport.storeId;
  }

  /**
   * Sends now, in this task, what is being sent in slices and the events waiting for the next
   * batch (a field: callers may pass it around).
   */
  readonly flush = (): void => this.transport.flush();

  readonly disconnect = (): void => {
    this.agent.stop();
    this.unobserve();
    this.transport.close();
  };

  private readonly observe = ({ action, changes, view }: StoreRecord): void => {
    this.describer.note(action, changes);
    const seq = this.seq + 1;
    const readers = this.describer.readerEffects(changes, view);
    const staleSource = this.staleSources.sourceOf(action);
    this.staleSources.note(seq, action, changes, readers);
    const labels = entityLabelsOf(changes, view, (type) => this.describer.entityClass(type));
    // An `apply` replay runs synchronously; a `send` waits for the server, so a click in that
    // time is counted as the replay's too.
    this.keep({
      kind: 'action',
      seq,
      time: Date.now(),
      action,
      changes,
      state: view,
      replayId: this.replaying[0],
      readers,
      staleSource,
      labels,
    });
  };

  /** Keeps a replayed mutation's outcome as the ring's next entry. */
  keepReplayed(replayId: string, outcome: ReplayOutcome<unknown>): void {
    this.keep({
      kind: 'replay',
      seq: this.seq + 1,
      time: Date.now(),
      state: this.state,
      replayId,
      outcome,
    });
  }

  /** Keeps an entry in the ring (and the queue, while connected); it is described when sent. */
  private keep(entry: HistoryEntry & { state: State }) {
    this.seq = entry.seq;
    this.state = entry.state;
    this.history.add(entry);
    this.transport.enqueue(entry);
  }

  /**
   * The state as of `seq`: the current one (no seq, or the latest), or the one just after that
   * event while the ring holds it.
   */
  private stateAt(seq: number | undefined): State | undefined {
    if (seq === undefined || seq === this.seq) return this.state;
    return this.history.at(seq)?.state;
  }

  /**
   * Where a read is answered from. While a panel is connected, a read of the current state is
   * answered as of the last event posted, whose effects the panel has: the events waiting for
   * their batch go with it (a panel asks for the rows it shows after each batch, and sending the
   * batch with every answer would post events one or two at a time). A read of a past seq is
   * posted after the events before it.
   */
  readAt(asOf: number | undefined): { seq: number; state: State | undefined } {
    if (asOf === undefined && this.transport.connected) return this.sent;
    this.flush();
    return { seq: this.seq, state: this.stateAt(asOf) };
  }

  /**
   * Posts entries as events (see PanelTransport.postEvents). Returns whether an event's effects
   * were too large to send (it went without them): the panel then needs a snapshot.
   */
  private *postEvents(entries: readonly HistoryEntry[], history = false): Generator<void, boolean> {
    const { describer } = this;
    let omitted = false;
    function* texts(): Generator<string> {
      for (const entry of entries) {
        const event = describer.describe(entry);
        const text = JSON.stringify(encodeEvent(event, EVENT_LIMITS));
        if (text.length <= MAX_EVENT_LENGTH) yield text;
        else {
          omitted = true;
          yield JSON.stringify({
            ...encodeEvent({ ...event, effects: [] }, EVENT_LIMITS),
            effectsOmitted: true,
          });
        }
      }
    }
    yield* this.transport.postEvents(texts(), history);
    return omitted;
  }

  /**
   * Posts a snapshot of the state at `seq` (see snapshotParts), a step at a time. It is the state
   * of the last event posted before it: changes made while it is sent are events that follow.
   */
  private *postSnapshot(seq: number, state: State): Generator<void> {
    const { text, lists } = yield* snapshotParts(state, (endpoint) => this.names.nameOf(endpoint));
    yield* this.transport.postSnapshot(seq, text, lists);
    this.sent = { seq, state };
  }

  /** A snapshot of the state now, posted step by step (the panel asked for one). */
  snapshot(): Generator<void> {
    return this.postSnapshot(this.seq, this.state);
  }

  /** A batch: the queued entries' events, then a snapshot if one of them needs it. */
  private *postBatch(entries: readonly HistoryEntry[]): Generator<void> {
    const { seq, state } = this;
    const omitted = yield* this.postEvents(entries);
    if (omitted || entries.some(needsSnapshot)) yield* this.postSnapshot(seq, state);
    this.sent = { seq, state };
  }

  /**
   * What a panel holding events up to `lastSeq` misses (what is pending now included): those
   * events, or a snapshot and the ring as history (its newest TIMELINE_LENGTH entries, what a
   * timeline keeps) if they left the ring.
   */
  *resync(lastSeq: number): Generator<void> {
    this.transport.dropPending();
    const { seq, state } = this;
    const entries = this.history.all();
    const oldest = this.history.oldestSeq ?? seq + 1;
    if (lastSeq > 0 && lastSeq <= seq && lastSeq >= oldest - 1) {
      const missing = entries.filter((entry) => entry.seq > lastSeq);
      const omitted = yield* this.postEvents(missing);
      // As after a live batch, events the panel cannot follow from their effects alone
      // (optimistic ones, or ones sent without their effects) need a snapshot after them.
      if (omitted || missing.some(needsSnapshot)) yield* this.postSnapshot(seq, state);
    } else {
      yield* this.postSnapshot(seq, state);
      yield* this.postEvents(entries.slice(-TIMELINE_LENGTH), true);
    }
    this.sent = { seq, state };
  }
}
