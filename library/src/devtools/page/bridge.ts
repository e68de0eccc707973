import { MemberList } from '../../normalize/memberList.js';
import type { FetchReason } from '../../store/cause.js';
import type { Store, StoreRecord } from '../../store/createStore.js';
import type { State } from '../../store/state.js';
import {
  type Encoded,
  type ExtensionCommand,
  MAX_MESSAGE_LENGTH,
  type PageMessageBody,
  pageMessage,
  type ReadersCommand,
  type ReplayCommand,
  type ResultsCommand,
  type RowsCommand,
  type StoredResult,
  TIMELINE_LENGTH,
} from '../protocol/messages.js';
import { inspectorCommandRefusal, isExtensionCommand } from '../protocol/validate.js';
import { Describer, type EventLimits, encodeEvent, needsSnapshot } from './describe.js';
import { encode } from './encode.js';
import { EndpointNames } from './endpointNames.js';
import { EntityEditor } from './entityEdit.js';
import { entityLabelsOf } from './entityLabels.js';
import { History, type HistoryEntry } from './history.js';
import { replayMutations } from './replay.js';
import { ResultCommands } from './resultCommands.js';
import { searchEntities } from './search.js';
import { SlicedWork } from './slices.js';
import { chunksOf, listParts, RELAY_MESSAGE_LENGTH, snapshotParts } from './snapshot.js';
import { StaleSources } from './staleSources.js';
import { LIBRARY_VERSION } from './version.js';

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
/** Room for the envelope of an events message around its JSON text. */
const ENVELOPE_LENGTH = 1024;
/** One `rows` (or `results`) answer stays this far below the largest message, whatever it holds. */
const READ_LENGTH = 6 * 1024 * 1024;
/** Keep each events message around this size (JSON length); see RELAY_MESSAGE_LENGTH. */
const BATCH_LENGTH = RELAY_MESSAGE_LENGTH;

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

/** A window with the constructor of its realm's message channels (every browser window has one). */
type PageWindow = Window & Pick<typeof globalThis, 'MessageChannel'>;

/** The two ends of a new channel made by `target`'s realm; throws, saying so, when it has none. */
function channelOf(target: Window): MessageChannel {
  const { MessageChannel: Channel } = target as PageWindow;
  if (typeof Channel !== 'function')
    throw new TypeError('RestLens devtools: the window has no MessageChannel to talk to the panel');
  return new Channel();
}

/**
 * Connects a store to the RestLens panel. It greets the content script with a window message
 * (`hello`) that carries one end of a MessageChannel, and posts everything after on the other
 * end, which it alone holds: a script of the page can post window messages that look like the
 * store's, not messages on its port. The panel's commands come as window messages. Until a panel
 * connects it only keeps a ring of recent changes (see History; nothing is serialized); while
 * connected it sends events in batches, answers resync requests with the missing events or a snapshot, answers
 * reads of rows and results (now, or as of a seq in the ring), and runs the panel's commands
 * (invalidate, expire all, reset, replay).
 *
 * A resync's answer (a snapshot, the ring's history) can be seconds of work in a large store: it
 * is made and posted in slices (SlicedWork). Meanwhile live events wait in the queue and reads
 * wait their turn, so that the panel still gets everything in seq order.
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

class DevtoolsBridge implements DevtoolsConnection {
  readonly storeId = newStoreId();
  /**
   * The store's end of the channel it greeted the content script with: every message after
   * that first `hello` goes on it (see post).
   */
  private readonly port: MessagePort;
  private readonly storeName: string;
  private readonly batchInterval: number;
  private readonly sliceMs: number;
  private readonly history: History;
  private readonly describer: Describer;
  /** The names the store's endpoints are recorded and replayed by. */
  private readonly names: EndpointNames;
  /** Made when the panel first sends such a command: most stores never see one. */
  private madeResultCommands: ResultCommands | undefined = undefined;
  private madeEditor: EntityEditor | undefined = undefined;
  /** The state components see now: the last change's, or the store's when the bridge started. */
  private state: State;
  private seq = 0;
  /** The last event (or snapshot) posted to the panel, and the state just after it. */
  private sent: { seq: number; state: State };
  private connected = false;
  private queue: HistoryEntry[] = [];
  private snapshotDue = false;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** When the last batch of events started to be sent (see batchInterval). */
  private lastBatchAt = 0;
  /** A resync answer or a snapshot being sent, in slices. */
  private work: SlicedWork | undefined = undefined;
  /** Reads and snapshot commands that came while `work` runs: run once it is done. */
  private waiting: ExtensionCommand[] = [];
  /** Replays running now, oldest first: what the store does meanwhile is tagged with the first. */
  private readonly replaying: string[] = [];
  private readonly staleSources = new StaleSources();
  private readonly traceAlways: boolean;
  private readonly unobserve: () => void;
  private readonly unlistenReaders: () => void;
  /** Set while the page's readers changed and the panel has not been told (see readersChanged). */
  private readersDue: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(
    private readonly store: Store,
    private readonly target: Window,
    options: DevtoolsOptions,
  ) {
    const ringSize = options.ringSize ?? DEFAULT_RING_SIZE;
    this.history = new History(
      ringSize,
      options.statesKept ?? Math.min(DEFAULT_STATES_KEPT, ringSize),
    );
    this.batchInterval = options.batchInterval ?? 50;
    this.sliceMs = options.sliceMs ?? 10;
    this.storeName = options.name ?? (this.target.document?.title || 'RestLens store');
    this.traceAlways = options.traceAlways ?? false;
    this.setTracing(this.traceAlways);
    this.names = new EndpointNames(store.controller);
    this.describer = new Describer(store.controller, (endpoint) => this.names.nameOf(endpoint));
    this.state = store.getState();
    this.sent = { seq: 0, state: this.state };
    this.unobserve = store.observe(this.observe);
    this.unlistenReaders = listenToReaders(store, this.readersChanged);
    this.target.addEventListener('message', this.onMessage);
    const { port1, port2 } = channelOf(this.target);
    this.port = port1;
    this.greet(port2);
  }

  private get resultCommands(): ResultCommands {
    this.madeResultCommands ??= new ResultCommands(this.store.controller, (key) =>
      this.describer.callOf(key),
    );
    return this.madeResultCommands;
  }

  private get editor(): EntityEditor {
    this.madeEditor ??= new EntityEditor(this.store.controller, (type) =>
      this.describer.entityClass(type),
    );
    return this.madeEditor;
  }

  /**
   * Sends now, in this task, what is being sent in slices and the events waiting for the next
   * batch (a field: callers may pass it around).
   */
  readonly flush = (): void => {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (;;) {
      if (this.work !== undefined) this.work.finish();
      else if (this.queue.length > 0 || this.snapshotDue) this.sendPending();
      else return;
    }
  };

  /** The batch timer fired: the batch goes, unless an answer being sent takes it along after. */
  private readonly batchDue = (): void => {
    this.timer = undefined;
    if (this.work === undefined) this.sendPending();
  };

  /**
   * A component mounted or unmounted: a connected panel is told once the burst is over (a
   * render mounts many), without waiting for its next ask, so a reader that an error boundary
   * or a Suspense fallback took away does not linger in it.
   */
  private readonly readersChanged = (): void => {
    if (!this.connected || this.readersDue !== undefined) return;
    this.readersDue = setTimeout(() => {
      this.readersDue = undefined;
      if (this.connected && this.work === undefined) this.sendReaders({});
    }, 0);
  };

  readonly disconnect = (): void => {
    const { causes } = this.store.controller;
    if (causes) causes.tracing = false;
    this.unobserve();
    this.unlistenReaders();
    this.target.removeEventListener('message', this.onMessage);
    this.stopSending();
    this.port.close();
  };

  private readonly onMessage = (event: MessageEvent) => {
    // Only our own window's messages, with our tag, version and a valid shape; never code.
    if (event.source !== this.target) return;
    if (!isExtensionCommand(event.data)) {
      this.refuse(event.data);
      return;
    }
    const command = event.data;
    if ('storeId' in command && command.storeId !== undefined && command.storeId !== this.storeId)
      return;
    this.run(command);
  };

  /** Tells the panel what was wrong with an inspector command for this store (others: dropped). */
  private refuse(data: unknown) {
    const refusal = inspectorCommandRefusal(data);
    if (refusal?.storeId === this.storeId) this.answer(refusal.kind, refusal.problem);
  }

  /** Tells the panel a command failed, when it did (`problem` says why). */
  private answer(command: string, problem: string | undefined) {
    if (problem === undefined) return;
    // Within what the validators accept of a text the panel shows.
    const error = problem.slice(0, 1000);
    this.post({ kind: 'command-error', storeId: this.storeId, command, error });
  }

  /**
   * Posts on the store's end of its channel, which no other script holds: what arrives on the
   * content script's end comes from this bridge.
   */
  private post(message: PageMessageBody) {
    this.port.postMessage(pageMessage(message));
  }

  /**
   * The store's greeting, the one message it posts on the window: it hands the content script
   * (listening since the document started) the end of the channel the store talks on.
   */
  private greet(contentEnd: MessagePort) {
    this.target.postMessage(pageMessage(this.hello()), '*', [contentEnd]);
  }

  /** Announces the store: on its own at start (greet), and `answering` a panel's connect. */
  private hello(answering?: true): PageMessageBody {
    return {
      kind: 'hello',
      storeId: this.storeId,
      storeName: this.storeName,
      libraryVersion: LIBRARY_VERSION,
      seq: this.seq,
      ...(answering ? { answering } : {}),
    };
  }

  private readonly observe = ({ action, changes, view }: StoreRecord): void => {
    const ran = action.type === 'fetch' || action.type === 'setResponse';
    this.describer.note(action, changes);
    const seq = this.seq + 1;
    const readers = this.describer.readerEffects(changes, view);
    const staleSource = this.staleSources.sourceOf(action);
    this.staleSources.note(
      seq,
      () => (ran ? this.names.nameOf(action.endpoint) : action.type),
      changes,
      readers,
    );
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

  /** Whether the store's actions record the app's call sites (see CallCauses). */
  private setTracing(on: boolean) {
    const { causes } = this.store.controller;
    if (causes) causes.tracing = on || this.traceAlways;
  }

  /** Runs a command of the panel on the store, its actions saying they are the panel's. */
  private asPanel<T>(reason: FetchReason, command: () => T): T {
    const { causes } = this.store.controller;
    return causes ? causes.run(reason, undefined, command) : command();
  }

  /**
   * Who reads each result now, by component (and who shows the entity row asked for), what is
   * forced, in flight and polled. Said of the store now, so the events up to now go first: a
   * panel never reads a count or a forced state ahead of the change that made it (a forced error
   * before the error itself).
   */
  private sendReaders({ row }: Pick<ReadersCommand, 'row'>) {
    const { controller, readerDirectory } = this.store;
    this.flush();
    const names = readerDirectory?.namesByKey() ?? new Map<string, string[]>();
    const readers: Record<string, number> = Object.create(null);
    for (const [key, components] of names) readers[key] = components.length;
    this.post({
      kind: 'readers',
      storeId: this.storeId,
      readers,
      names: Object.fromEntries(names),
      ...(row === undefined
        ? {}
        : { rowReaders: { ...row, names: readerDirectory?.namesOfRow(row.table, row.pk) ?? [] } }),
      forced: this.resultCommands.forcedStates(),
      fetching: controller.fetching(),
      polling: Object.fromEntries(controller.polling()),
    });
  }

  /** Keeps an entry in the ring (and the queue, while connected); it is described when sent. */
  private keep(entry: HistoryEntry & { state: State }) {
    this.seq = entry.seq;
    this.state = entry.state;
    this.history.add(entry);
    if (!this.connected) return;
    this.queue.push(entry);
    if (needsSnapshot(entry)) this.snapshotDue = true;
    this.timer ??= setTimeout(
      this.batchDue,
      Math.max(0, this.lastBatchAt + this.batchInterval - Date.now()),
    );
  }

  /**
   * Posts entries as events, in JSON text messages of about BATCH_LENGTH, yielding after each
   * one (see SlicedWork). Returns whether an event's effects were too large to send (it went
   * without them): the panel then needs a snapshot.
   */
  private *postEvents(entries: readonly HistoryEntry[], history = false): Generator<void, boolean> {
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
    for (const entry of entries) {
      const event = this.describer.describe(entry);
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
      yield;
    }
    if (texts.length > 0) send();
    return omitted;
  }

  /**
   * Posts a snapshot of the state at `seq` (see snapshotParts), a step at a time: its text, then
   * the lists it counted. It is the state of the last event posted before it: changes made while
   * it is sent are events that follow.
   */
  private *postSnapshot(seq: number, state: State): Generator<void> {
    const { storeId } = this;
    const { text, lists } = yield* snapshotParts(state, (endpoint) => this.names.nameOf(endpoint));
    const chunks = chunksOf(text);
    for (const [index, data] of chunks.entries()) {
      this.post({ kind: 'snapshot', storeId, seq, index, count: chunks.length, data });
      yield;
    }
    for (const { table, row, pks } of lists)
      for (const data of listParts(pks)) {
        this.post({
          kind: 'members',
          storeId,
          seq,
          table,
          ...(row === undefined ? {} : { row }),
          data,
        });
        yield;
      }
    this.sent = { seq, state };
  }

  /**
   * Sends in slices, in place of what was being sent so; the events queued meanwhile, then the
   * commands that waited, follow it.
   */
  private sendSliced(steps: Generator<void>) {
    this.work?.cancel();
    this.work = new SlicedWork(steps, this.sliceMs, () => {
      this.work = undefined;
      this.sendPending();
      for (const command of this.waiting.splice(0)) this.run(command);
    });
    this.work.start();
  }

  /** The batch timer fired, or sending cannot wait (`flush`). */
  private sendPending() {
    if (this.queue.length > 0 || this.snapshotDue) this.sendSliced(this.postPending());
  }

  /** The queued events, then the snapshot they made due. */
  private *postPending(): Generator<void> {
    const { seq, state, queue } = this;
    this.lastBatchAt = Date.now();
    let snapshotDue = this.snapshotDue;
    this.queue = [];
    this.snapshotDue = false;
    if (yield* this.postEvents(queue)) snapshotDue = true;
    if (snapshotDue) yield* this.postSnapshot(seq, state);
    this.sent = { seq, state };
  }

  /** Drops the pending batch and a due snapshot, unsent. */
  private dropPending() {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.snapshotDue = false;
  }

  /**
   * After a disconnect nothing more is posted: not the pending batch, not a due snapshot, not
   * the rest of a resync answer, and not events recorded later (e.g. by a replay still running).
   */
  private stopSending() {
    this.connected = false;
    clearTimeout(this.readersDue);
    this.readersDue = undefined;
    this.dropPending();
    this.work?.cancel();
    this.work = undefined;
    this.waiting = [];
  }

  /**
   * What a panel holding events up to `lastSeq` misses (what is pending now included): those
   * events, or a snapshot and the ring as history (its newest TIMELINE_LENGTH entries, what a
   * timeline keeps) if they left the ring.
   */
  private *resync(lastSeq: number): Generator<void> {
    this.dropPending();
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
  private readAt(asOf: number | undefined): { seq: number; state: State | undefined } {
    if (asOf === undefined && this.connected) return this.sent;
    this.flush();
    return { seq: this.seq, state: this.stateAt(asOf) };
  }

  /** The rows a panel asked for (see readAt). */
  private sendRows(command: RowsCommand) {
    const { table, pks, asOf } = command;
    const { seq, state } = this.readAt(asOf);
    const read = { storeId: this.storeId, seq, table, ...asOfField(asOf) };
    if (state === undefined) {
      this.post({ kind: 'rows', ...read, leftRing: true, rows: {} });
      return;
    }
    const rows = state.entities.get(table);
    const limits = limitsPerItem(pks.length);
    const answer: Record<string, Encoded> = Object.create(null);
    for (const pk of pks) {
      const row = rows?.get(pk);
      answer[pk] = row === undefined ? null : encode(plainRow(row), limits);
    }
    this.post({ kind: 'rows', ...read, rows: answer });
  }

  /** The stored results a panel asked for (normalized, with their meta); see readAt. */
  private sendResults(command: ResultsCommand) {
    const { keys, asOf } = command;
    const { seq, state } = this.readAt(asOf);
    const read = { storeId: this.storeId, seq, ...asOfField(asOf) };
    if (state === undefined) {
      this.post({ kind: 'results', ...read, leftRing: true, results: {} });
      return;
    }
    // Each result comes with its meta: two values an item.
    const limits = limitsPerItem(2 * keys.length);
    const results: Record<string, StoredResult | null> = Object.create(null);
    for (const key of keys) {
      const result = state.endpoints.get(key);
      const meta = state.meta.get(key);
      results[key] =
        result === undefined && meta === undefined
          ? null
          : { result: encode(result, limits), meta: encode(meta, limits) };
    }
    this.post({ kind: 'results', ...read, results });
  }

  private async replay(command: ReplayCommand) {
    const { replayId } = command;
    this.replaying.push(replayId);
    try {
      await replayMutations(this.store.controller, command.mutations, command.mode, {
        onOutcome: (outcome) =>
          this.keep({
            kind: 'replay',
            seq: this.seq + 1,
            time: Date.now(),
            state: this.state,
            replayId,
            outcome,
          }),
      });
    } finally {
      this.replaying.splice(this.replaying.indexOf(replayId), 1);
    }
  }

  private run(command: ExtensionCommand) {
    const { controller } = this.store;
    // A read is answered at the latest seq, once every event up to it was posted: while a
    // resync answer is being sent, it waits (and so does a snapshot asked for meanwhile).
    const waits =
      command.kind === 'rows' ||
      command.kind === 'results' ||
      command.kind === 'snapshot' ||
      command.kind === 'readers';
    if (waits && this.work !== undefined) {
      this.waiting.push(command);
      return;
    }
    switch (command.kind) {
      case 'connect':
        this.connected = true;
        this.setTracing(true);
        this.post(this.hello(true));
        this.sendSliced(this.resync(command.lastSeq));
        return;
      case 'disconnect':
        this.setTracing(false);
        this.stopSending();
        return;
      case 'snapshot':
        this.sendSliced(this.postSnapshot(this.seq, this.state));
        return;
      case 'rows':
        this.sendRows(command);
        return;
      case 'results':
        this.sendResults(command);
        return;
      case 'invalidate':
        this.answer(
          command.kind,
          this.asPanel(panelCommand(command.kind), () =>
            this.resultCommands.invalidate(command.key),
          ),
        );
        return;
      case 'refetch':
      case 'expire':
      case 'force-loading':
      case 'force-error':
        this.answer(
          command.kind,
          this.asPanel(panelCommand(command.kind), () => this.resultCommands.run(command)),
        );
        return;
      case 'edit':
        void this.asPanel(panelCommand(command.kind), () => this.editor.edit(command)).then(
          (problem) => this.answer(command.kind, problem),
        );
        return;
      case 'readers':
        this.sendReaders(command);
        return;
      case 'search':
        // The events before the current state go first: the matches link to entities they add.
        this.flush();
        this.post({
          kind: 'search',
          storeId: this.storeId,
          seq: this.seq,
          text: command.text,
          ...searchEntities(this.state, command.text),
        });
        return;
      case 'expireAll':
        this.asPanel(panelCommand(command.kind), () => controller.expireAll(() => true));
        return;
      case 'reset':
        this.asPanel(panelCommand(command.kind), () => controller.resetEntireStore());
        return;
      case 'replay':
        void this.replay(command);
        return;
    }
  }
}

const asOfField = (asOf: number | undefined) => (asOf === undefined ? {} : { asOf });

const panelCommand = (command: string): FetchReason => ({ kind: 'devtools', command });

/** The limits of each of `count` values in one read's answer: together within READ_LENGTH. */
const limitsPerItem = (count: number) => ({
  maxSize: Math.floor(READ_LENGTH / Math.max(1, count)),
});

/** A stored row as JSON sees it: a collection row is the list of its members' pks. */
function plainRow(row: unknown): unknown {
  return row instanceof MemberList ? row.toArray() : row;
}

/** Calls `listener` when a component starts or stops reading the store; returns how to stop. */
function listenToReaders(store: Store, listener: () => void): () => void {
  store.readerListeners ??= new Set();
  const listeners = store.readerListeners;
  listeners.add(listener);
  return () => listeners.delete(listener);
}
