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
      return Number.isFinite(value) ? String(value) : noForm(value);
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return undefined;
    case 'object':
      return value === null ? 'null' : objectForm(value);
    default:
      return noForm(value);
  }
}

function objectForm(value: object): JsonForm | undefined | NoJsonForm {
  if (Array.isArray(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return value as Record<string, unknown>;
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? noForm(value) : value.toISOString();
  if (value instanceof Set) return [...value];
  if (value instanceof Map) {
    // No prototype: a `__proto__` key is a member like any other.
    const members: Record<string, unknown> = Object.create(null);
    for (const [key, item] of value) {
      // Members are named by text; a number names one as its text, as in an object literal.
      if (typeof key !== 'string' && typeof key !== 'number') return noForm(value);
      members[key] = item;
    }
    return members;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    return jsonForm(value.valueOf());
  const { toJSON } = value as { toJSON?: unknown };
  if (typeof toJSON !== 'function') return noForm(value);
  const json: unknown = toJSON.call(value);
  // `toJSON() { return this }` would be converted for ever.
  return json === value ? noForm(value) : jsonForm(json);
}

function noForm(value: unknown): NoJsonForm {
  // Development builds say what the value is; production ones only that it cannot be sent.
  return new NoJsonForm(
    process.env.NODE_ENV !== 'production'
      ? `${whatItIs(value)}, which has no JSON form`
      : 'has no JSON form',
  );
}

/** `is a Point`, `is NaN`, `is an invalid Date`… */
function whatItIs(value: unknown): string {
  if (typeof value === 'number') return `is ${value}`;
  if (typeof value !== 'object' || value === null) return `is a ${typeof value}`;
  if (value instanceof Date) return 'is an invalid Date';
  if (value instanceof Map) return 'is a Map with a key that is not text or a number';
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } }).constructor
    ?.name;
  if (typeof name !== 'string' || name === '') return 'is an instance of an unnamed class';
  return `is ${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;
}
