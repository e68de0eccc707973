import type { EndpointInterface, ErrorPolicy } from '../endpoint/types.js';
import type { EntityMeta, Indexes, Tables } from '../normalize/normalize.js';

/** What the store knows about one endpoint result. */
export interface EndpointMeta {
  /** When the result (or error) was stored. */
  date: number;
  /** When the request that produced it was started: the newer request wins. */
  fetchedAt: number;
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
}

export interface State {
  /** Entity rows by entity key and pk; collection rows by collection key and row. */
  entities: Tables;
  indexes: Indexes;
  /** Normalized results by endpoint key. */
  endpoints: Record<string, unknown>;
  meta: Record<string, EndpointMeta>;
  entitiesMeta: Record<string, Record<string, EntityMeta>>;
  optimistic: readonly OptimisticEntry[];
  /** When `resetEntireStore` last ran: responses to requests started before it are dropped. */
  lastReset: number;
}

export function initialState(lastReset = 0): State {
  return {
    entities: {},
    indexes: {},
    endpoints: {},
    meta: {},
    entitiesMeta: {},
    optimistic: [],
    lastReset,
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
