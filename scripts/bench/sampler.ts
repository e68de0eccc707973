/**
 * An interleaved sampler: the contenders take turns (A B, B A, A B …) so that thermal drift, other
 * processes and JIT phases hit both alike, and the order within a round alternates so neither
 * always runs right after the other's garbage.
 */
import { median, relativeSpread } from './stats.js';

/** One contender's side of a workload. */
export interface Side {
  /** Builds `batch` operations' inputs (untimed) and returns them as one timed call. */
  prepare(batch: number): () => void;
  /**
   * The most operations one sample may batch, for a side whose operations use up inputs it has
   * a fixed number of (distinct todos to delete, say); samples are then shorter than
   * `targetSampleMs` where operations are fast.
   */
  readonly maxBatch?: number;
}

/**
 * A side whose operations may be asynchronous (a `fetch`): the timed call returns a promise when
 * they are, and the sample ends when the whole batch has settled.
 */
export interface AsyncSide {
  prepare(batch: number): () => void | Promise<void>;
  /** As Side's. */
  readonly maxBatch?: number;
}

export interface SamplerOptions {
  /** Minimum warm-up time per workload, both sides together. */
  warmupMs: number;
  /**
   * Warm-up rounds at least (1 when not given): 0 with no warmupMs skips the warm-up, for
   * operations so long that one already runs optimized code and samples are few.
   */
  warmupRounds?: number;
  /** Sampling stops once this much time has passed (and `minSamples` are taken). */
  budgetMs: number;
  minSamples: number;
  maxSamples: number;
  /** Each sample batches enough operations to last about this long (timer noise stays small). */
  targetSampleMs: number;
  /**
   * `gc()` between preparing a sample's inputs and timing it (warm-up runs included): the inputs
   * and fresh stores then sit in the old generation when the operations fill them.
   */
  collectBeforeSample?: boolean;
}

export interface Measurement {
  opsPerSecond: number;
  /** Relative median absolute deviation of the per-operation times. */
  spread: number;
  samples: number;
  /** Operations in the last sample (each sample is sized to last about targetSampleMs). */
  batch: number;
  /** Per-operation time of each sample, in ms: sample `i` of every side was taken in round `i`. */
  times: number[];
}

/** Milliseconds since an arbitrary origin, with nanosecond resolution. */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** What the plan asks for next: time `batch` operations of side `index`. */
interface Timing {
  index: number;
  batch: number;
}

/**
 * The sampling rules, written once for synchronous and asynchronous sides: a generator that yields
 * each timing it wants and receives its duration (ms), and returns the measurements. The drivers
 * below only prepare, time and feed back.
 *
 * Warm-up: every side runs single operations in turn until `warmupMs` has passed (and
 * `warmupRounds` rounds); the fastest sizes each side's first batch (1 with no warm-up). Then
 * rounds of one sample per side, the order alternating (A B, B A …), until the budget is spent
 * (with `minSamples` to `maxSamples` rounds).
 */
function* samplingPlan(
  sides: readonly { readonly maxBatch?: number }[],
  options: SamplerOptions,
): Generator<Timing, Measurement[], number> {
  const batchFor = (operationMs: number, index: number) =>
    Math.min(
      sides[index]?.maxBatch ?? Number.POSITIVE_INFINITY,
      Math.max(1, Math.round(options.targetSampleMs / operationMs)),
    );
  const sideCount = sides.length;
  const fastest: number[] = Array.from({ length: sideCount }, () => Number.POSITIVE_INFINITY);
  const warmUpEnd = nowMs() + options.warmupMs;
  const warmupRounds = options.warmupRounds ?? 1;
  for (let round = 0; round < warmupRounds || nowMs() < warmUpEnd; round++) {
    for (let index = 0; index < sideCount; index++) {
      fastest[index] = Math.min(fastest[index] as number, yield { index, batch: 1 });
    }
  }
  const batches = fastest.map(batchFor);
  const perOperationMs: number[][] = fastest.map(() => []);
  const end = nowMs() + options.budgetMs;
  for (let round = 0; round < options.maxSamples; round++) {
    if (round >= options.minSamples && nowMs() >= end) break;
    const order = round % 2 === 0 ? batches.keys() : [...batches.keys()].reverse();
    for (const index of order) {
      const batch = batches[index] as number;
      const times = perOperationMs[index] as number[];
      times.push((yield { index, batch }) / batch);
      // Warm-up saw the fastest runs; size the next samples by the typical one.
      batches[index] = batchFor(median(times), index);
    }
  }
  return perOperationMs.map((times, index) => ({
    opsPerSecond: 1000 / median(times),
    spread: relativeSpread(times),
    samples: times.length,
    batch: batches[index] as number,
    times,
  }));
}

/**
 * Prepares a sample (untimed) and returns its timed call. No collection is forced here unless
 * asked: after `gc()` V8 shrinks the young generation, and the next samples of allocation-heavy
 * workloads then ran 3-6× slower than in steady state.
 */
function prepared<Run>(
  side: { prepare(batch: number): Run },
  batch: number,
  options: SamplerOptions,
) {
  const run = side.prepare(batch);
  if (options.collectBeforeSample) globalThis.gc?.();
  return run;
}

function timeOnce(side: Side, batch: number, options: SamplerOptions): number {
  const run = prepared(side, batch, options);
  const start = process.hrtime.bigint();
  const returned: unknown = run();
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (returned instanceof Promise) {
    throw new Error('an asynchronous side: measure it with measureInterleavedAsync');
  }
  return elapsed;
}

/** As timeOnce; a promise the timed call returns is awaited inside the timed part. */
async function timeOnceAsync(side: AsyncSide, batch: number, options: SamplerOptions) {
  const run = prepared(side, batch, options);
  const start = process.hrtime.bigint();
  const returned = run();
  // A synchronous batch is not awaited: that would run other work's pending callbacks in its time.
  if (returned) await returned;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Samples synchronous sides in turn (see samplingPlan). */
export function measureInterleaved(sides: readonly Side[], options: SamplerOptions): Measurement[] {
  const plan = samplingPlan(sides, options);
  let step = plan.next();
  while (!step.done) {
    const { index, batch } = step.value;
    step = plan.next(timeOnce(sides[index] as Side, batch, options));
  }
  return step.value;
}

/** Samples sides of which some may be asynchronous, by the same rules as measureInterleaved. */
export async function measureInterleavedAsync(
  sides: readonly AsyncSide[],
  options: SamplerOptions,
): Promise<Measurement[]> {
  const plan = samplingPlan(sides, options);
  let step = plan.next();
  while (!step.done) {
    const { index, batch } = step.value;
    step = plan.next(await timeOnceAsync(sides[index] as AsyncSide, batch, options));
  }
  return step.value;
}

/** Measurements of one side taken in several processes, as one: their rounds in order. */
export function pooled(measurements: readonly Measurement[]): Measurement {
  const times = measurements.flatMap((measurement) => measurement.times);
  return {
    opsPerSecond: 1000 / median(times),
    spread: relativeSpread(times),
    samples: times.length,
    batch: measurements.at(-1)?.batch ?? 0,
    times,
  };
}
