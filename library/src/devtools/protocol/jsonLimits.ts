/**
 * Checks of JSON values as wholes: how deep they nest, how long their text would be. A page
 * message is a structured clone, not parsed JSON: it can hold one object in many places (written
 * out, a copy in each: a value of 64 levels that each hold the next one twice is 2^64 copies), and
 * values JSON cannot carry (Map, Set, Date, typed arrays: `{}` once written; BigInt). So a size is
 * first bounded by a walk that stops as soon as it passes the limit, and only then is a value
 * walked whole.
 */

import { type Check, custom } from './check.js';

/** Whether a value nests at most `levels` lists and objects deep (stops at the first too deep). */
function nestsWithin(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (levels === 0) return false;
  for (const child of Array.isArray(value) ? value : Object.values(value))
    if (!nestsWithin(child, levels - 1)) return false;
  return true;
}

/**
 * A value (not undefined) that nests at most `levels` lists and objects deep, counting its own;
 * `list` asks for a list, and `meaning` says what it is, in its JSON Schema. Bound its size first
 * (`jsonWithin`): the walk visits every place a shared object is held.
 */
export function nestedWithin<T>(
  levels: number,
  { list = false, meaning }: { list?: boolean; meaning?: string } = {},
): Check<T> {
  const limit = `nested at most ${levels} lists and objects deep`;
  return custom<T>(
    `${list ? 'a list' : 'a value'} nested at most ${levels} levels deep`,
    (value) => value !== undefined && (!list || Array.isArray(value)) && nestsWithin(value, levels),
    {
      ...(list ? { type: 'array' } : {}),
      description: meaning === undefined ? limit : `${meaning}, ${limit}`,
    },
  );
}

/**
 * Whether a value is JSON whose text may be at most `limit` characters: what its text would at
 * least hold (each string, key and value adds its length, or one), counted without writing it.
 * Throws when a field does.
 */
function mayFit(value: unknown, limit: number): boolean {
  let left = limit;
  const fits = (item: unknown): boolean => {
    left -= typeof item === 'string' ? item.length + 2 : 1;
    if (left < 0 || typeof item === 'bigint') return false;
    if (typeof item !== 'object' || item === null) return true;
    if (Array.isArray(item)) {
      // Every item adds at least a comma, holes too (which `every` would skip).
      left -= item.length;
      return left >= 0 && item.every(fits);
    }
    // A plain object (of any realm); a Map, a Date or a typed array is not.
    if (Object.prototype.toString.call(item) !== '[object Object]') return false;
    return Object.keys(item).every((key) => {
      const field = (item as Record<string, unknown>)[key];
      // JSON leaves out a field that is undefined (or a function): it adds nothing.
      if (field === undefined || typeof field === 'function' || typeof field === 'symbol')
        return true;
      left -= key.length + 3;
      return fits(field);
    });
  };
  return fits(value);
}

/**
 * A value whose JSON text may be at most `limit` characters, by the bound alone (see mayFit):
 * for a whole message, which is not written out to be measured. Throws when a field does.
 */
export function mayFitJson(limit: number): Check<unknown> {
  return custom(`JSON of at most ${limit} characters`, (value) => mayFit(value, limit));
}

/**
 * A value that is JSON of at most `limit` characters: bounded first, then written. A value
 * that cannot be written, or has a field that throws, is not.
 */
export function jsonWithin(limit: number): Check<unknown> {
  return custom(`JSON of at most ${limit} characters`, (value) => {
    try {
      return mayFit(value, limit) && JSON.stringify(value).length <= limit;
    } catch {
      return false;
    }
  });
}
