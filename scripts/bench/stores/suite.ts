/**
 * App-shaped stores: 10k and 100k todos kept as 10 to 4,000 lists, one per user (fixture.ts), and
 * the cost of one write into them — a push into one user's list, a partial update, a delete —
 * on a plain store, on a store with the devtools bridge connected and no panel, on a store that
 * only keeps each change as the bridge's ring must (the least a bridge costs), and on
 * @data-client 0.9.9 where it runs in reasonable time. What a write costs should depend on what
 * it changes, not on how many lists the store holds, and the bridge should not multiply it.
 *
 * Each side's writes go one after another into one store, seeded once with one `setResponse` per
 * list, not each into a fresh store made from a seed state: the bridge learns the reads it
 * describes a delete against from the responses it sees land (as it does in an app that connects
 * it at start), and a store made from a state behind its back has none of them, so its deletes
 * would skip that work. Between samples the writes are undone, untimed (cycle.ts).
 */
import { makeTodos } from '../data.js';
import {
  type Environment,
  environment,
  formatColumns,
  formatMicroseconds,
  formatRatio,
  microseconds,
  sizeLabel,
  timeOf,
} from '../report.js';
import { type Measurement, measureInterleaved, type SamplerOptions } from '../sampler.js';
import { amortizedRatio } from '../stats.js';
import { checkShape, checkWrites, type StoreWrite, WRITES, WriteCycle } from './cycle.js';
import { makeStoreFixture, type StoreFixture } from './fixture.js';
import {
  type AppLibrary,
  type AppStore,
  ours,
  oursKeepingOnly,
  oursWithBridge,
  reference,
} from './libraries.js';

const STORE_SIZES = [10_000, 100_000] as const;
const LIST_COUNTS = [10, 100, 1_000, 4_000] as const;
/** The reference runs at this size only: at 100k each of its writes copies the 100k-row table. */
const REFERENCE_SIZE = 10_000;

export interface StoresPlan {
  /** Sampling of each comparison: 24 of the plain store and the bridge, one per reference shape. */
  sampling: SamplerOptions;
  /**
   * The list counts the reference is measured with, at REFERENCE_SIZE. Seeding it is quadratic
   * in the lists (each `setResponse` copies its tables of results and collections): 10k todos in
   * 1,000 lists take ~6 s, in 4,000 lists ~45 s, a quarter of the suite's time on its own.
   */
  referenceListCounts: readonly number[];
}

/**
 * A full run, seeding and checks included, takes about four minutes; `--quick` about a minute (it
 * leaves out the reference's slowest seed). Samples are short (20 ms): a sample takes at most
 * WRITE_TARGETS writes, and undoing them before the next takes about as long again.
 */
export const STORES_PLANS: Record<'full' | 'quick', StoresPlan> = {
  full: {
    sampling: { warmupMs: 500, budgetMs: 2000, minSamples: 5, maxSamples: 40, targetSampleMs: 20 },
    referenceListCounts: [10, 100, 1_000],
  },
  quick: {
    sampling: { warmupMs: 100, budgetMs: 300, minSamples: 3, maxSamples: 10, targetSampleMs: 10 },
    referenceListCounts: [10, 100],
  },
};

const GOAL = {
  /** Plain store, µs at 4,000 lists ÷ µs at 10, for push and delete at each size. */
  growthAtMost: 1.5,
  /** The bridge with no panel ÷ the plain store, every workload. */
  bridgeAtMost: 1.5,
};
/** The writes the growth goal holds for (a partial update names its todo by pk alone). */
const GROWTH_GOAL_WRITES: readonly StoreWrite[] = ['push', 'delete'];

export interface StoreResult {
  size: number;
  lists: number;
  write: StoreWrite;
  plain: Measurement;
  bridge: Measurement;
  /** The bridge's time over the plain store's, each side's mean (see amortizedRatio). */
  bridgeRatio: number;
  /**
   * A store that only keeps each change as the bridge's ring must (keptRing.ts), over the plain
   * store's, in the same rounds: the least any bridge costs on this write.
   */
  keptRatio: number;
  /** A second comparison, ours (plain) against the reference, where the reference runs. */
  reference?: { ours: Measurement; reference: Measurement; faster: number };
  /** Set when a side read something else than expected after one write. */
  mismatch?: string;
}

/** µs at the most lists ÷ µs at the fewest, per size and write. */
export interface StoreGrowth {
  size: number;
  write: StoreWrite;
  plain: number;
  bridge: number;
}

export interface StoresReport {
  results: StoreResult[];
  growth: StoreGrowth[];
  goal: typeof GOAL & {
    growthWrites: readonly StoreWrite[];
    growthMet: boolean;
    bridgeMet: boolean;
  };
  reference: { size: number; listCounts: readonly number[] };
  /** What the checks found: a side that read something else, lists that changed. */
  warnings: string[];
  environment: Environment;
}

// ─── measuring ───────────────────────────────────────────────────────────────────────────────────

/** A library's store seeded with the fixture's lists, for every write of the shape in turn. */
interface Seeded {
  library: AppLibrary;
  store: AppStore;
}

/** Sides taking turns on one kind of write; each side's last sample is undone after. */
function compare(cycles: readonly WriteCycle[], options: SamplerOptions): Measurement[] {
  globalThis.gc?.();
  const measured = measureInterleaved(
    cycles.map((cycle) => cycle.side()),
    options,
  );
  for (const cycle of cycles) cycle.undoWritten();
  return measured;
}

/**
 * One workload: the plain store against the bridge and against a store that only keeps what the
 * ring must, then, where the reference runs, the plain store against it in a comparison of its
 * own: the reference's writes copy whole tables, and that garbage must not land in the bridge's
 * samples.
 */
function measureWrite(
  write: StoreWrite,
  fixture: StoreFixture,
  sides: { plain: Seeded; bridge: Seeded; kept: Seeded; reference: Seeded | undefined },
  options: SamplerOptions,
): Omit<StoreResult, 'size' | 'lists'> {
  const cycleOf = ({ library, store }: Seeded) =>
    new WriteCycle(library.name, write, fixture, store);
  const [plainCycle, bridgeCycle, keptCycle] = [
    cycleOf(sides.plain),
    cycleOf(sides.bridge),
    cycleOf(sides.kept),
  ];
  const referenceCycle = sides.reference && cycleOf(sides.reference);
  const mismatch = checkWrites([plainCycle, bridgeCycle, keptCycle, referenceCycle ?? []].flat());
  const [plain, bridge, kept] = compare([plainCycle, bridgeCycle, keptCycle], options) as [
    Measurement,
    Measurement,
    Measurement,
  ];
  const result = {
    write,
    plain,
    bridge,
    bridgeRatio: amortizedRatio(bridge.times, plain.times),
    keptRatio: amortizedRatio(kept.times, plain.times),
    ...(mismatch ? { mismatch } : {}),
  };
  if (!referenceCycle) return result;
  const [oursM, referenceM] = compare([plainCycle, referenceCycle], options) as [
    Measurement,
    Measurement,
  ];
  return {
    ...result,
    reference: {
      ours: oursM,
      reference: referenceM,
      faster: microseconds(referenceM) / microseconds(oursM),
    },
  };
}

/**
 * Seeds one store shape on each library measured there (untimed; ours one after the other right
 * after a collection, so that neither store is older), measures every write in turn, then checks
 * that the stores still hold the seeded lists.
 */
function measureShape(
  fixture: StoreFixture,
  plan: StoresPlan,
  warn: (warning: string) => void,
  log: (message: string) => void,
): StoreResult[] {
  const { size } = fixture;
  const lists = fixture.lists.length;
  const shape = shapeLabel({ size, lists });
  log(`… stores: ${shape}, seeding`);
  const seed = (library: AppLibrary) => ({ library, store: library.seededStore(fixture.lists) });
  globalThis.gc?.();
  const sides = {
    plain: seed(ours),
    bridge: seed(oursWithBridge),
    kept: seed(oursKeepingOnly),
    reference:
      size === REFERENCE_SIZE && plan.referenceListCounts.includes(lists)
        ? seed(reference)
        : undefined,
  };
  const results = WRITES.map((write) => {
    const result = { size, lists, ...measureWrite(write, fixture, sides, plan.sampling) };
    if (result.mismatch) warn(`${shape} ${write}: ${result.mismatch}`);
    log(`  ${write}: ${summary(result)}`);
    return result;
  });
  for (const { library, store } of [
    sides.plain,
    sides.bridge,
    sides.kept,
    sides.reference ?? [],
  ].flat()) {
    const difference = checkShape(store, fixture);
    if (difference) warn(`${shape} ${library.name}: lists changed after the writes: ${difference}`);
  }
  return results;
}

/** One workload's figures, for the log. */
function summary(result: StoreResult): string {
  const vsReference = result.reference
    ? `, reference ${timeOf(result.reference.reference)} (ours ${formatRatio(result.reference.faster)} faster)`
    : '';
  return `plain ${timeOf(result.plain)}, bridge ${timeOf(result.bridge)} (${formatRatio(result.bridgeRatio)}), kept only ${formatRatio(result.keptRatio)}${vsReference}`;
}

export function runStoresBench(plan: StoresPlan, log: (message: string) => void): StoresReport {
  const started = Date.now();
  const warnings: string[] = [];
  const warn = (warning: string) => {
    warnings.push(warning);
    log(`WARNING ${warning}`);
  };
  const results = STORE_SIZES.flatMap((size) => {
    // The same todos for every list count: uuids are slow to make.
    const serverTodos = makeTodos(size);
    return LIST_COUNTS.flatMap((lists) =>
      measureShape(makeStoreFixture(serverTodos, lists), plan, warn, log),
    );
  });
  const growth = growthOf(results);
  return {
    results,
    growth,
    goal: {
      ...GOAL,
      growthWrites: GROWTH_GOAL_WRITES,
      growthMet: growth.every(
        (g) => !GROWTH_GOAL_WRITES.includes(g.write) || g.plain <= GOAL.growthAtMost,
      ),
      bridgeMet: results.every((r) => r.bridgeRatio <= GOAL.bridgeAtMost),
    },
    reference: { size: REFERENCE_SIZE, listCounts: plan.referenceListCounts },
    warnings,
    environment: environment(started),
  };
}

function growthOf(results: readonly StoreResult[]): StoreGrowth[] {
  const [fewest, most] = [LIST_COUNTS[0], LIST_COUNTS.at(-1)];
  return STORE_SIZES.flatMap((size) =>
    WRITES.map((write) => {
      const at = (lists: number | undefined) => {
        const found = results.find(
          (r) => r.size === size && r.write === write && r.lists === lists,
        );
        if (!found) throw new Error(`no ${sizeLabel(size)} ${write} result with ${lists} lists`);
        return found;
      };
      const [first, last] = [at(fewest), at(most)];
      return {
        size,
        write,
        plain: microseconds(last.plain) / microseconds(first.plain),
        bridge: microseconds(last.bridge) / microseconds(first.bridge),
      };
    }),
  );
}

// ─── the report ──────────────────────────────────────────────────────────────────────────────────

const shapeLabel = ({ size, lists }: { size: number; lists: number }) =>
  `${sizeLabel(size)} × ${lists.toLocaleString('en-US')} lists`;
const flagged = (text: string, failed: boolean) => (failed ? `${text} !` : text);
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** One row per size, write and list count: µs of each side, bridge ÷ plain, ours vs reference. */
function formatResults(report: StoresReport): string {
  const header = [
    'todos',
    'write',
    'lists',
    'plain µs',
    'bridge µs',
    'bridge÷plain',
    'kept only÷plain',
    'ref µs',
    'faster',
  ];
  const ordered = STORE_SIZES.flatMap((size) =>
    WRITES.flatMap((write) => report.results.filter((r) => r.size === size && r.write === write)),
  );
  const rows = ordered.map((r) => [
    sizeLabel(r.size),
    r.write,
    r.lists.toLocaleString('en-US'),
    formatMicroseconds(microseconds(r.plain)),
    formatMicroseconds(microseconds(r.bridge)),
    flagged(formatRatio(r.bridgeRatio), r.bridgeRatio > GOAL.bridgeAtMost),
    formatRatio(r.keptRatio),
    r.reference ? formatMicroseconds(microseconds(r.reference.reference)) : '—',
    r.reference ? formatRatio(r.reference.faster) : '—',
  ]);
  return formatColumns(header, rows, { leftColumns: 2 });
}

function formatGrowth(report: StoresReport): string {
  const header = ['todos', 'write', 'plain growth', 'bridge growth'];
  const rows = report.growth.map((g) => [
    sizeLabel(g.size),
    g.write,
    flagged(
      formatRatio(g.plain),
      GROWTH_GOAL_WRITES.includes(g.write) && g.plain > GOAL.growthAtMost,
    ),
    formatRatio(g.bridge),
  ]);
  return formatColumns(header, rows, { leftColumns: 2 });
}

export function formatStoresReport(report: StoresReport): string {
  const [fewest, most] = [LIST_COUNTS[0], LIST_COUNTS.at(-1) as number];
  const { growthAtMost, bridgeAtMost, growthMet, bridgeMet } = report.goal;
  const { size, listCounts } = report.reference;
  const counts = listCounts.map((count) => count.toLocaleString('en-US')).join(', ');
  return [
    'app-shaped stores: µs per controller.setResponse into a store of 10k or 100k todos in 10 to 4,000 lists (one per user)',
    `(median; bridge = devtools connected, no panel; bridge÷plain = mean over mean (tenths trimmed), scavenges counted; kept only = a store that only`,
    `keeps each change's action, change-set and state as the bridge's ring must, the least a bridge costs; ref = @data-client 0.9.9,`,
    `measured at ${sizeLabel(size)} with ${counts} lists; faster = ref µs ÷ ours µs; ! = misses its goal)`,
    formatResults(report),
    '',
    `growth = µs with ${most.toLocaleString('en-US')} lists ÷ µs with ${fewest}`,
    formatGrowth(report),
    '',
    `goal: plain per-write cost grows ≤ ${growthAtMost}× from ${fewest} to ${most.toLocaleString('en-US')} lists for ${GROWTH_GOAL_WRITES.join(' and ')} — ${verdict(growthMet)}`,
    `goal: the bridge with no panel costs ≤ ${bridgeAtMost}× the plain store on every write workload — ${verdict(bridgeMet)}`,
    ...report.warnings.map((warning) => `WARNING ${warning}`),
  ].join('\n');
}
