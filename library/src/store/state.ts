import type { EndpointInterface, ErrorPolicy } from '../endpoint/types.js';
import { PersistentMap } from '../normalize/persistentMap.js';
import { emptyTables, type NormalizedTables } from '../normalize/tables.js';

/** What the store knows about one endpoint result. */
export interface EndpointMeta {
  /** When the result (or error) was stored. */
  date: number;
  /** When the request that produced it was started: the newer request wins. */
  fetchedAt: number;
  /**
   * The number of that request in the store's sequence: of two started in one millisecond, the
   * later one wins. Undefined for an answer written with a `fetchedAt` of its own.
   */
  requestId?: number;
  /** After this time the result is stale and is fetched again when read. */
  expiresAt: number;
  error?: unknown;
  errorPolicy?: ErrorPolicy;
  /** Set by `invalidate`: the next read must fetch and suspend. */
  invalidated?: true;
}

/** A mutation shown before the server answers. */
export interface OptimisticEntry {
  endpoint: EndpointInterface;
  args: readonly unknown[];
  key: string;
  fetchedAt: number;
  /** Identifies the request (see FetchAction): its answer settles this entry and no other. */
  requestId: number;
}

/**
 * Everything the store holds, as one immutable snapshot. Its tables are persistent maps
 * (`PersistentMap`): a new state shares every row it did not change with the one before, so
 * states are cheap to keep (the devtools keep recent ones) and safe to read at any time.
 *
 * Read it through the controller (`getResponse`, `get`) rather than by its shape; for a raw
 * look, `state.entities.get('Todo')?.get('5')` is a row as stored, and `JSON.stringify(state)`
 * writes the whole of it as plain JSON. To start another store from it (a server render's state
 * in the browser), `stateToJSON` and `stateFromJSON`.
 */
export interface State extends NormalizedTables {
  /** Normalized results by endpoint key. */
  endpoints: PersistentMap<unknown>;
  meta: PersistentMap<EndpointMeta>;
  optimistic: readonly OptimisticEntry[];
  /** When `resetEntireStore` last ran: responses to requests started before it are dropped. */
  lastReset: number;
  /**
   * The last number of the store's sequence (request ids and writes, see SetResponseAction) this
   * state holds: a store started from it numbers on from there.
   */
  sequence: number;
}

/** An empty store's state (`lastReset`: when the store was last reset). */
export function initialState(lastReset = 0): State {
  return {
    ...emptyTables(),
    endpoints: PersistentMap.empty(),
    meta: PersistentMap.empty(),
    optimistic: [],
    lastReset,
    sequence: 0,
  };
}

/** How fresh a read result is. */
export const ExpiryStatus = {
  /** Must be fetched before it is shown (invalidated, or a required entity is INVALID). */
  Invalid: 1,
  /** Shown when present, fetched when missing or stale. */
  InvalidIfStale: 2,
  Valid: 3,
} as const;
export type ExpiryStatus = (typeof ExpiryStatus)[keyof typeof ExpiryStatus];
