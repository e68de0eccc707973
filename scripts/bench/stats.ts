/** Small statistics helpers for benchmark samples. */

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
  const rounds = Math.min(side.length, base.length);
  const ratios = Array.from(
    { length: rounds },
    (_, round) => (side[round] as number) / (base[round] as number),
  );
  return median(ratios) - 1;
}

/**
 * The median absolute deviation relative to the median: a spread measure that, unlike the
 * standard deviation, one GC-hit sample cannot blow up.
 */
export function relativeSpread(values: readonly number[]): number {
  const center = median(values);
  return median(values.map((value) => Math.abs(value - center))) / center;
}
