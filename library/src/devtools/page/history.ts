import type { ChangeSet } from '../../normalize/changes.js';
import type { Action } from '../../store/actions.js';
import type { State } from '../../store/state.js';
import type {
  ActionCause,
  ReplayOutcome,
  ResultLostMember,
  ResultSuspends,
} from '../protocol/effects.js';
import type { EntityLabels } from './entityLabels.js';

/** What every entry of the ring has. */
interface Stamp {
  /** The event's seq: from 1, one more for each entry, with no gaps. */
  seq: number;
  /** When it happened (ms since the epoch). */
  time: number;
  /**
   * The state components see just after it (committed data plus pending optimistic responses):
   * reads "as of" this seq are answered from it. Only the latest entries keep theirs (see
   * History): an old state costs the heap what later changes replaced in it, and the collector
   * pays for every byte kept on each of its passes.
   */
  state: State | undefined;
}

/** What an Invalidate did to a stored result: made it suspend, or took a member from it. */
export type ReaderEffect = ResultSuspends | ResultLostMember;

/**
 * A store action, as `store.observe` reported it (its change-set says what it did), with what
 * its description needs of the states around it.
 */
export interface ActionEntry extends Stamp {
  kind: 'action';
  action: Action;
  changes: ChangeSet;
  /** The panel's replay running when it happened: what a replay does carries its id. */
  replayId: string | undefined;
  /** The stored results an Invalidate touched, worked out as it happened (see Describer). */
  readers: ReaderEffect[];
  /** For a refetch of invalid or stale data: the event that made it so (see StaleSources). */
  staleSource: ActionCause['by'];
  /** The labels of the entities it added and updated, by group (see entityLabelsOf). */
  labels: readonly (EntityLabels | undefined)[];
}

/** One mutation of a panel's replay, done. */
export interface ReplayEntry extends Stamp {
  kind: 'replay';
  replayId: string;
  outcome: ReplayOutcome<unknown>;
}

export type HistoryEntry = ActionEntry | ReplayEntry;

/**
 * The bridge's ring: the last `size` entries, each with its action and change-set, kept as they
 * came (references, nothing serialized); the latest `statesKept` of them also keep their state,
 * for reads "as of" their seq (time travel). A panel that connects later is described the very
 * same entries a connected one was, so it sees exactly the effects a live panel saw.
 *
 * The array grows up to `size`, then is written round and round: `next` is then where the next
 * entry goes, over the oldest.
 */
export class History {
  private readonly entries: HistoryEntry[] = [];
  private next = 0;

  constructor(
    private readonly size: number,
    private readonly statesKept = size,
  ) {
    checkSize('ring size', size);
    checkSize('statesKept', statesKept);
  }

  add(entry: HistoryEntry): void {
    const leaving = this.at(entry.seq - this.statesKept);
    if (leaving) leaving.state = undefined;
    if (this.entries.length < this.size) {
      this.entries.push(entry);
      return;
    }
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.size;
  }

  /** The seq of the oldest entry kept (undefined while the ring is empty). */
  get oldestSeq(): number | undefined {
    return this.entries[this.next]?.seq;
  }

  /** The entry of `seq`, while the ring holds it. Seqs are consecutive: no search. */
  at(seq: number): HistoryEntry | undefined {
    const oldest = this.oldestSeq;
    if (oldest === undefined || seq < oldest || seq >= oldest + this.entries.length)
      return undefined;
    return this.entries[(this.next + seq - oldest) % this.entries.length];
  }

  /** Every entry kept, oldest first. */
  all(): HistoryEntry[] {
    return this.entries.slice(this.next).concat(this.entries.slice(0, this.next));
  }
}

function checkSize(name: string, size: number) {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`${name} must be a positive integer, not ${size}`);
}
