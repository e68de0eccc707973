import type { Query } from '../endpoint/Query.js';
import type { EndpointInterface } from '../endpoint/types.js';
import type { MemoCache } from '../normalize/denormalize.js';
import { schemaOf } from '../normalize/schemaOf.js';
import { indexKey } from '../normalize/tables.js';
import type { Schema } from '../schema/denormalizeTypes.js';
import { describeValue } from '../schema/describe.js';
import { isInvalid } from '../schema/invalid.js';
import { ObjectSchema } from '../schema/Object.js';
import type { QueryContext } from '../schema/types.js';
import { keyOf } from './keyOf.js';
import { ExpiryStatus, type State } from './state.js';

/** What a read returns: the data, how fresh it is, and when it goes stale. */
export interface ResponseInfo<T, Nullable = T | undefined> {
  /** `Nullable`: what an object schema reads as with nothing stored is its shape (emptyReading). */
  data: Nullable;
  expiryStatus: ExpiryStatus;
  expiresAt: number;
}

/** The reading of a call with `null` arguments ("don't fetch"). */
export const NOTHING_READ: ResponseInfo<never> = {
  data: undefined,
  expiryStatus: ExpiryStatus.Valid,
  expiresAt: 0,
};

/** What can be read from the store: an endpoint, or a Query or an Index (which are never fetched). */
export type Readable = Pick<EndpointInterface, 'key' | 'schema' | 'sideEffect' | 'invalidIfStale'>;

/**
 * A read, with the normalized result its data was read from (undefined without data): a hook
 * looks up what it depends on from it (`memo.dependenciesOf`) when it registers.
 */
export interface StoredReading {
  info: ResponseInfo<unknown>;
  result: unknown;
}

/**
 * What `readable` reads as while the store holds nothing for it (arguments `null`, or before its
 * first response): an object schema's shape with its placeholders (`{ results: undefined,
 * nextPage: '' }`), as data-client reads it; undefined for any other schema, and for a Query.
 */
export function emptyReading(readable: Readable): unknown {
  if (isQuery(readable)) return undefined;
  const schema = schemaOf(readable.schema);
  return schema instanceof ObjectSchema ? schema.emptyReading() : undefined;
}

/** The reading of a call with `null` arguments: nothing, in the schema's shape. */
export function nothingRead(readable: Readable): ResponseInfo<unknown> {
  const data = emptyReading(readable);
  return data === undefined ? NOTHING_READ : { ...NOTHING_READ, data };
}

/**
 * Refuses what cannot be fetched: a Query or an Index (or another readable that is no endpoint)
 * only reads what the store holds.
 */
export function assertFetchable(
  caller: string,
  readable: Readable,
): asserts readable is EndpointInterface {
  if (typeof readable !== 'function') {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${caller}: only endpoints can be fetched; a Query or an Index is read with useCache(query, ...args) or controller.getResponse`
        : `${caller}: only endpoints can be fetched`,
    );
  }
}

/**
 * The stored result of `endpoint(...args)`, whose key is `key`, as a component sees it. Results
 * the store does not hold may still be found from the tables (`get({ id })` of a stored entity).
 * Returned with the normalized result it was read from.
 */
export function readStored(
  memo: MemoCache,
  endpoint: Readable,
  args: readonly unknown[],
  key: string,
  state: State,
): StoredReading {
  const meta = state.meta.get(key);
  let result = state.endpoints.get(key);
  let expiresAt = meta?.expiresAt ?? 0;
  const schema = schemaOf(endpoint.schema);
  if (result === undefined && schema?.queryKey && !endpoint.sideEffect && !meta?.invalidated) {
    result = memo.sameAsBefore(schema, key, schema.queryKey(args, queryContext(state)));
  }
  if (result === undefined) {
    const expiryStatus = meta?.invalidated ? ExpiryStatus.Invalid : ExpiryStatus.InvalidIfStale;
    const data = emptyReading(endpoint);
    return { info: { data, expiryStatus, expiresAt }, result: undefined };
  }
  let data = memo.denormalize(endpoint.schema, result, state.entities, args);
  if (isInvalid(data)) {
    const expiryStatus =
      meta?.error !== undefined ? ExpiryStatus.InvalidIfStale : ExpiryStatus.Invalid;
    return { info: { data: undefined, expiryStatus, expiresAt }, result: undefined };
  }
  if (isQuery(endpoint)) data = endpoint.processed(data, args);
  if (meta === undefined) expiresAt = inferredExpiry(memo, endpoint.schema, result, state);
  const expiryStatus = meta?.invalidated
    ? ExpiryStatus.Invalid
    : endpoint.invalidIfStale
      ? ExpiryStatus.InvalidIfStale
      : ExpiryStatus.Valid;
  return { info: { data, expiryStatus, expiresAt }, result };
}

/**
 * Splits a read's arguments (`getResponse`'s, `getError`'s, `get`'s) into the call's arguments
 * and the state (the last one). Forgetting the state (`getResponse(ep, { id })`) would read the
 * arguments as the state and fail far from the cause, or read `{ id }` as missing its URL
 * parameter.
 */
export function argsAndStateOf(
  caller: string,
  argsAndState: readonly unknown[],
): { args: readonly unknown[]; state: State } {
  const state = argsAndState.at(-1);
  // Told by its shape, not its class: a state may come from another copy of the library.
  if (typeof (state as { meta?: { get?: unknown } } | null)?.meta?.get !== 'function') {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${caller}: the last argument must be the state (controller.getState()), not ${describeValue(state)}`
        : `${caller}: the last argument is not the state`,
    );
  }
  return { args: argsAndState.slice(0, -1), state: state as State };
}

/** `controller.getResponse`: the stored result of a call, its arguments then the state. */
export function storedResponse(
  memo: MemoCache,
  caller: string,
  readable: Readable,
  argsAndState: readonly unknown[],
): ResponseInfo<unknown> {
  const { args, state } = argsAndStateOf(caller, argsAndState);
  if (args[0] === null) return nothingRead(readable);
  return readStored(memo, readable, args, keyOf(caller, readable, args), state).info;
}

/** `controller.getError`: the error to show for a call, its arguments then the state. */
export function storedError(
  caller: string,
  readable: Readable,
  argsAndState: readonly unknown[],
): unknown {
  const { args, state } = argsAndStateOf(caller, argsAndState);
  return args[0] === null ? undefined : errorOf(state, keyOf(caller, readable, args));
}

/**
 * `controller.get`: what `schema` (or a Query) reads for these arguments from the tables alone,
 * its arguments then the state; undefined when the store does not hold it (or holds it INVALID).
 */
export function tablesReading(
  memo: MemoCache,
  caller: string,
  schema: Schema | Readable,
  argsAndState: readonly unknown[],
): unknown {
  const { args, state } = argsAndStateOf(caller, argsAndState);
  // A Query is read as useQuery reads it: its process over the reading of its schema.
  if (isQuery(schema)) return readStored(memo, schema, args, schema.key(...args), state).info.data;
  const result = schemaOf(schema)?.queryKey?.(args, queryContext(state));
  if (result === undefined) return undefined;
  const data = memo.denormalize(schema, result, state.entities, args);
  return isInvalid(data) ? undefined : data;
}

/**
 * A Query, told by its method rather than by `instanceof`, which would put the class into the
 * bundle of every app, whether it reads a Query or not.
 */
export function isQuery(readable: unknown): readable is Query<Schema, readonly unknown[], unknown> {
  return typeof (readable as Partial<Query<Schema>>).processed === 'function';
}

/** The error to show for the result under `key`: a hard one always, a soft one with no data. */
export function errorOf(state: State, key: string): unknown {
  const meta = state.meta.get(key);
  if (meta?.error === undefined) return undefined;
  if (meta.errorPolicy === 'soft' && state.endpoints.has(key)) return undefined;
  return meta.error;
}

/** What schemas that can find their result from the arguments read from a state. */
export function queryContext(state: State): QueryContext {
  return {
    getRow: (table, pk) => state.entities.get(table)?.get(pk),
    hasTable: (table) => state.entities.has(table),
    findByIndex: (entity, field, value) => state.indexes.get(entity)?.get(indexKey(field, value)),
    find(schema, args) {
      return schemaOf(schema)?.queryKey?.(args, this);
    },
  };
}

/**
 * A result found from the tables alone is as fresh as the rows it was read from: an entity's, or
 * the stalest of those an object of them (`{ data: Article, meta }`) was read from, as in
 * data-client.
 */
function inferredExpiry(memo: MemoCache, schema: unknown, result: unknown, state: State): number {
  const key = (schema as { key?: unknown } | undefined)?.key;
  if (typeof key === 'string' && typeof result === 'string')
    return state.entitiesMeta.get(key)?.get(result)?.expiresAt ?? 0;
  if (typeof result !== 'object' || result === null) return 0;
  let expiresAt = Infinity;
  for (const { table, pk } of memo.dependenciesOf(schema, result) ?? []) {
    if (pk !== null)
      expiresAt = Math.min(expiresAt, state.entitiesMeta.get(table)?.get(pk)?.expiresAt ?? 0);
  }
  return expiresAt === Infinity ? 0 : expiresAt;
}
