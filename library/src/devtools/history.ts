import type { EndpointInterface } from '../endpoint/types.js';
import type { Trace } from '../normalize/trace.js';
import type { Action, SetResponseAction } from '../store/actions.js';
import { retrace, type StoreRecord, type TracedRecord } from '../store/createStore.js';
import type { State } from '../store/state.js';
import { fromEpoch, NotedChange, Stamped, sinceEpoch } from './events.js';
import { Ring } from './ring.js';

/** A change kept while no panel is connected, to be noted when one connects. */
type UntracedChange = UntracedResponse | UntracedAction;

/** How UntracedResponse keeps its call's args (the low bits of its `shape`). */
const Args = {
  None: 0,
  /** `first`. */
  One: 1,
  /** `first` and `second`. */
  Two: 2,
  /** `second` is the list. */
  List: 3,
  Mask: 3,
} as const;
/** The response is an error (a bit of `shape`). */
const FAILED = 4;

/**
 * A response kept while no panel is connected: the parts of its action, in one object. Most
 * changes are responses, and each object kept is one more for the collector to move and mark
 * for each of the ring's changes: the action would be four (its three timestamps are boxed
 * numbers) and a call's list of args two, so the times are kept as small integers, up to two
 * args in fields, and the key is made again.
 */
class UntracedResponse extends Stamped {
  private readonly endpoint: EndpointInterface;
  private readonly first: unknown;
  private readonly second: unknown;
  private readonly response: unknown;
  /** How the args are kept (Args), and FAILED. */
  private readonly shape: number;
  /** The action's times (see sinceEpoch). */
  private readonly fetchedAt: number;
  private readonly date: number;
  private readonly expiresAt: number;

  constructor(action: SetResponseAction) {
    super();
    const { args } = action;
    this.endpoint = action.endpoint;
    const kept = args.length <= 2 ? args.length : Args.List;
    this.first = kept === Args.List ? undefined : args[0];
    this.second = kept === Args.List ? args : args[1];
    this.response = action.response;
    this.shape = kept | (action.error ? FAILED : 0);
    this.fetchedAt = sinceEpoch(action.fetchedAt);
    this.date = sinceEpoch(action.date);
    this.expiresAt = sinceEpoch(action.expiresAt);
  }

  /** Never kept: a response's trace is the reducer's, made again. */
  get trace(): undefined {
    return undefined;
  }

  private get args(): readonly unknown[] {
    switch (this.shape & Args.Mask) {
      case Args.None:
        return [];
      case Args.One:
        return [this.first];
      case Args.Two:
        return [this.first, this.second];
      default:
        return this.second as readonly unknown[];
    }
  }

  private get error(): boolean {
    return (this.shape & FAILED) !== 0;
  }

  /** What is known of it without the endpoint's code (see NotedChange.withUnknownEffects). */
  withUnknownEffects(): NotedChange {
    const { endpoint, args } = this;
    const change = NotedChange.withUnknownEffects('setResponse').called({ endpoint, args });
    change.value = this.response;
    change.failed = this.error;
    return change;
  }

  get action(): SetResponseAction {
    const { endpoint, args } = this;
    return {
      type: 'setResponse',
      endpoint,
      args,
      key: endpoint.key(...args),
      fetchedAt: fromEpoch(this.fetchedAt),
      date: fromEpoch(this.date),
      expiresAt: fromEpoch(this.expiresAt),
      response: this.response,
      error: this.error,
    };
  }
}

/**
 * Any other change kept while no panel is connected: its action as it is (and an optimistic
 * fetch's trace, which the reducer cannot make again).
 */
class UntracedAction extends Stamped {
  constructor(
    readonly action: Exclude<Action, SetResponseAction>,
    readonly trace: Trace | undefined,
  ) {
    super();
  }

  /** What is known of it (see NotedChange.withUnknownEffects). */
  withUnknownEffects(): NotedChange {
    const { action } = this;
    const change = NotedChange.withUnknownEffects(action.type);
    if (action.type === 'fetch') change.called(action);
    if (action.type === 'invalidate') change.key = action.key;
    return change;
  }
}

/** Untraced changes in order, from the committed state before the first. */
interface UntracedRun {
  base: State;
  changes: UntracedChange[];
}

/**
 * The bridge's recent changes, for a panel that connects later: a ring of the last `size`.
 *
 * While a panel is connected, changes come noted, from the store's trace. While none is, the
 * store traces nothing for the bridge (tracing every response cost the app a few percent, for
 * a panel that may never open): each change keeps its action, in runs that start from a kept
 * state, and a panel connecting has every untraced change the ring holds noted from its run's
 * actions run through the reducer again (see retrace). A run holds up to `size` changes, so
 * at most two are kept: the current one and the one before, whose later changes the ring may
 * still hold. Their states are the cost: a run's base keeps the tables of its time alive.
 */
export class History {
  private readonly ring: Ring<NotedChange | UntracedChange>;
  private readonly runs: UntracedRun[] = [];

  constructor(private readonly size: number) {
    this.ring = new Ring(size);
  }

  private get oldestSeq(): number | undefined {
    return this.ring.oldest?.seq;
  }

  keep(change: NotedChange): void {
    this.ring.push(change);
  }

  /**
   * Keeps a change that came without its trace, stamped with `stamp`. The first change of a run
   * gives it its base: the committed state before that change.
   */
  keepUntraced(record: StoreRecord, stamp: (entry: Stamped) => void): void {
    const { action } = record;
    const change =
      action.type === 'setResponse'
        ? new UntracedResponse(action)
        : new UntracedAction(action, record.trace);
    stamp(change);
    let run = this.runs.at(-1);
    if (run === undefined || run.changes.length >= this.size) {
      this.dropRunsThatLeftTheRing();
      run = { base: record.before, changes: [] };
      this.runs.push(run);
    }
    run.changes.push(change);
    this.ring.push(change);
  }

  /** Every change the ring holds, oldest first, the untraced ones noted with `note` now. */
  noted(note: (record: TracedRecord) => NotedChange): NotedChange[] {
    const oldest = this.oldestSeq ?? 0;
    const notes = new Map<UntracedChange, NotedChange>();
    for (const { base, changes } of this.runs) {
      let done = 0;
      try {
        // Changes that left the ring are run again all the same: the later ones start from them.
        for (const record of retrace(base, changes)) {
          const change = changes[done] as UntracedChange;
          if (change.seq >= oldest) notes.set(change, note(record).stampedAs(change));
          done++;
        }
      } catch {
        // The schemas' or endpoints' own code threw the second time: what follows in the run
        // cannot be worked out, and the panel gets a snapshot after it.
        for (const change of changes.slice(done))
          if (change.seq >= oldest)
            notes.set(change, change.withUnknownEffects().stampedAs(change));
      }
    }
    this.runs.length = 0;
    this.ring.replaceEach((entry) =>
      entry instanceof NotedChange ? entry : (notes.get(entry) ?? entry),
    );
    return this.ring.toArray().filter((entry) => entry instanceof NotedChange);
  }

  /** Runs none of whose changes the ring still holds are not needed again. */
  private dropRunsThatLeftTheRing(): void {
    const oldest = this.oldestSeq ?? 0;
    while ((this.runs[0]?.changes.at(-1)?.seq ?? Number.POSITIVE_INFINITY) < oldest)
      this.runs.shift();
  }
}
