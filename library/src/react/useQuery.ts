import type { Query } from '../endpoint/Query.js';
import type { DenormalizeNullable, Schema } from '../schema/denormalizeTypes.js';
import { isQuery, type Readable } from '../store/reading.js';
import { useCache } from './hooks.js';

/** The readable of a schema that is not a Query: read from the tables, never fetched. */
const readables = new WeakMap<object, Readable>();

function readableOf(schema: Schema | Query<Schema, readonly unknown[], unknown>): Readable {
  if (isQuery(schema)) return schema;
  let readable = readables.get(schema as object);
  if (readable === undefined) {
    readable = { schema, key: (...args: readonly unknown[]) => `QUERY ${JSON.stringify(args)}` };
    readables.set(schema as object, readable);
  }
  return readable;
}

/**
 * What the store holds for a schema, found from the tables and never fetched (current
 * data-client's successor of `useCache(new Index(…))` and `useCache(query)`): an entity by its pk
 * or an indexed field (`useQuery(Todo, { id })`), a Collection's list by its arguments,
 * `schema.All`, or a `schema.Query`'s `process` over its schema. Undefined while nothing is
 * stored or with `null` arguments; re-renders when what it read changes.
 */
export function useQuery<S extends Schema, P extends readonly unknown[], R>(
  query: Query<S, P, R>,
  ...args: P | readonly [null]
): R | undefined;
export function useQuery<S extends Schema>(
  schema: S,
  ...args: readonly unknown[]
): DenormalizeNullable<S> | undefined;
export function useQuery(
  schema: Schema | Query<Schema, readonly unknown[], unknown>,
  ...args: readonly unknown[]
): unknown {
  return useCache(readableOf(schema) as Query<Schema, readonly unknown[], unknown>, ...args);
}
