/**
 * Records keyed by what a page sends (store ids, entity types, pks, collection rows, result
 * keys) are objects without a prototype: every string is a plain key there, `__proto__`,
 * `constructor` and `toString` included, and a key the record does not hold reads as
 * undefined. Never spread one (`{ ...record }` makes an ordinary object again): copy it with
 * `copyDict`, or set a key with `withEntry`.
 */
export type Dict<T> = Record<string, T>;

/** A record without a prototype, holding `entries`. */
export function dict<T>(entries: Iterable<readonly [string, T]> = []): Dict<T> {
  const record = Object.create(null) as Dict<T>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}

/** A copy of `record` (of an ordinary object, too), without a prototype. */
export function copyDict<T>(record: Readonly<Dict<T>> | undefined): Dict<T> {
  return Object.assign(Object.create(null) as Dict<T>, record);
}

/** A copy of `record` with `key` set to `value`. */
export function withEntry<T>(record: Readonly<Dict<T>>, key: string, value: T): Dict<T> {
  const copy = copyDict(record);
  copy[key] = value;
  return copy;
}
