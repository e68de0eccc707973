import { useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import type { EndpointInterface } from '../endpoint/types.js';
import type { Controller, ResolveType } from '../store/Controller.js';
import type { Store } from '../store/createStore.js';
import { ExpiryStatus } from '../store/state.js';
import { useStore } from './context.js';

/** The Controller of the nearest DataProvider: `fetch`, `invalidate`, `expireAll`, … */
export function useController(): Controller {
  return useStore().controller;
}

/** The endpoint's arguments, or `null` for "don't fetch". */
type Args<E extends EndpointInterface> = readonly [...Parameters<E>] | readonly [null];

/** What a hook shows for one call: its data, how fresh it is, and its error. */
interface Reading {
  data: unknown;
  expiryStatus: ExpiryStatus;
  expiresAt: number;
  error: unknown;
}

const NOTHING: Reading = {
  data: undefined,
  expiryStatus: ExpiryStatus.Valid,
  expiresAt: 0,
  error: undefined,
};

function read(store: Store, endpoint: EndpointInterface, args: readonly unknown[]): Reading {
  if (args[0] === null) return NOTHING;
  const state = store.getState();
  const { controller } = store;
  const { data, expiryStatus, expiresAt } = controller.getResponse(
    endpoint,
    ...(args as Parameters<EndpointInterface>),
    state,
  );
  const error = controller.getError(endpoint, ...(args as Parameters<EndpointInterface>), state);
  return { data, expiryStatus, expiresAt, error };
}

function sameReading(a: Reading, b: Reading): boolean {
  return (
    a.data === b.data &&
    a.expiryStatus === b.expiryStatus &&
    a.expiresAt === b.expiresAt &&
    a.error === b.error
  );
}

/**
 * Layout effects where there is a DOM: a change missed between render and subscribing is caught
 * before paint.
 */
const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The store's reading of `endpoint(...args)`, read at every render (the reads are memoized: an
 * unchanged result costs a check of its rows). A change to the store re-renders the component
 * only when its reading changed, and through an ordinary state update: it renders in the same
 * batch as the app's own updates made at the same time (`await fetch(deleteTodo); navigate('/')`
 * unmounts the reader before it could ask for the deleted todo again).
 */
function useReading(endpoint: EndpointInterface, args: readonly unknown[]): Reading {
  const store = useStore();
  const key = args[0] === null ? null : endpoint.key(...(args as Parameters<EndpointInterface>));
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const reading = read(store, endpoint, args);
  const shown = useRef({ reading, endpoint, args });
  useIsomorphicLayoutEffect(() => {
    shown.current = { reading, endpoint, args };
  });
  useIsomorphicLayoutEffect(() => {
    const check = () => {
      const { reading: before, endpoint: current, args: currentArgs } = shown.current;
      if (!sameReading(before, read(store, current, currentArgs))) rerender();
    };
    check();
    return store.subscribe(check);
  }, [store, key]);
  return reading;
}

/** One promise per pending request, so that every render while it is pending throws the same. */
const suspensions = new WeakMap<Promise<unknown>, Promise<void>>();
function suspendOn(request: Promise<unknown>): Promise<void> {
  let suspension = suspensions.get(request);
  if (!suspension) {
    // Suspense only needs to know when to retry; the outcome is read from the store then.
    suspension = request.then(
      () => undefined,
      () => undefined,
    );
    suspensions.set(request, suspension);
  }
  return suspension;
}

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
  const { data, expiryStatus, expiresAt, error } = useReading(endpoint, args);
  const active = args[0] !== null;
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
    throw suspendOn(controller.fetch(endpoint, ...(args as Parameters<E>)));
  }
  if (error !== undefined) throw error;
  return data as ResolveType<E> | undefined;
}

/** The endpoint's data as stored, without fetching; undefined when there is none. */
export function useCache<E extends EndpointInterface>(
  endpoint: E,
  ...args: Args<E>
): ResolveType<E> | undefined {
  return useReading(endpoint, args).data as ResolveType<E> | undefined;
}
