import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { EndpointInterface } from '../endpoint/types.js';
import type { Controller, ResolveType } from '../store/Controller.js';
import { ExpiryStatus, type State } from '../store/state.js';
import { useStore } from './context.js';

/** The Controller of the nearest DataProvider: `fetch`, `invalidate`, `expireAll`, … */
export function useController(): Controller {
  return useStore().controller;
}

/** The store's state, re-rendering when it changes. */
function useStoreState(): State {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}

/** The endpoint's arguments, or `null` for "don't fetch". */
type Args<E extends EndpointInterface> = readonly [...Parameters<E>] | readonly [null];

/** An endpoint that reads: `useSuspense` fetches it whenever its data is missing or stale. */
type ReadEndpoint = EndpointInterface & { readonly sideEffect?: undefined };

/** The data for these arguments: `undefined` for `null` (and maybe so when they may be null). */
type SuspenseResult<
  E extends EndpointInterface,
  A extends readonly unknown[],
> = A extends readonly [null]
  ? undefined
  : null extends A[0]
    ? ResolveType<E> | undefined
    : ResolveType<E>;

/**
 * The endpoint's data, fetching it when missing, stale or invalid. Suspends while it must wait
 * (never fetched, invalidated, or a required entity was deleted); throws errors to the nearest
 * error boundary. Stale but valid data is shown while it refetches in the background. A `null`
 * first argument means "don't fetch" and returns undefined, e.g.
 * `useSuspense(ep, id === null ? null : { id })`. Mutations (`sideEffect`) are not read.
 */
export function useSuspense<E extends ReadEndpoint, A extends Args<E>>(
  endpoint: E,
  ...args: A
): SuspenseResult<E, A>;
export function useSuspense<E extends EndpointInterface>(
  endpoint: E,
  ...args: Parameters<E> | [null]
): ResolveType<E> | undefined {
  const controller = useController();
  const state = useStoreState();
  const active = args[0] !== null;
  const { data, expiryStatus, expiresAt } = controller.getResponse(endpoint, ...args, state);
  const error = active ? controller.getError(endpoint, ...args, state) : undefined;
  const stale = active && Date.now() > expiresAt;
  // An `invalidIfStale` endpoint reads as InvalidIfStale even with data: once that data is
  // stale it is fetched before it is shown (suspend), not refetched in the background.
  const mustWait =
    active &&
    expiryStatus !== ExpiryStatus.Valid &&
    (data === undefined || expiryStatus === ExpiryStatus.Invalid || !!endpoint.invalidIfStale);

  // Stale data that can still be shown refetches after render instead of suspending. The
  // effect is keyed by the call's store key; the latest endpoint and args are read from a ref.
  const call = useRef({ endpoint, args });
  call.current = { endpoint, args };
  // Includes expiresAt: each time the data goes stale again is a new refresh.
  const refreshKey = active && stale && !mustWait ? `${endpoint.key(...args)} @${expiresAt}` : null;
  useEffect(() => {
    if (refreshKey === null) return;
    const { endpoint: current, args: currentArgs } = call.current;
    controller.fetch(current, ...(currentArgs as Parameters<E>)).catch(() => {});
  }, [controller, refreshKey]);

  // `pollFrequency`: while mounted, the result is fetched again at that interval.
  const pollFrequency = (endpoint as { pollFrequency?: number }).pollFrequency;
  const pollKey = active && pollFrequency ? endpoint.key(...args) : null;
  useEffect(() => {
    if (pollKey === null || !pollFrequency) return;
    const timer = setInterval(() => {
      const { endpoint: current, args: currentArgs } = call.current;
      controller.fetch(current, ...(currentArgs as Parameters<E>)).catch(() => {});
    }, pollFrequency);
    return () => clearInterval(timer);
  }, [controller, pollKey, pollFrequency]);

  // An error is shown until its errorExpiryLength passes; then the next render retries.
  if (mustWait && (stale || expiryStatus === ExpiryStatus.Invalid)) {
    const request = controller.fetch(endpoint, ...(args as Parameters<E>));
    // Suspense only needs to know when to retry; the error is read from the store then.
    throw request.then(
      () => undefined,
      () => undefined,
    );
  }
  if (error !== undefined) throw error;
  return data;
}

/** The endpoint's data as stored, without fetching; undefined when there is none. */
export function useCache<E extends EndpointInterface>(
  endpoint: E,
  ...args: Args<E>
): ResolveType<E> | undefined {
  const controller = useController();
  const state = useStoreState();
  return controller.getResponse(endpoint, ...args, state).data;
}
