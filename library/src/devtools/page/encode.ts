import { type Encoded, TRUNCATED_FIELDS } from '../protocol/messages.js';

/** How much of a value the devtools send to the panel: depth, size and length limits. */
export interface EncodeLimits {
  /** Nesting deeper than this is cut. */
  maxDepth?: number;
  /** Roughly how many characters of output one value may produce before the rest is cut. */
  maxSize?: number;
  /** Longer strings are cut. */
  maxStringLength?: number;
  /** Longer arrays, maps and sets keep their first items. */
  maxItems?: number;
}

/** How many characters one value may produce when no limit says otherwise. */
export const DEFAULT_MAX_SIZE = 512 * 1024;

const DEFAULTS: Required<EncodeLimits> = {
  maxDepth: 12,
  maxSize: DEFAULT_MAX_SIZE,
  maxStringLength: 10_000,
  maxItems: 1_000,
};

/**
 * Turns any value into JSON-safe data the panel can show, tagging what JSON cannot carry
 * (undefined, NaN, ±Infinity, BigInt, Date, Map, Set, class instances by class name, errors,
 * functions, cycles). Depth, size, string and item caps cut large values with a visible marker.
 */
export function encode(value: unknown, limits: EncodeLimits = DEFAULTS): Encoded {
  const caps = capsOf(limits);
  // Most values events carry are field values (an update's before and after): a finite number,
  // a boolean, null or a string within the caps is its own encoding.
  if (
    value === null ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'string' && value.length <= Math.min(caps.maxStringLength, caps.maxSize))
  )
    return value;
  return new Encoder(caps).visit(value, 0);
}

/**
 * `value` encoded whole within `limits`, or undefined when any part of it would be cut: for a
 * copy of a value that is only worth sending complete (a panel asks for the rest otherwise).
 */
export function encodeWhole(value: unknown, limits: EncodeLimits): Encoded | undefined {
  const encoder = new Encoder(capsOf(limits));
  const encoded = encoder.visit(value, 0);
  return encoder.cut ? undefined : encoded;
}

/** One value's encoding: what is left of its size budget, and the objects it is inside. */
class Encoder {
  /** Whether a part of the value was cut (a truncated marker stands in its place). */
  cut = false;
  private budget: number;
  /** The objects being visited, to tell a cycle from a value seen twice; made at the first object. */
  private ancestors: Set<object> | undefined;

  constructor(private readonly caps: Required<EncodeLimits>) {
    this.budget = caps.maxSize;
  }

  visit(input: unknown, depth: number): Encoded {
    if (this.budget <= 0) return this.truncated({ '@t': 'truncated', reason: 'size' });
    switch (typeof input) {
      case 'undefined':
        this.budget -= 4;
        return { '@t': 'undefined' };
      case 'boolean':
        this.budget -= 5;
        return input;
      case 'number':
        this.budget -= 8;
        if (Number.isFinite(input)) return input;
        return {
          '@t': 'number',
          v: Number.isNaN(input) ? 'NaN' : input > 0 ? 'Infinity' : '-Infinity',
        };
      case 'bigint':
        this.budget -= 8;
        return { '@t': 'bigint', v: input.toString() };
      case 'string':
        return this.string(input);
      case 'symbol':
        return { '@t': 'symbol', description: input.description ?? '' };
      case 'function':
        return { '@t': 'function', name: input.name || 'anonymous' };
    }
    return input === null ? null : this.object(input as object, depth);
  }

  private string(input: string): Encoded {
    // Cut at what is left of the size budget too: one long field must not take the value far
    // past its cap (a read's 2 KB preview, a row of a `rows` answer).
    const limit = Math.min(this.caps.maxStringLength, this.budget);
    this.budget -= Math.min(input.length, limit) + 2;
    return input.length <= limit
      ? input
      : this.truncated({
          '@t': 'truncated',
          reason: limit < this.caps.maxStringLength ? 'size' : 'length',
          omitted: input.length - limit,
          preview: input.slice(0, limit),
        });
  }

  private truncated(marker: Encoded): Encoded {
    this.cut = true;
    return marker;
  }

  private object(object: object, depth: number): Encoded {
    this.ancestors ??= new Set();
    if (this.ancestors.has(object)) return { '@t': 'cycle' };
    if (depth >= this.caps.maxDepth) return this.truncated({ '@t': 'truncated', reason: 'depth' });
    if (object instanceof Date)
      return {
        '@t': 'date',
        v: Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString(),
      };
    if (object instanceof Error) {
      const status = (object as { status?: unknown }).status;
      return {
        '@t': 'error',
        name: object.name,
        message: object.message,
        ...(typeof status === 'number' ? { status } : {}),
      };
    }
    this.ancestors.add(object);
    try {
      if (Array.isArray(object)) return this.list(object, depth);
      if (object instanceof Map) return this.map(object, depth);
      if (object instanceof Set)
        return { '@t': 'set', values: this.list([...object], depth) as Encoded[] };
      return this.fields(object, depth);
    } finally {
      this.ancestors.delete(object);
    }
  }

  /** Like lists, a map stops at either cap (items or size) and ends with a marker entry. */
  private map(object: Map<unknown, unknown>, depth: number): Encoded {
    const entries: [Encoded, Encoded][] = [];
    for (const [k, v] of object) {
      if (entries.length >= this.caps.maxItems || this.budget <= 0) break;
      entries.push([this.visit(k, depth + 1), this.visit(v, depth + 1)]);
    }
    const omitted = object.size - entries.length;
    if (omitted > 0) {
      const reason = entries.length >= this.caps.maxItems ? 'length' : 'size';
      const marker = this.truncated({ '@t': 'truncated', reason, omitted });
      entries.push([marker, marker]);
    }
    return { '@t': 'map', entries };
  }

  /** A plain object or a class instance, by its own enumerable fields. */
  private fields(object: object, depth: number): Encoded {
    // No prototype: a field named `__proto__` is data like any other.
    const fields: Record<string, Encoded> = Object.create(null);
    const keys = Object.keys(object);
    let written = 0;
    for (const key of keys) {
      if (this.budget <= 0) break;
      this.budget -= key.length + 3;
      fields[key] = this.visit(readField(object, key), depth + 1);
      written++;
    }
    // Fields past the size budget are left out, and a marker says how many.
    if (written < keys.length)
      fields[TRUNCATED_FIELDS] = this.truncated({
        '@t': 'truncated',
        reason: 'size',
        omitted: keys.length - written,
      });
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      return { '@t': 'instance', class: proto?.constructor?.name || 'Object', fields };
    }
    return '@t' in fields ? { '@t': 'object', fields } : fields;
  }

  private list(items: readonly unknown[], depth: number): Encoded {
    const { maxItems, maxStringLength } = this.caps;
    const strings = plainStrings(items, maxItems, maxStringLength, this.budget);
    if (strings !== undefined) {
      this.budget -= strings;
      return items as string[];
    }
    const out: Encoded[] = [];
    for (const item of items.slice(0, maxItems)) {
      out.push(this.visit(item, depth + 1));
      if (this.budget <= 0) break;
    }
    const omitted = items.length - out.length;
    if (omitted > 0)
      out.push(
        this.truncated({
          '@t': 'truncated',
          reason: this.budget <= 0 ? 'size' : 'length',
          omitted,
        }),
      );
    return out;
  }
}

/** The caps for `limits`, merged once per limits object (the bridge encodes with a few fixed ones). */
const mergedCaps = new WeakMap<EncodeLimits, Required<EncodeLimits>>();
function capsOf(limits: EncodeLimits): Required<EncodeLimits> {
  let caps = mergedCaps.get(limits);
  if (caps === undefined) {
    caps = { ...DEFAULTS, ...limits };
    mergedCaps.set(limits, caps);
  }
  return caps;
}

/**
 * For a list of strings that fits every cap (a list of pks, most often), what it costs the size
 * budget: such a list is its own encoding, and is passed on as it is rather than copied item by
 * item. Undefined for any other list.
 */
function plainStrings(
  items: readonly unknown[],
  maxItems: number,
  maxStringLength: number,
  budget: number,
): number | undefined {
  if (items.length > maxItems) return undefined;
  let size = 0;
  for (const item of items) {
    if (typeof item !== 'string' || item.length > maxStringLength) return undefined;
    size += item.length + 3;
  }
  return size <= budget ? size : undefined;
}

/** A field's value; a getter that throws shows as the error it threw instead of stopping encoding. */
function readField(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Reverses `encode` for values it carried exactly (Date, Map, Set, BigInt, undefined, NaN,
 * ±Infinity, wrapped `@t` objects). Class instances come back as plain objects of their fields;
 * errors as Error objects; markers (cycle, truncated, function, symbol) stay as they are.
 */
export function decode(value: Encoded): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (typeof value !== 'object' || value === null) return value;
  const tagged = value as Record<string, unknown>;
  switch (tagged['@t']) {
    case undefined:
      return decodeFields(value as Record<string, Encoded>);
    case 'undefined':
      return undefined;
    case 'number':
      return Number(tagged.v);
    case 'bigint':
      return BigInt(tagged.v as string);
    case 'date':
      return new Date(tagged.v as string);
    case 'map':
      return new Map(
        (tagged.entries as [Encoded, Encoded][]).map(([k, v]) => [decode(k), decode(v)]),
      );
    case 'set':
      return new Set((tagged.values as Encoded[]).map(decode));
    case 'object':
    case 'instance':
      // Its fields one by one: the wrapped object's own `@t` key is data, not a tag (decoding the
      // whole would turn `{ '@t': 'date', v: 'x' }` into a Date).
      return decodeFields(tagged.fields as Record<string, Encoded>);
    case 'error':
      return Object.assign(new Error(tagged.message as string), {
        name: tagged.name,
        status: tagged.status,
      });
    default:
      return value;
  }
}

function decodeFields(fields: Record<string, Encoded>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, decode(field)]));
}
