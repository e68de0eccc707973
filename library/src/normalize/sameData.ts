/** How deep `sameData` compares before it calls two values different (they are then rewritten). */
const MAX_DEPTH = 32;

/**
 * Whether two stored values hold the same data: identical, or lists and plain objects (what JSON
 * makes) whose items are the same data in turn. A refetch that brings a row's `tags` list again,
 * unchanged, then changes nothing: the row keeps its identity, and nothing that reads it renders
 * again.
 */
export function sameData(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth === MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++)
      if (!sameData(a[index], b[index], depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (
      !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)
    )
      return false;
  }
  return true;
}

/** Whether a value is a plain object (what JSON and object literals make), not a class's instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
