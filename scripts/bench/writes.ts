/**
 * Per-write cost: one write into a store that already holds N todos (1k, 10k, 100k), for each pk
 * shape (pks.ts), on both libraries side by side. A write is one `controller.setResponse`, as an
 * app's response lands: a `push` (the collection's create endpoint appends a new todo to the
 * stored list of N) or a `partialUpdate` (an update endpoint answers with a stored todo whose
 * `completed` changed). What a write costs should depend on what it changes, not on N.
 */
import { ours } from './contenders/ours.js';
import { reference } from './contenders/reference.js';
import type { BenchStore, Contender, StoreState } from './contenders/types.js';
import { makeTodos, type TodoData } from './data.js';
import { PK_SHAPES, type PkShape } from './pks.js';
import {
  type Environment,
  environment,
  formatColumns,
  formatMicroseconds,
  formatRatio,
  microseconds,
  sizeLabel,
  timeOf,
} from './report.js';
import { type Measurement, measureInterleaved, type SamplerOptions, type Side } from './sampler.js';
import { firstDifference } from './verify.js';
import { todoView } from './workloads.js';

const STORE_SIZES = [1_000, 10_000, 100_000] as const;
const WRITES = ['push', 'partialUpdate'] as const;
export type Write = (typeof WRITES)[number];

/**
 * Sampling per (shape, size, write). A write into 100k todos takes the reference ~0.1 s (it
 * copies the table), so one sample is one write there; these budgets keep the 18 comparisons,
 * seeding included, to about 1.5 minutes.
 */
export const WRITES_SAMPLING: Record<'full' | 'quick', SamplerOptions> = {
  full: { warmupMs: 500, budgetMs: 3000, minSamples: 5, maxSamples: 40, targetSampleMs: 50 },
  quick: { warmupMs: 100, budgetMs: 300, minSamples: 3, maxSamples: 10, targetSampleMs: 10 },
};

const GOAL = { growthAtMost: 3, fasterAtLargestAtLeast: 20 };

export interface WriteResult {
  shape: PkShape;
  write: Write;
  /** Todos in the store before the write. */
  size: number;
  ours: Measurement;
  reference: Measurement;
  /** The reference's time per write ÷ ours: above 1 means ours is faster. */
  faster: number;
  /** Set when the two libraries' stores differ after the write. */
  mismatch?: string;
}

/** Time per write in the largest store ÷ in the smallest, per library. */
export interface WriteGrowth {
  shape: PkShape;
  write: Write;
  ours: number;
  reference: number;
}

export interface WritesReport {
  results: WriteResult[];
  growth: WriteGrowth[];
  goal: {
    /** Ours, every shape and write. */
    growthAtMost: number;
    /** At the largest size, every shape and write. */
    fasterAtLargestAtLeast: number;
    growthMet: boolean;
    fasterMet: boolean;
  };
  environment: Environment;
}

/** How many different todos the partial updates change, spread over the stored list. */
const UPDATED_TODOS = 64;

/** What the writes into one store size of one shape share: the stored todos and the responses. */
interface Fixture {
  stored: TodoData[];
  /** The todo the push endpoint answers with: one the store does not hold. */
  created: TodoData;
  /** Positions in `stored` of the todos the updates change, and their update responses. */
  updatedPositions: number[];
  updates: TodoData[];
}

function makeFixture(shape: PkShape, size: number): Fixture {
  const todos = makeTodos(size + 1, 0, shape);
  const stored = todos.slice(0, size);
  const updatedPositions = Array.from(
    { length: UPDATED_TODOS },
    (_, index) => (size / 2 + index * 7919) % size,
  );
  const updates = updatedPositions.map((position) => {
    const todo = stored[position] as TodoData;
    return { ...todo, completed: !todo.completed, author: { ...todo.author } };
  });
  return { stored, created: todos[size] as TodoData, updatedPositions, updates };
}

/** The `index`-th write of a side into `store` (a fresh store from the seed). */
type WriteStep = (store: BenchStore, index: number) => void;

function writeStep(write: Write, fixture: Fixture): WriteStep {
  if (write === 'push') return (store) => store.push(fixture.created);
  return (store, index) => store.update(fixture.updates[index % UPDATED_TODOS] as TodoData);
}

/** A library and its seed state: a store holding the fixture's stored todos. */
interface Seeded {
  contender: Contender;
  seed: StoreState;
}

/** One library's side: each write goes into its own fresh store made from the seed (untimed). */
function writeSide({ contender, seed }: Seeded, step: WriteStep): Side {
  let written = 0;
  return {
    prepare(batch) {
      const stores = Array.from({ length: batch }, () => contender.createStore(seed));
      return () => {
        for (const store of stores) step(store, written++);
      };
    },
  };
}

/** The list after the first write, as a component reads it: its length and the todo written. */
function afterFirstWrite({ contender, seed }: Seeded, step: WriteStep, position: number) {
  const store = contender.createStore(seed);
  step(store, 0);
  const list = store.readList();
  return { length: list?.length, written: list?.[position] && todoView(list[position]) };
}

/** Both libraries' cost of one kind of write into the seeded stores, checked to agree first. */
function measureWrite(
  write: Write,
  fixture: Fixture,
  [oursSeeded, referenceSeeded]: readonly [Seeded, Seeded],
  options: SamplerOptions,
): Omit<WriteResult, 'shape' | 'size'> {
  const step = writeStep(write, fixture);
  const position =
    write === 'push' ? fixture.stored.length : (fixture.updatedPositions[0] as number);
  const mismatch = firstDifference(
    afterFirstWrite(oursSeeded, step, position),
    afterFirstWrite(referenceSeeded, step, position),
  );
  globalThis.gc?.();
  const [oursM, referenceM] = measureInterleaved(
    [writeSide(oursSeeded, step), writeSide(referenceSeeded, step)],
    options,
  ) as [Measurement, Measurement];
  return {
    write,
    ours: oursM,
    reference: referenceM,
    faster: microseconds(referenceM) / microseconds(oursM),
    ...(mismatch ? { mismatch } : {}),
  };
}

export function runWritesBench(
  options: SamplerOptions,
  log: (message: string) => void,
): WritesReport {
  const started = Date.now();
  const results: WriteResult[] = [];
  for (const shape of PK_SHAPES) {
    for (const size of STORE_SIZES) {
      log(`… per-write cost: seeding ${sizeLabel(size)} todos with ${shape} pks`);
      const fixture = makeFixture(shape, size);
      globalThis.gc?.();
      // Both libraries' states are immutable: one seed serves every write of both kinds.
      const seeded = [ours, reference].map((contender) => ({
        contender,
        seed: contender.seedState(fixture.stored),
      })) as [Seeded, Seeded];
      for (const write of WRITES) {
        const result = { shape, size, ...measureWrite(write, fixture, seeded, options) };
        results.push(result);
        if (result.mismatch) log(`WARNING ${shape} ${size} ${write}: ${result.mismatch}`);
        log(
          `  ${write}: ours ${timeOf(result.ours)}, reference ${timeOf(result.reference)} (ours ${formatRatio(result.faster)} faster)`,
        );
      }
    }
  }
  const growth = growthOf(results);
  const largest = results.filter((result) => result.size === STORE_SIZES.at(-1));
  return {
    results,
    growth,
    goal: {
      ...GOAL,
      growthMet: growth.every((g) => g.ours <= GOAL.growthAtMost),
      fasterMet: largest.every((result) => result.faster >= GOAL.fasterAtLargestAtLeast),
    },
    environment: environment(started),
  };
}

function growthOf(results: readonly WriteResult[]): WriteGrowth[] {
  const [smallest, largest] = [STORE_SIZES[0], STORE_SIZES.at(-1)];
  return PK_SHAPES.flatMap((shape) =>
    WRITES.map((write) => {
      const at = (size: number | undefined) => {
        const found = results.find(
          (r) => r.shape === shape && r.write === write && r.size === size,
        );
        if (!found) throw new Error(`no ${shape} ${write} result at ${size}`);
        return found;
      };
      const [first, last] = [at(smallest), at(largest)];
      return {
        shape,
        write,
        ours: microseconds(last.ours) / microseconds(first.ours),
        reference: microseconds(last.reference) / microseconds(first.reference),
      };
    }),
  );
}

/** One row per shape and write: µs per write by store size, growth and how much faster ours is. */
export function formatWritesReport(report: WritesReport): string {
  const { growthAtMost, fasterAtLargestAtLeast, growthMet, fasterMet } = report.goal;
  const largest = STORE_SIZES.at(-1);
  const header = [
    'pk shape',
    'write',
    ...STORE_SIZES.map((size) => `ours ${sizeLabel(size)}`),
    'growth',
    ...STORE_SIZES.map((size) => `ref ${sizeLabel(size)}`),
    'growth',
    ...STORE_SIZES.map((size) => `faster ${sizeLabel(size)}`),
  ];
  const rows = report.growth.map((growth) => {
    const of = report.results.filter((r) => r.shape === growth.shape && r.write === growth.write);
    const flagged = (text: string, failed: boolean) => (failed ? `${text} !` : text);
    return [
      growth.shape,
      growth.write,
      ...of.map((r) => formatMicroseconds(microseconds(r.ours))),
      flagged(formatRatio(growth.ours), growth.ours > growthAtMost),
      ...of.map((r) => formatMicroseconds(microseconds(r.reference))),
      formatRatio(growth.reference),
      ...of.map((r) =>
        flagged(formatRatio(r.faster), r.size === largest && r.faster < fasterAtLargestAtLeast),
      ),
    ];
  });
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  return [
    'per-write cost: µs per controller.setResponse into a store holding 1k, 10k or 100k todos',
    '(median; growth = 100k ÷ 1k; faster = reference µs ÷ ours µs; ! = misses its goal)',
    formatColumns(header, rows, { leftColumns: 2 }),
    '',
    `goal: ours grows ≤ ${growthAtMost}× from 1k to 100k for every pk shape and write — ${verdict(growthMet)}`,
    `goal: at 100k ours is ≥ ${fasterAtLargestAtLeast}× faster than the reference for every pk shape and write — ${verdict(fasterMet)}`,
    ...report.results
      .filter((r) => r.mismatch)
      .map(
        (r) => `WARNING ${r.shape} ${sizeLabel(r.size)} ${r.write}: results differ (${r.mismatch})`,
      ),
  ].join('\n');
}
