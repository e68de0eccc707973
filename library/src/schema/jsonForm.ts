/**
 * Argument values (search and URL parameters, a collection row's filter arguments) as JSON
 * would carry them, so that different values never make one URL or one key, and nothing reaches
 * a server as `[object Set]` or as the local time of a Date.
 */

/** Text for a scalar, a list's items, or an object's members. */
export type JsonForm = string | readonly unknown[] | Readonly<Record<string, unknown>>;

/** A value JSON cannot carry faithfully; `why` ends a sentence naming it. */
export class NoJsonForm {
  constructor(readonly why: string) {}
}

/**
 * The form JSON gives `value`: a string as it is; a finite number, a boolean, a bigint and null as
 * their text; a Date as its ISO 8601 text; an array, or a Set, as a list; a plain object, or a
 * Map, as members; what `toJSON()` returns for anything else that has one (a URL, a Temporal
 * value). Undefined stays undefined (left out). The rest has no JSON form: a function, a symbol,
 * NaN and the infinities (JSON writes `null`), an invalid Date, and an instance of a class
 * without `toJSON` (JSON would write its fields and lose what it is).
 */
export function jsonForm(value: unknown): JsonForm | undefined | NoJsonForm {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : new NoJsonForm(`is ${value}, ${NO_FORM}`);
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return undefined;
    case 'object':
      return value === null ? 'null' : objectForm(value, true);
    default:
      return new NoJsonForm(`is a ${typeof value}, ${NO_FORM}`);
  }
}

const NO_FORM = 'which has no JSON form';

/** `mayConvert`: false for what a `toJSON()` returned, which JSON does not convert again. */
function objectForm(value: object, mayConvert: boolean): JsonForm | undefined | NoJsonForm {
  if (Array.isArray(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return value as Record<string, unknown>;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime())
      ? new NoJsonForm('is an invalid Date')
      : value.toISOString();
  }
  if (value instanceof Set) return [...value];
  if (value instanceof Map) return mapMembers(value);
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    return jsonForm(value.valueOf());
  const { toJSON } = value as { toJSON?: unknown };
  if (mayConvert && typeof toJSON === 'function') {
    const json: unknown = toJSON.call(value);
    return typeof json === 'object' && json !== null ? objectForm(json, false) : jsonForm(json);
  }
  return new NoJsonForm(`is ${withArticle(className(proto))}, ${NO_FORM}`);
}

/** A Map's entries as an object's members; keys must be text or numbers, as members' names are. */
function mapMembers(map: ReadonlyMap<unknown, unknown>): Record<string, unknown> | NoJsonForm {
  // No prototype: a `__proto__` key is a member like any other.
  const members: Record<string, unknown> = Object.create(null);
  for (const [key, item] of map) {
    if (typeof key !== 'string' && typeof key !== 'number')
      return new NoJsonForm(`is a Map with a key that is not text or a number, ${NO_FORM}`);
    members[key] = item;
  }
  return members;
}

function className(proto: { constructor?: { name?: unknown } } | null): string {
  const name = proto?.constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'object of an unnamed class';
}

function withArticle(noun: string): string {
  return `${/^[AEIOU]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
