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
 * The median absolute deviation relative to the median: a spread measure that, unlike the
 * standard deviation, one GC-hit sample cannot blow up.
 */
export function relativeSpread(values: readonly number[]): number {
  const center = median(values);
  return median(values.map((value) => Math.abs(value - center))) / center;
}
