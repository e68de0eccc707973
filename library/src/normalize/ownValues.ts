import { SchemaError, setOwn } from '../schema/describe.js';
import { isPlainObject } from './sameData.js';

/**
 * What the store keeps is its own. A value given to it (a response, `setResponse`'s object, what an
 * entity's `process` returned) is copied where it holds lists or plain objects, so the caller may
 * go on changing its objects; and in development what the store keeps is frozen, so code that
 * writes to a value it read fails where it writes instead of changing the store (and every past
 * state the devtools show).
 */

/**
 * How deep lists and plain objects may nest in a value the store keeps (lists in objects in …):
 * deeper, copying it would run out of stack. A value that holds itself is that deep too.
 */
export const MAX_PLAIN_DEPTH = 256;

/**
 * A value as the store keeps it: lists and plain objects (what JSON makes) copied at every depth;
 * primitives, and instances of classes (a Date an entity's `process` made), as they are, since
 * only their class knows how to copy them.
 */
export function ownValue(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const isList = Array.isArray(value);
  if (!isList && !isPlainObject(value)) return value;
  if (depth === MAX_PLAIN_DEPTH) {
    throw new SchemaError(
      process.env.NODE_ENV !== 'production'
        ? `the response nests lists or objects deeper than ${MAX_PLAIN_DEPTH} levels (or holds one inside itself): it is refused, nothing of it is stored`
        : `the response nests deeper than ${MAX_PLAIN_DEPTH} levels`,
      value,
    );
  }
  if (isList) {
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index++) copy.push(ownValue(value[index], depth + 1));
    return copy;
  }
  const copy: Record<string, unknown> =
    Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  const fields = value as Record<string, unknown>;
  for (const field in fields)
    if (Object.hasOwn(fields, field)) setOwn(copy, field, ownValue(fields[field], depth + 1));
  return copy;
}

/**
 * `ownValue` of each field of a row that holds a list or an object, except the fields `schema`
 * names (normalize replaces them by what it makes of them). A field holding a primitive, the usual
 * case, costs a `typeof`.
 */
export function ownFields(row: Record<string, unknown>, schema: object): void {
  for (const field in row) {
    // An own `__proto__` field reads and writes as the row's data: only inherited ones do not.
    const value = row[field];
    if (
      typeof value === 'object' &&
      value !== null &&
      Object.hasOwn(row, field) &&
      !Object.hasOwn(schema, field)
    )
      row[field] = ownValue(value);
  }
}

/**
 * Read once, so that a production run without a bundler does not read `process.env` (slow in
 * Node) for every row; the second test below is the one a bundler's define turns into `false`,
 * leaving the freezing out of production builds.
 */
const FREEZES = process.env.NODE_ENV !== 'production';

/**
 * Freezes a value the store keeps, with the lists and plain objects in it, in development: a
 * write to it then throws a TypeError (in strict code, which modules are) where it is made.
 */
export function freezeInDevelopment<T>(value: T): T {
  if (FREEZES && process.env.NODE_ENV !== 'production') deepFreeze(value);
  return value;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    Object.freeze(value);
    for (const item of value) deepFreeze(item);
  } else if (isPlainObject(value)) {
    Object.freeze(value);
    for (const field of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[field]);
  }
}
