import type { EndpointInterface } from '../endpoint/types.js';
import type { MemoCache } from '../normalize/denormalize.js';
import { schemaOf } from '../normalize/schemaOf.js';
import { indexKey } from '../normalize/tables.js';
import { isInvalid } from '../schema/invalid.js';
import type { QueryContext } from '../schema/types.js';
import { ExpiryStatus, type State } from './state.js';

/** What a read returns: the data, how fresh it is, and when it goes stale. */
export interface ResponseInfo<T> {
  data: T | undefined;
  expiryStatus: ExpiryStatus;
  expiresAt: number;
}

/** The reading of a call with `null` arguments ("don't fetch"). */
export const NOTHING_READ: ResponseInfo<never> = {
  data: undefined,
  expiryStatus: ExpiryStatus.Valid,
  expiresAt: 0,
};

/**
 * The stored result of `endpoint(...args)`, whose key is `key`, as a component sees it. Results
 * the store does not hold may still be found from the tables (`get({ id })` of a stored entity).
 */
export function readResult(
  memo: MemoCache,
  endpoint: EndpointInterface,
  args: readonly unknown[],
  key: string,
  state: State,
): ResponseInfo<unknown> {
  const meta = state.meta.get(key);
  let result = state.endpoints.get(key);
  let expiresAt = meta?.expiresAt ?? 0;
  const schema = schemaOf(endpoint.schema);
  if (result === undefined && schema?.queryKey && !endpoint.sideEffect && !meta?.invalidated) {
    result = schema.queryKey(args, queryContext(state));
  }
  if (result === undefined) {
    const expiryStatus = meta?.invalidated ? ExpiryStatus.Invalid : ExpiryStatus.InvalidIfStale;
    return { data: undefined, expiryStatus, expiresAt };
  }
  const data = memo.denormalize(endpoint.schema, result, state.entities, args);
  if (isInvalid(data)) {
    const expiryStatus =
      meta?.error !== undefined ? ExpiryStatus.InvalidIfStale : ExpiryStatus.Invalid;
    return { data: undefined, expiryStatus, expiresAt };
  }
  if (meta === undefined) expiresAt = inferredExpiry(endpoint, result, state);
  const expiryStatus = meta?.invalidated
    ? ExpiryStatus.Invalid
    : endpoint.invalidIfStale
      ? ExpiryStatus.InvalidIfStale
      : ExpiryStatus.Valid;
  return { data, expiryStatus, expiresAt };
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
    findByIndex: (entity, field, value) => state.indexes.get(entity)?.get(indexKey(field, value)),
  };
}

/** A result found from the tables alone is as fresh as the entity it came from. */
function inferredExpiry(endpoint: EndpointInterface, result: unknown, state: State): number {
  const key = (endpoint.schema as { key?: unknown } | undefined)?.key;
  if (typeof key !== 'string' || typeof result !== 'string') return 0;
  return state.entitiesMeta.get(key)?.get(result)?.expiresAt ?? 0;
}
