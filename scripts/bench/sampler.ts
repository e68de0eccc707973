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

export interface SamplerOptions {
  /** Minimum warm-up time per workload, both sides together. */
  warmupMs: number;
  /** Sampling stops once this much time has passed (and `minSamples` are taken). */
  budgetMs: number;
  minSamples: number;
  maxSamples: number;
  /** Each sample batches enough operations to last about this long (timer noise stays small). */
  targetSampleMs: number;
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

/**
 * No collection is forced before a sample: after `gc()` V8 shrinks the young generation, and the
 * next samples of allocation-heavy workloads then ran 3-6× slower than in steady state.
 */
function timeOnce(side: Side, batch: number): number {
  const run = side.prepare(batch);
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs every side until warm and returns the fastest single-operation time seen for each. */
function warmUp(sides: readonly Side[], warmupMs: number): number[] {
  const fastest = sides.map(() => Number.POSITIVE_INFINITY);
  const end = nowMs() + warmupMs;
  for (let round = 0; round < 1 || nowMs() < end; round++) {
    sides.forEach((side, index) => {
      fastest[index] = Math.min(fastest[index] as number, timeOnce(side, 1));
    });
  }
  return fastest;
}

export function measureInterleaved(sides: readonly Side[], options: SamplerOptions): Measurement[] {
  const batchFor = (operationMs: number, index: number) =>
    Math.min(
      sides[index]?.maxBatch ?? Number.POSITIVE_INFINITY,
      Math.max(1, Math.round(options.targetSampleMs / operationMs)),
    );
  const batches = warmUp(sides, options.warmupMs).map(batchFor);
  const perOperationMs: number[][] = sides.map(() => []);
  const end = nowMs() + options.budgetMs;
  for (let round = 0; round < options.maxSamples; round++) {
    if (round >= options.minSamples && nowMs() >= end) break;
    const order = round % 2 === 0 ? sides.keys() : [...sides.keys()].reverse();
    for (const index of order) {
      const batch = batches[index] as number;
      const times = perOperationMs[index] as number[];
      times.push(timeOnce(sides[index] as Side, batch) / batch);
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
