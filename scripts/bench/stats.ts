/** Small statistics helpers for benchmark samples. */
import { seededRandom } from './random.js';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * How much slower `side` is than `base`, from samples taken in the same rounds: the median of
 * the per-round ratios. Pairing cancels what drifts between rounds (the heap growing, other
 * processes), which shifts both sides' medians apart by more than a few percent.
 */
export function pairedSlowdown(side: readonly number[], base: readonly number[]): number {
  return median(pairedRatios(side, base)) - 1;
}

/**
 * `side`'s mean time over `base`'s: what each costs with its share of garbage collection, where
 * samples start at random points of the young generation (youngGeneration.ts). A sample then
 * pays a scavenge or none by chance, and a median (of each side, or of the per-round ratios)
 * would read whichever case most samples met rather than what each side's allocation costs.
 * Each side's slowest and fastest tenth are left out of its mean: a rare full collection, or a
 * stall of the machine, that falls in one side's sample is not that side's cost.
 */
export function amortizedRatio(side: readonly number[], base: readonly number[]): number {
  return trimmedMean(side) / trimmedMean(base);
}

/** The mean of the values between the lowest tenth and the highest tenth. */
function trimmedMean(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const trim = Math.floor(sorted.length / 10);
  const kept = sorted.slice(trim, sorted.length - trim);
  return kept.reduce((sum, value) => sum + value, 0) / kept.length;
}

/** `side`'s time over `base`'s, round by round. */
export function pairedRatios(side: readonly number[], base: readonly number[]): number[] {
  const rounds = Math.min(side.length, base.length);
  return Array.from(
    { length: rounds },
    (_, round) => (side[round] as number) / (base[round] as number),
  );
}

/**
 * A 95% interval for the slowdown `median of the groups' median ratio` (one group of per-round
 * ratios per workload; one group gives that workload's slowdown): the bootstrap, which resamples
 * each group's rounds with replacement and reads the 2.5th and 97.5th percentiles of the
 * estimates. Seeded, so that one set of samples always reports the same interval.
 */
export function slowdownInterval(groups: readonly (readonly number[])[]): [number, number] {
  const random = seededRandom(0x5eed);
  const estimates = Array.from({ length: RESAMPLES }, () => {
    const medians = groups.map((ratios) =>
      median(Array.from(ratios, () => ratios[Math.floor(random() * ratios.length)] as number)),
    );
    return median(medians) - 1;
  }).sort((a, b) => a - b);
  const tail = Math.floor(RESAMPLES * 0.025);
  return [estimates[tail - 1] as number, estimates[RESAMPLES - tail - 1] as number];
}
const RESAMPLES = 2000;

/**
 * The median absolute deviation relative to the median: a spread measure that, unlike the
 * standard deviation, one GC-hit sample cannot blow up.
 */
export function relativeSpread(values: readonly number[]): number {
  const center = median(values);
  return median(values.map((value) => Math.abs(value - center))) / center;
}

/**
 * The half-width of a 95% confidence interval for the median, relative to it: Student's t times
 * a robust standard error (the median absolute deviation scaled to a standard deviation, over
 * √n). One garbage-collection spike barely moves it, unlike the standard deviation.
 */
export function relativeMargin(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return Number.POSITIVE_INFINITY;
  const center = median(values);
  const mad = median(values.map((value) => Math.abs(value - center)));
  return (studentT975(n - 1) * 1.4826 * mad) / Math.sqrt(n) / center;
}

/**
 * The 97.5th percentile of Student's t with `df` degrees of freedom (the factor of a two-sided
 * 95% interval): the Cornish-Fisher expansion around the normal's 1.96, within 1% of the exact
 * value from 3 degrees of freedom up.
 */
function studentT975(df: number): number {
  const z = 1.959964;
  return (
    z +
    (z ** 3 + z) / (4 * df) +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3)
  );
}
