/** Compares what two contenders produced, so that no ratio compares different work. */

/** A path to the first place `a` and `b` differ, with both values there; undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return `${path}: ${preview(a)} vs ${preview(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: ${preview(a)} vs ${preview(b)}`;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    const difference = firstDifference(left[key], right[key], `${path}.${key}`);
    if (difference) return difference;
  }
  return undefined;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
