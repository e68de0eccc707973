/**
 * The core workloads. Each is written once against the Contender interface, so both libraries run
 * exactly the same steps. Todos have uuid pks (see data.ts).
 */
import type { BenchStore, Contender, StoreState } from './contenders/types.js';
import { COLLECTION_SIZE, makeTodos } from './data.js';
import type { Pk } from './pks.js';
import type { AsyncSide, SamplerOptions } from './sampler.js';

/** A workload set up for one contender. */
export interface WorkloadRun extends AsyncSide {
  /**
   * What one operation produced, in terms both libraries share: equal when they agree. A promise
   * of it where the operation is asynchronous.
   */
  fingerprint(): unknown;
}

export interface Workload {
  readonly name: string;
  /** Builds what every run of the workload shares (untimed, once per contender). */
  setup(contender: Contender): WorkloadRun;
  /** The workload's sampling, from the suite's (when it needs other budgets). */
  sampling?(suite: SamplerOptions): SamplerOptions;
}

/** The fields both libraries' Todo instances have, for comparing what they read back. */
interface TodoLike {
  id: Pk;
  title: string;
  completed: boolean;
  userId: number;
  author: { id: number; name: string } | null;
}

/** A todo as both libraries' Todo instances can show it: plain data, for comparisons. */
export function todoView(todo: unknown) {
  const { id, title, completed, userId, author } = todo as TodoLike;
  return { id, title, completed, userId, author: author && { id: author.id, name: author.name } };
}

function ids(list: readonly unknown[] | undefined) {
  return list?.map((todo) => (todo as TodoLike).id);
}

/**
 * The sampling of a workload whose operation takes seconds on at least one library (the
 * reference's 1000 pushes or invalidations into 10k todos, a list load of 100k): no warm-up, since
 * verifyAll ran the workload once on both libraries and one operation runs optimized code from its
 * first loops on, and an eighth of the suite's rounds at most (5 of 40, `--quick` 2 of 10), the
 * budget ending them from the suite's minimum up. Each round is one operation per library, so the
 * warm-up and rounds would otherwise take minutes.
 */
export function longOperationSampling(suite: SamplerOptions): SamplerOptions {
  const maxSamples = Math.ceil(suite.maxSamples / 8);
  return {
    ...suite,
    warmupMs: 0,
    warmupRounds: 0,
    minSamples: Math.min(suite.minSamples, maxSamples),
    maxSamples,
  };
}

/** `batch` fresh stores, each starting from `state` (or empty): one per timed operation. */
export function freshStores(contender: Contender, batch: number, seed?: StoreState) {
  return Array.from({ length: batch }, () => contender.createStore(seed));
}

function normalizeWorkload(count: number): Workload {
  const todos = makeTodos(count);
  return {
    name: `normalize ${count / 1000}k todos (+ nested author)`,
    setup: (contender) => ({
      prepare: (batch) => () => {
        for (let i = 0; i < batch; i++) contender.normalizeTodos(todos);
      },
      fingerprint: () => contender.describeNormalized(contender.normalizeTodos(todos)),
    }),
  };
}

const denormalizeCold: Workload = {
  name: 'denormalize 1k todos, no cache',
  setup(contender) {
    const normalized = contender.normalizeTodos(makeTodos(1000));
    return {
      prepare: (batch) => () => {
        for (let i = 0; i < batch; i++) contender.denormalizeTodos(normalized);
      },
      fingerprint: () => contender.denormalizeTodos(normalized).map(todoView),
    };
  },
};

const denormalizeMemoized: Workload = {
  name: 'denormalize 1k todos, memoized',
  setup(contender) {
    const normalized = contender.normalizeTodos(makeTodos(1000));
    const read = contender.memoizedReader();
    read(normalized);
    return {
      prepare: (batch) => () => {
        for (let i = 0; i < batch; i++) read(normalized);
      },
      fingerprint() {
        const first = read(normalized);
        return { sameObjectOnReread: read(normalized) === first, todos: first.map(todoView) };
      },
    };
  },
};

/** A workload on a store already holding a 10k collection: `operation` is what is timed. */
function onSeededCollection(
  name: string,
  operation: (store: BenchStore) => void,
  sampling?: Workload['sampling'],
): Workload {
  return {
    name,
    ...(sampling ? { sampling } : {}),
    setup(contender) {
      const seed = contender.seedState(makeTodos(COLLECTION_SIZE));
      return {
        prepare(batch) {
          const stores = freshStores(contender, batch, seed);
          return () => {
            for (const store of stores) operation(store);
          };
        },
        fingerprint() {
          const [store] = freshStores(contender, 1, seed) as [BenchStore];
          operation(store);
          const list = store.readList();
          return { length: list?.length, ids: ids(list) };
        },
      };
    },
  };
}

const PUSH_COUNT = 1000;
const pushes = makeTodos(PUSH_COUNT, COLLECTION_SIZE);
const pushMany = onSeededCollection(
  `${PUSH_COUNT} pushes into a 10k collection (op = all ${PUSH_COUNT})`,
  (store) => {
    for (const todo of pushes) store.push(todo);
  },
  longOperationSampling,
);

/** The page starts 100 todos before the list's end: 10% of it is already stored. */
const page = makeTodos(1000, COLLECTION_SIZE - 100);
const mergePage = onSeededCollection(
  '1k page merged into a 10k collection (10% overlap)',
  (store) => store.mergePage(2, page),
);

/**
 * Deletes answered one at a time, as a user removes todos from a list: each operation's store
 * takes INVALIDATE_COUNT of them, spread over its list. (One delete per fresh store measured
 * mostly how the collector met the thousands of stores a sample made: the same side read tens of
 * points apart between processes.)
 */
const INVALIDATE_COUNT = 1000;
const storedPks = makeTodos(COLLECTION_SIZE).map((todo) => todo.id);
const deleted = Array.from(
  { length: INVALIDATE_COUNT },
  (_, index) => storedPks[(COLLECTION_SIZE / 2 + index * 7919) % COLLECTION_SIZE] as Pk,
);
const invalidateMany = onSeededCollection(
  `invalidate ${INVALIDATE_COUNT} todos of a 10k collection, one at a time (op = all ${INVALIDATE_COUNT})`,
  (store) => {
    for (const pk of deleted) store.invalidate(pk);
  },
  longOperationSampling,
);

const responseTodos = makeTodos(500);
const setResponse500: Workload = {
  name: 'setResponse of 500 todos (+ authors)',
  setup: (contender) => ({
    prepare(batch) {
      const stores = freshStores(contender, batch);
      return () => {
        for (const store of stores) store.setTodos(responseTodos);
      };
    },
    fingerprint() {
      const [store] = freshStores(contender, 1) as [BenchStore];
      store.setTodos(responseTodos);
      return store.readTodos()?.map(todoView);
    },
  }),
};

export const workloads: readonly Workload[] = [
  normalizeWorkload(1000),
  normalizeWorkload(10_000),
  denormalizeCold,
  denormalizeMemoized,
  pushMany,
  mergePage,
  invalidateMany,
  setResponse500,
];
