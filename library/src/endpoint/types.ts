import type { Schema } from '../schema/denormalizeTypes.js';

/** How the store sees a just-stored state when it builds an optimistic response. */
export interface SnapshotInterface {
  readonly fetchedAt: number;
  getResponse<E extends EndpointInterface>(
    endpoint: E,
    ...args: readonly unknown[]
  ): { data: unknown; expiryStatus: number; expiresAt: number };
  /** The error a component would be shown for `endpoint(...args)` in the snapshot's state. */
  getError<E extends EndpointInterface>(endpoint: E, ...args: readonly unknown[]): unknown;
  /**
   * Thrown from `getOptimisticResponse` to show nothing optimistic for this call (`throw
   * snapshot.abort`, current data-client's form of `throw new AbortOptimistic()`).
   */
  readonly abort: AbortOptimistic;
}

/** How a failed request is kept: `soft` keeps the stale data shown, `hard` shows the error. */
export type ErrorPolicy = 'soft' | 'hard' | undefined;

/** The function an endpoint runs. `...args: any` (not `any[]`) accepts any argument list. */
export type FetchFunction = (...args: any) => Promise<unknown>;

/**
 * What the store runs: a callable that fetches, a `key` per call, and options. RestEndpoint is
 * one; any object of this shape works with the Controller.
 */
export interface EndpointInterface<
  F extends FetchFunction = FetchFunction,
  S extends Schema | undefined = Schema | undefined,
  M extends true | undefined = true | undefined,
> {
  (...args: Parameters<F>): ReturnType<F>;
  /** Identifies the call's result in the store: equal keys share one result. */
  key(...args: Parameters<F>): string;
  /**
   * Identifies the request, for deduplicating identical GETs in flight; `key` by default. They
   * differ when several requests feed one result (pages of one list).
   */
  requestKey?(...args: Parameters<F>): string;
  readonly name: string;
  readonly schema?: S;
  /**
   * Aborts the caller's request (RestEndpoint's `signal` option). A read shared by several callers
   * goes on until each of them has aborted; the endpoint must then have `extend`, to be run with
   * the shared request's own signal.
   */
  readonly signal?: AbortSignal;
  /** True for mutations: never deduplicated, may be optimistic; `useSuspense` reads only the others. */
  readonly sideEffect?: M;
  /** How long a result stays fresh, in ms (60 s by default). */
  readonly dataExpiryLength?: number;
  /** How long an error stays before a retry, in ms (1 s by default). */
  readonly errorExpiryLength?: number;
  /** Stale data must be fetched again before it is shown. */
  readonly invalidIfStale?: boolean;
  /** While subscribed (`useLive`, `useSubscription`), the result is fetched again this often, in ms. */
  readonly pollFrequency?: number;
  /** 'soft' errors keep showing the data held before; 5xx are soft by default. */
  errorPolicy?(error: unknown): ErrorPolicy;
  /** The response to show until the server answers; throw AbortOptimistic to skip. */
  getOptimisticResponse?(snapshot: SnapshotInterface, ...args: readonly unknown[]): unknown;
  /** Whether a stored key belongs to this endpoint (for invalidateAll / expireAll). */
  testKey?(key: string): boolean;
}

/** Thrown from `getOptimisticResponse` to show nothing optimistic for this call. */
export class AbortOptimistic extends Error {
  override name = 'AbortOptimistic';
}
