import type { FetchReason } from '../../store/cause.js';
import type { Store } from '../../store/createStore.js';
import type { State } from '../../store/state.js';
import type { ReplayOutcome } from '../protocol/effects.js';
import type {
  ExtensionCommand,
  ReadersCommand,
  ReplayCommand,
  ResultsCommand,
  RowsCommand,
  SearchCommand,
} from '../protocol/messages.js';
import type { Describer } from './describe.js';
import { EntityEditor } from './entityEdit.js';
import type { HistoryEntry } from './history.js';
import { resultsIn, rowsIn } from './reads.js';
import { replayMutations } from './replay.js';
import { ResultCommands } from './resultCommands.js';
import { searchEntities } from './search.js';
import type { PanelTransport } from './transport.js';

/** What the agent reads, resyncs and replays through: the store's changes the bridge keeps. */
export interface StoreFeed {
  /** The seq of the latest change, and the state components see now. */
  readonly seq: number;
  readonly state: State;
  /** Replays running now, oldest first: what the store does meanwhile is tagged with the first. */
  readonly replaying: string[];
  /** The seq and the state a read as of `asOf` (now, when undefined) is answered with. */
  readAt(asOf: number | undefined): { seq: number; state: State | undefined };
  /** What a panel holding events up to `lastSeq` misses, posted step by step. */
  resync(lastSeq: number): Generator<void>;
  /** A snapshot of the state now, posted step by step. */
  snapshot(): Generator<void>;
  /** Keeps what a replayed mutation did, as the ring's next entry. */
  keepReplayed(replayId: string, outcome: ReplayOutcome<unknown>): void;
}

/**
 * Answers the panel's commands for one store: connects and disconnects it (with the transport),
 * reads rows, results, readers and matches (now, or as of a seq in the ring), runs the
 * inspector's commands on the store, its actions saying they are the panel's (invalidate,
 * refetch, expire, force, edit, expire all, reset), and replays recorded mutations.
 */
export class PanelAgent {
  /** Made when the panel first sends such a command: most stores never see one. */
  private madeResultCommands: ResultCommands | undefined = undefined;
  private madeEditor: EntityEditor | undefined = undefined;
  /** Set while the page's readers changed and the panel has not been told (see readersChanged). */
  private readersDue: ReturnType<typeof setTimeout> | undefined = undefined;
  private readonly unlistenReaders: () => void;

  constructor(
    private readonly store: Store,
    private readonly transport: PanelTransport<HistoryEntry>,
    private readonly feed: StoreFeed,
    private readonly describer: Describer,
    /** Whether the store's actions record the app's call sites while no panel is connected. */
    private readonly traceAlways: boolean,
  ) {
    this.setTracing(false);
    this.unlistenReaders = listenToReaders(store, this.readersChanged);
  }

  /** Stops listening to the store's readers and recording call sites (the connection ends). */
  stop(): void {
    const { causes } = this.store.controller;
    if (causes) causes.tracing = false;
    this.unlistenReaders();
    this.forgetReaders();
  }

  run(command: ExtensionCommand): void {
    const { controller } = this.store;
    switch (command.kind) {
      case 'connect':
        this.setTracing(true);
        this.transport.connect(this.feed.seq, this.feed.resync(command.lastSeq));
        return;
      case 'disconnect':
        this.setTracing(false);
        this.forgetReaders();
        this.transport.stopSending();
        return;
      case 'snapshot':
        this.transport.send(this.feed.snapshot());
        return;
      case 'rows':
        this.sendRows(command);
        return;
      case 'results':
        this.sendResults(command);
        return;
      case 'readers':
        this.sendReaders(command);
        return;
      case 'search':
        this.sendMatches(command);
        return;
      case 'invalidate':
        this.answer(command.kind, () => this.resultCommands.invalidate(command.key));
        return;
      case 'refetch':
      case 'expire':
      case 'force-loading':
      case 'force-error':
        this.answer(command.kind, () => this.resultCommands.run(command));
        return;
      case 'edit':
        void this.asPanel(command.kind, () => this.editor.edit(command)).then((problem) =>
          this.transport.answer(command.kind, problem),
        );
        return;
      case 'expireAll':
        this.asPanel(command.kind, () => controller.expireAll(() => true));
        return;
      case 'reset':
        this.asPanel(command.kind, () => controller.resetEntireStore());
        return;
      case 'replay':
        void this.replay(command);
        return;
    }
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

  /** Runs a command of the panel on the store, its actions saying they are the panel's. */
  private asPanel<T>(command: string, run: () => T): T {
    const { causes } = this.store.controller;
    const reason: FetchReason = { kind: 'devtools', command };
    return causes ? causes.run(reason, undefined, run) : run();
  }

  /** Runs a command of the panel, and tells the panel when it failed (PanelTransport.answer). */
  private answer(command: string, run: () => string | undefined) {
    this.transport.answer(command, this.asPanel(command, run));
  }

  /** Whether the store's actions record the app's call sites (see CallCauses). */
  private setTracing(on: boolean) {
    const { causes } = this.store.controller;
    if (causes) causes.tracing = on || this.traceAlways;
  }

  /** After a disconnect the panel is not told of the readers' changes either. */
  private forgetReaders() {
    clearTimeout(this.readersDue);
    this.readersDue = undefined;
  }

  /**
   * A component mounted or unmounted: a connected panel is told once the burst is over (a
   * render mounts many), without waiting for its next ask, so a reader that an error boundary
   * or a Suspense fallback took away does not linger in it.
   */
  private readonly readersChanged = (): void => {
    if (!this.transport.connected || this.readersDue !== undefined) return;
    this.readersDue = setTimeout(() => {
      this.readersDue = undefined;
      if (this.transport.connected && !this.transport.busy) this.sendReaders({});
    }, 0);
  };

  /**
   * Who reads each result now, by component (and who shows the entity row asked for), what is
   * forced, in flight and polled. Said of the store now, so the events up to now go first: a
   * panel never reads a count or a forced state ahead of the change that made it (a forced error
   * before the error itself).
   */
  private sendReaders({ row }: Pick<ReadersCommand, 'row'>) {
    const { controller, readerDirectory } = this.store;
    this.transport.flush();
    const names = readerDirectory?.namesByKey() ?? new Map<string, string[]>();
    const readers: Record<string, number> = Object.create(null);
    for (const [key, components] of names) readers[key] = components.length;
    this.transport.post({
      kind: 'readers',
      storeId: this.transport.storeId,
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

  /** The rows a panel asked for (see StoreFeed.readAt). */
  private sendRows({ table, pks, asOf }: RowsCommand) {
    const { seq, state } = this.feed.readAt(asOf);
    const read = { storeId: this.transport.storeId, seq, table, ...asOfField(asOf) };
    this.transport.post(
      state === undefined
        ? { kind: 'rows', ...read, leftRing: true, rows: {} }
        : { kind: 'rows', ...read, rows: rowsIn(state, table, pks) },
    );
  }

  /** The stored results a panel asked for (normalized, with their meta); see StoreFeed.readAt. */
  private sendResults({ keys, asOf }: ResultsCommand) {
    const { seq, state } = this.feed.readAt(asOf);
    const read = { storeId: this.transport.storeId, seq, ...asOfField(asOf) };
    this.transport.post(
      state === undefined
        ? { kind: 'results', ...read, leftRing: true, results: {} }
        : { kind: 'results', ...read, results: resultsIn(state, keys) },
    );
  }

  /** The entities matching a panel's search, in the state now. */
  private sendMatches({ text }: SearchCommand) {
    // The events before the current state go first: the matches link to entities they add.
    this.transport.flush();
    const { seq, state } = this.feed;
    const matches = searchEntities(state, text);
    this.transport.post({ kind: 'search', storeId: this.transport.storeId, seq, text, ...matches });
  }

  private async replay(command: ReplayCommand) {
    const { replayId } = command;
    const { replaying } = this.feed;
    replaying.push(replayId);
    try {
      await replayMutations(this.store.controller, command.mutations, command.mode, {
        onOutcome: (outcome) => this.feed.keepReplayed(replayId, outcome),
      });
    } finally {
      replaying.splice(replaying.indexOf(replayId), 1);
    }
  }
}

const asOfField = (asOf: number | undefined) => (asOf === undefined ? {} : { asOf });

/** Calls `listener` when a component starts or stops reading the store; returns how to stop. */
function listenToReaders(store: Store, listener: () => void): () => void {
  store.readerListeners ??= new Set();
  const listeners = store.readerListeners;
  listeners.add(listener);
  return () => listeners.delete(listener);
}
