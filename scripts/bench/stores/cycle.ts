/**
 * Writes into one long-lived store (see suite.ts for why): one kind of write, target after
 * target, undone between samples so that every sample meets the seeded lists; and the checks
 * that every side reads what the fixture says after one write, and still holds the seeded lists
 * after the samples.
 */
import type { TodoData } from '../data.js';
import type { Side } from '../sampler.js';
import { firstDifference } from '../verify.js';
import { startAtRandomPointOfYoungGeneration } from '../youngGeneration.js';
import { flipped, type StoreFixture, type UserList, WRITE_TARGETS } from './fixture.js';
import type { AppStore, ListView } from './libraries.js';

export const WRITES = ['push', 'partialUpdate', 'delete'] as const;
export type StoreWrite = (typeof WRITES)[number];

/**
 * One kind of write into one side's store, target after target; between samples (untimed) the
 * store is given back its seeded lists: the lists pushed into are fetched again, each deleted
 * todo restored (AppStore.restoreDeleted), each updated todo answered again as seeded.
 */
export class WriteCycle {
  /** Each target's update responses: `completed` flipped, and as seeded. */
  private readonly updates: { flipped: TodoData; seeded: TodoData }[];
  /** The list each target is in. */
  private readonly listOf: UserList[];
  /** The targets the last sample wrote, not undone yet, and the one the next sample starts at. */
  private written: number[] = [];
  private next = 0;

  constructor(
    /** The library's name, for the checks' messages. */
    readonly name: string,
    readonly write: StoreWrite,
    readonly fixture: StoreFixture,
    readonly store: AppStore,
  ) {
    this.updates = fixture.targets.map((todo) => ({
      flipped: flipped(todo),
      seeded: copied(todo),
    }));
    const lists = new Map(fixture.lists.map((list) => [list.userId, list]));
    this.listOf = fixture.targets.map(({ userId }) => lists.get(userId) as UserList);
  }

  /** The write on target `k`. */
  writeTarget(k: number): void {
    const { store, fixture } = this;
    if (this.write === 'push') store.push(at(fixture.pushes, k));
    else if (this.write === 'delete') store.delete(at(fixture.targets, k));
    else store.partialUpdate(at(this.updates, k).flipped);
  }

  /** Gives the store back what the writes on `targets` changed. */
  undo(targets: readonly number[]): void {
    const { store } = this;
    if (this.write === 'push') {
      for (const k of targets) store.undoPush(at(this.fixture.pushes, k), at(this.listOf, k));
    } else if (this.write === 'delete') {
      for (const k of targets)
        store.restoreDeleted(at(this.fixture.targets, k), at(this.listOf, k));
    } else {
      for (const k of targets) store.partialUpdate(at(this.updates, k).seeded);
    }
  }

  /** Undoes what the last sample wrote. */
  undoWritten(): void {
    this.undo(this.written.splice(0));
  }

  /**
   * The sampler's side: each sample first undoes the one before (untimed), then writes the next
   * `batch` targets, each into the state the one before left.
   */
  side(): Side {
    return {
      maxBatch: WRITE_TARGETS,
      prepare: (batch) => {
        this.undoWritten();
        // The undo's garbage is the bench's, not the writes': left in the young generation, it
        // was scavenged inside the timed writes (fetching a list again makes far more than a
        // push) and doubled the spread of fast writes. A minor collection does not shrink the
        // young generation as a full `gc()` does (see sampler.ts); the random fill after it
        // makes each side pay for the scavenges its own writes cause (see youngGeneration.ts).
        startAtRandomPointOfYoungGeneration();
        const targets = Array.from({ length: batch }, (_, i) => (this.next + i) % WRITE_TARGETS);
        this.next = (this.next + batch) % WRITE_TARGETS;
        this.written = targets;
        return () => {
          for (const k of targets) this.writeTarget(k);
        };
      },
    };
  }
}

/** A todo as a response carries it again: a new object, its author too. */
const copied = (todo: TodoData): TodoData => ({ ...todo, author: { ...todo.author } });

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index} of ${items.length}`);
  return item;
}

// ─── the checks ──────────────────────────────────────────────────────────────────────────────────

/** The targets checked: one in the largest list (k = 0), one in a list of the many. */
const CHECKED_TARGETS = [0, WRITE_TARGETS / 2] as const;

/** What a component reads after a write: the written list and the list after it (untouched). */
interface AfterWrite {
  written: ListView | undefined;
  neighbour: ListView | undefined;
}

/** The list the write on target `k` changes, and the next list, which it must leave alone. */
function listsOf(fixture: StoreFixture, k: number) {
  const { userId } = at(fixture.targets, k);
  const index = fixture.lists.findIndex((list) => list.userId === userId);
  return {
    written: at(fixture.lists, index),
    neighbour: at(fixture.lists, (index + 1) % fixture.lists.length),
  };
}

const viewOf = (todos: readonly TodoData[]): ListView =>
  todos.map(({ id, completed }) => ({ id, completed }));

/** What every side must read after the write on target `k` into the seeded store. */
function expectedAfter(write: StoreWrite, fixture: StoreFixture, k: number): AfterWrite {
  const { written, neighbour } = listsOf(fixture, k);
  const before = viewOf(written.todos);
  const target = at(fixture.targets, k);
  const afterWrite = {
    push: () => [...before, ...viewOf([at(fixture.pushes, k).todo])],
    partialUpdate: () =>
      before.map((todo) =>
        todo.id === target.id ? { ...todo, completed: !todo.completed } : todo,
      ),
    delete: () => before.filter((todo) => todo.id !== target.id),
  }[write];
  return { written: afterWrite(), neighbour: viewOf(neighbour.todos) };
}

/**
 * Before sampling, on each side's seeded store: after one write, the written list reads as
 * expected and its neighbour did not change (then the write is undone). Returns the first side
 * and target that read something else.
 */
export function checkWrites(cycles: readonly WriteCycle[]): string | undefined {
  for (const k of CHECKED_TARGETS) {
    for (const cycle of cycles) {
      const expected = expectedAfter(cycle.write, cycle.fixture, k);
      cycle.writeTarget(k);
      const { written, neighbour } = listsOf(cycle.fixture, k);
      const read = {
        written: cycle.store.readList(written.userId),
        neighbour: cycle.store.readList(neighbour.userId),
      };
      cycle.undo([k]);
      const difference = firstDifference(expected, read);
      if (difference) return `${cycle.name}, target ${k}: expected vs read at ${difference}`;
    }
  }
  return undefined;
}

/** After the samples: every list holds as many todos as it was seeded with (the undos worked). */
export function checkShape(store: AppStore, fixture: StoreFixture): string | undefined {
  const seeded = fixture.lists.map((list) => list.todos.length);
  const now = fixture.lists.map((list) => store.readList(list.userId)?.length);
  return firstDifference(seeded, now);
}
