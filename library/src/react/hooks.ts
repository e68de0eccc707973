import { useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import type { Index, IndexedEntity } from '../endpoint/Index.js';
import type { Query } from '../endpoint/Query.js';
import type { EndpointInterface } from '../endpoint/types.js';
import { isPlainObject } from '../normalize/sameData.js';
import type { Denormalize, Schema } from '../schema/denormalizeTypes.js';
import type {
  Controller,
  ResolveEmpty,
  ResolveNullable,
  ResolveType,
} from '../store/Controller.js';
import type { Store } from '../store/createStore.js';
import { keyOf } from '../store/keyOf.js';
import {
  assertFetchable,
  emptyReading,
  errorOf,
  NOTHING_READ,
  type Readable,
  type ResponseInfo,
  readStored,
} from '../store/reading.js';
import { ExpiryStatus, type State } from '../store/state.js';
import { pollFrequencyOf } from '../store/subscriptions.js';
import { renderingComponent } from './componentName.js';
import { useStore } from './context.js';
import { fetchBecause, type HookFetch, readerReason } from './fetchReason.js';
import { type Reader, readersOf } from './readers.js';

/** The Controller of the nearest DataProvider: `fetch`, `invalidate`, `expireAll`, … */
export function useController(): Controller {
  return useStore().controller;
}

/** The endpoint's arguments, or `null` for "don't fetch". */
type Args<E extends EndpointInterface> = readonly [...Parameters<E>] | readonly [null];

/**
 * What a hook shows for one call: its data, how fresh it is, and its error; and the normalized
 * result the data was read from (undefined without data), whose rows the hook depends on.
 */
interface Reading extends ResponseInfo<unknown> {
  error: unknown;
  result: unknown;
}

const NOTHING: Reading = { ...NOTHING_READ, error: undefined, result: undefined };

/** A hook's last reading and what it was read from. */
interface LastRead {
  store: Store;
  state: State;
  endpoint: Readable;
  key: string | null;
  reading: Reading;
}

/**
 * The reading of `endpoint(...args)`, whose key is `key` (null for "don't fetch"), in the store's
 * state now. A reading depends on nothing else, so the last one is given again while the store,
 * its state, the endpoint and the key are unchanged: a reader's check reads just before the
 * render it causes, and that render then reads nothing again.
 */
function readingNow(
  last: { current: LastRead | null },
  store: Store,
  endpoint: Readable,
  args: readonly unknown[],
  key: string | null,
): Reading {
  const state = store.getState();
  const previous = last.current;
  if (
    previous?.state === state &&
    previous.store === store &&
    previous.endpoint === endpoint &&
    previous.key === key
  )
    return previous.reading;
  let reading = NOTHING;
  if (key === null) {
    const data = emptyReading(endpoint);
    if (data !== undefined) reading = { ...NOTHING, data };
  } else {
    const { info, result } = readStored(store.controller.memo, endpoint, args, key, state);
    reading = { ...info, error: errorOf(state, key), result };
  }
  last.current = { store, state, endpoint, key, reading };
  return reading;
}

/**
 * Whether a component would show the same: its data, expiry status and error. A refetch that
 * only moves `expiresAt` later renders nothing; the next render reads the new time anyway, and
 * staleness is judged at render. A change that makes the data stale (`expireAll` moves
 * `expiresAt` into the past) is not the same: the render it causes refetches in the background.
 */
function sameReading(a: Reading, b: Reading): boolean {
  return (
    a.data === b.data &&
    a.expiryStatus === b.expiryStatus &&
    a.error === b.error &&
    !(b.expiresAt < a.expiresAt && Date.now() > b.expiresAt)
  );
}

/**
 * Layout effects where there is a DOM: a change missed between render and subscribing is caught
 * before paint.
 */
const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The store's reading of `endpoint(...args)`. The hook registers what its reading depends on —
 * the result's key and the rows its data was built from (see Readers) — and after a change only
 * the hooks that depend on something it changed read again; they re-render only when their
 * reading changed. That re-render is an ordinary state update, so it renders in the same batch
 * as the app's own updates made at the same time (`await fetch(deleteTodo); navigate('/')`
 * unmounts the reader before it could ask for the deleted todo again).
 */
function useReading(
  hook: string,
  endpoint: Readable,
  args: readonly unknown[],
): {
  key: string | null;
  reading: Reading;
  abandon: () => void;
  /** The key of the call the component shows (undefined before its first commit). */
  committedKey: string | null | undefined;
} {
  const store = useStore();
  const key = useCallKey(hook, endpoint, args);
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const last = useRef<LastRead>(null);
  const reading = readingNow(last, store, endpoint, args, key);
  /** What the component shows now (updated at each commit), for checks between renders. */
  const shown = useRef<Shown>({ store, reading, endpoint, args, key });
  const reader = useRef<Reader | null>(null);
  /** The store the reader is registered with (none before the first commit). */
  const registered = useRef<Store | null>(null);
  /**
   * This render suspends or throws (see `abandon`). React never commits such a render; preact
   * runs its effects anyway and never cleans them up, so they must not register the reader.
   */
  const abandoned = useRef(false);
  abandoned.current = false;
  reader.current ??= readerOf(last, shown, rerender);
  useIsomorphicLayoutEffect(() => {
    if (abandoned.current) return;
    const before = shown.current;
    shown.current = { store, reading, endpoint, args, key };
    // Registered again only when what the reading depends on may have changed.
    const same = sameReading(before.reading, reading) && before.key === key;
    if (same && registered.current === store) return;
    // The rows (and tables) the data was built from; undefined without data: any change may
    // bring it.
    const rows =
      reading.result === undefined
        ? undefined
        : (store.controller.memo.dependenciesOf(endpoint.schema, reading.result) ?? []);
    const own = reader.current as Reader;
    const first = registered.current !== store;
    readersOf(store).set(own, { key, rows });
    registered.current = store;
    // A change between this render and the first registration is caught here; later, the
    // reader was registered all along.
    if (first) own.check();
  });
  useIsomorphicLayoutEffect(
    () => () => {
      readersOf(store).remove(reader.current as Reader);
      registered.current = null;
    },
    [store],
  );
  return {
    key,
    reading,
    abandon: () => (abandoned.current = true),
    committedKey:
      process.env.NODE_ENV !== 'production' && registered.current !== null
        ? shown.current.key
        : undefined,
  };
}

/** What a hook shows, as its last commit left it. */
interface Shown {
  store: Store;
  reading: Reading;
  endpoint: Readable;
  args: readonly unknown[];
  key: string | null;
}

/**
 * A hook's reader: after a change that may concern it, it reads again what the component shows
 * and re-renders it when the reading changed.
 */
function readerOf(
  last: { current: LastRead | null },
  shown: { current: Shown },
  rerender: () => void,
): Reader {
  const reader: Reader = {
    check: () => {
      const { store, reading, endpoint, args, key } = shown.current;
      if (!sameReading(reading, readingNow(last, store, endpoint, args, key))) rerender();
    },
  };
  // Who reads what, by name, for the devtools (see Readers.namesByKey).
  if (process.env.NODE_ENV !== 'production') reader.component = renderingComponent();
  return reader;
}

/**
 * The store key of `endpoint(...args)` (null for "don't fetch"), worked out again only when the
 * endpoint or an argument changed: components pass a new `{ id }` at every render, and building
 * the URL for the key costs more than comparing it.
 */
function useCallKey(hook: string, endpoint: Readable, args: readonly unknown[]): string | null {
  const last = useRef<{
    endpoint: Readable;
    args: readonly unknown[];
    key: string | null;
  }>(null);
  const previous = last.current;
  if (previous && previous.endpoint === endpoint && sameArguments(previous.args, args))
    return previous.key;
  const key = args[0] === null ? null : keyOf(hook, endpoint, args);
  // A cache of a pure function of the arguments: a render React throws away leaves it correct.
  last.current = { endpoint, args, key };
  return key;
}

/** Arguments that give the same key: identical, or objects with identical own values. */
function sameArguments(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => sameArgument(value, b[index]));
}

function sameArgument(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && Object.is(a[key], b[key]))
  );
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

/**
 * The data for these arguments; for `null`, what the schema reads as with nothing stored
 * (undefined, or an object schema's shape), and maybe so when they may be null.
 */
type SuspenseResult<
  E extends EndpointInterface,
  A extends readonly unknown[],
> = A extends readonly [null]
  ? ResolveEmpty<E>
  : null extends A[0]
    ? ResolveNullable<E>
    : ResolveType<E>;

/** A call: the endpoint and its arguments. */
interface Call {
  endpoint: EndpointInterface;
  args: readonly unknown[];
}

/**
 * Refuses what a hook cannot fetch: a Query or an Index, and a mutation. A mutation's answer is
 * not stored as a result (see docs/decisions.md), so a hook fetching it would find nothing after
 * it and send it again at every render.
 */
function assertReadEndpoint(hook: string, endpoint: Readable): asserts endpoint is ReadEndpoint {
  assertFetchable(hook, endpoint);
  if (endpoint.sideEffect) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${hook}: ${endpoint.name} is a mutation (sideEffect), which a hook does not fetch; run it with controller.fetch(${endpoint.name}, ...args)`
        : `${hook}: ${endpoint.name} is a mutation`,
    );
  }
}

/**
 * Tells whether the data of `endpoint(...args)` is stale and whether it must be fetched before it
 * can be shown (never fetched, invalidated, a required entity deleted, or stale under
 * `invalidIfStale`). Stale data that can still be shown is refetched after render, in the
 * background. (Polling at `pollFrequency` is `useSubscription`'s, as in data-client.)
 */
function useFreshness(
  hook: string,
  controller: Controller,
  endpoint: EndpointInterface,
  args: readonly unknown[],
  key: string | null,
  reading: Reading,
): { mustFetch: boolean; stale: boolean } {
  assertReadEndpoint(hook, endpoint);
  const { result, expiryStatus, expiresAt } = reading;
  const active = args[0] !== null;
  const stale = active && Date.now() > expiresAt;
  // An `invalidIfStale` endpoint reads as InvalidIfStale even with data: once that data is
  // stale it is fetched before it is shown, not refetched in the background.
  const mustWait =
    active &&
    expiryStatus !== ExpiryStatus.Valid &&
    // Without a result, the data is at most the schema's empty shape (see emptyReading).
    (result === undefined || expiryStatus === ExpiryStatus.Invalid || !!endpoint.invalidIfStale);

  // The effects are keyed by the call's store key; the latest endpoint and args are read from a
  // ref (components pass a new `{ id }`, and hookifyResource a new endpoint, at every render).
  // Includes expiresAt: each time the data goes stale again is a new refresh.
  const refreshKey = stale && !mustWait ? `${key} @${expiresAt}` : null;
  const call = useRef<Call & { why?: HookFetch | undefined }>({ endpoint, args });
  call.current = {
    endpoint,
    args,
    // Why a refresh runs is read during the render, when React can name the component.
    why:
      process.env.NODE_ENV !== 'production' && refreshKey !== null
        ? { reason: readerReason(undefined, key, true), entry: undefined }
        : undefined,
  };
  useEffect(() => {
    // Nobody awaits a refresh: its failure is stored for the hook to read.
    const { endpoint, args, why } = call.current;
    if (refreshKey !== null) fetchHandled(controller, endpoint, args, why);
  }, [controller, refreshKey]);

  // An error is shown until its errorExpiryLength passes (until then the result is not stale);
  // then the next render fetches again.
  return { mustFetch: mustWait && (stale || expiryStatus === ExpiryStatus.Invalid), stale };
}

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
  return useSuspended(useSuspense, endpoint, args) as ResolveType<E> | undefined;
}

/** `useSuspense`, its trace ending at `entry` (the hook the component called). */
function useSuspended(
  entry: Function,
  endpoint: EndpointInterface,
  args: readonly unknown[],
): unknown {
  const controller = useController();
  const { key, reading, abandon, committedKey } = useReading('useSuspense', endpoint, args);
  const { mustFetch } = useFreshness('useSuspense', controller, endpoint, args, key, reading);
  if (mustFetch) {
    abandon();
    const why =
      process.env.NODE_ENV !== 'production'
        ? { reason: readerReason(committedKey, key, false), entry }
        : undefined;
    throw suspendOn(fetchHandled(controller, endpoint, args, why));
  }
  if (reading.error !== undefined) {
    abandon();
    throw reading.error;
  }
  return reading.data;
}

/**
 * An error a hook reports: whatever the endpoint threw, as data-client types it (a REST
 * endpoint's `NetworkError` has the HTTP `status` and the `response`).
 */
export type ErrorTypes = Error & { status?: unknown; response?: unknown };

/** What `useDLE` returns: the data, whether it is being fetched, and the error. */
export interface DataLoadingError<T, Nullable = T | undefined> {
  /**
   * Undefined while loading (and for `null` arguments); of an object schema, its shape with
   * nothing stored (`Nullable`).
   */
  data: T | Nullable;
  /** The data must be fetched before it can be shown, and that fetch is under way. */
  loading: boolean;
  error: ErrorTypes | undefined;
}

/**
 * `useSuspense` without suspending or throwing: the data, `loading` while it must be fetched
 * before it can be shown, and the error (rendered by the component instead of a boundary).
 * Fetches when the data is missing, stale or invalid, as `useSuspense` does.
 */
export function useDLE<E extends ReadEndpoint, A extends Args<E>>(
  endpoint: E,
  ...args: A
): DataLoadingError<ResolveType<E>, ResolveNullable<E>> {
  const controller = useController();
  const { key, reading, committedKey } = useReading('useDLE', endpoint, args);
  const { mustFetch } = useFreshness('useDLE', controller, endpoint, args, key, reading);
  if (mustFetch) {
    const why =
      process.env.NODE_ENV !== 'production'
        ? { reason: readerReason(committedKey, key, false), entry: useDLE }
        : undefined;
    fetchHandled(controller, endpoint, args, why);
  }
  return {
    // What it shows while it loads is nothing, in the schema's shape (see emptyReading).
    data: (mustFetch ? emptyReading(endpoint) : reading.data) as ResolveNullable<E>,
    loading: mustFetch,
    error: reading.error as ErrorTypes | undefined,
  };
}

/**
 * Fetches `endpoint(...args)` when its data is missing, stale or invalid, without reading it:
 * the promise of that fetch (of the response as the schema reads it), or undefined when the
 * stored data is fresh (or the arguments are `null`). Stale data is fetched again here at once,
 * not after render.
 */
export function useFetch<E extends ReadEndpoint, A extends Args<E>>(
  endpoint: E,
  ...args: A
): Promise<ResolveType<E>> | undefined {
  const controller = useController();
  const { key, reading, committedKey } = useReading('useFetch', endpoint, args);
  const { mustFetch, stale } = useFreshness('useFetch', controller, endpoint, args, key, reading);
  if (!mustFetch && !stale) return undefined;
  const why =
    process.env.NODE_ENV !== 'production'
      ? { reason: readerReason(committedKey, key, stale && !mustFetch), entry: useFetch }
      : undefined;
  return fetchHandled(controller, endpoint, args, why) as Promise<ResolveType<E>>;
}

/**
 * Keeps `endpoint(...args)` fresh while the component is mounted: it is fetched again whenever
 * its data is the endpoint's `pollFrequency` old (see `controller.subscribe`; components
 * subscribed to one call share one timer). It reads nothing: `useLive` also reads. An endpoint
 * without `pollFrequency` is not polled, and `null` arguments subscribe to nothing.
 */
export function useSubscription<E extends ReadEndpoint, A extends Args<E>>(
  endpoint: E,
  ...args: A
): void {
  useSubscribed('useSubscription', endpoint, args);
}

/** `useSubscription`, its errors naming `hook` (the one the component called). */
function useSubscribed(hook: string, endpoint: EndpointInterface, args: readonly unknown[]): void {
  const controller = useController();
  const key = useCallKey(hook, endpoint, args);
  assertReadEndpoint(hook, endpoint);
  // A bad pollFrequency is the component's error, shown by its boundary.
  const frequency = pollFrequencyOf(hook, endpoint);
  // Subscribed again only when the call's key or the frequency changed (see useFreshness).
  const call = useRef<Call>({ endpoint, args });
  call.current = { endpoint, args };
  useEffect(() => {
    if (key === null) return;
    if (frequency === undefined) {
      // Subscribing to an endpoint that is never polled is most likely a forgotten option.
      if (process.env.NODE_ENV !== 'production') {
        console.warn(
          `${hook}: ${call.current.endpoint.name} has no pollFrequency, so it is not polled; give it a pollFrequency (in ms) to keep it fresh`,
        );
      }
      return;
    }
    const { endpoint } = call.current;
    const args = call.current.args as Parameters<EndpointInterface>;
    controller.subscribe(endpoint, ...args);
    return () => {
      controller.unsubscribe(endpoint, ...args);
    };
  }, [controller, hook, key, frequency]);
}

/**
 * `useSuspense` that stays fresh while mounted: `useSubscription` (polling at the endpoint's
 * `pollFrequency`) and `useSuspense` of the same call.
 */
export function useLive<E extends ReadEndpoint, A extends Args<E>>(
  endpoint: E,
  ...args: A
): SuspenseResult<E, A> {
  useSubscribed('useLive', endpoint, args);
  return useSuspended(useLive, endpoint, args) as SuspenseResult<E, A>;
}

/**
 * Starts (or joins) the fetch of `endpoint(...args)` from a render (in development, `why` says
 * why: see cause.ts). Its failure is stored for the hook to read; marking the promise handled keeps a caller that ignores it from an unhandled
 * rejection, and one that awaits it still sees the rejection.
 */
function fetchHandled(
  controller: Controller,
  endpoint: EndpointInterface,
  args: readonly unknown[],
  why: HookFetch | undefined,
): Promise<unknown> {
  const fetch = () => controller.fetch(endpoint, ...(args as Parameters<EndpointInterface>));
  const request =
    process.env.NODE_ENV !== 'production' && why ? fetchBecause(controller, why, fetch) : fetch();
  request.catch(() => {});
  return request;
}

/**
 * The error of `endpoint(...args)` as the other hooks see it (a soft error only while there is no
 * data to show), without fetching; the component re-renders when it changes. Undefined for `null`
 * arguments. Mutations' errors are not stored (they reject the caller's `fetch`), so it reads
 * endpoints only, as `useSuspense`.
 */
export function useError<E extends ReadEndpoint, A extends Args<E>>(
  endpoint: E,
  ...args: A
): A extends readonly [null] ? undefined : ErrorTypes | undefined {
  return useReading('useError', endpoint, args).reading.error as A extends readonly [null]
    ? undefined
    : ErrorTypes | undefined;
}

/**
 * The endpoint's data as stored, without fetching; undefined when there is none, or when it is
 * stale and the endpoint is `invalidIfStale`. Of a Query,
 * what its `process` makes of the store's data for these arguments; of an Index, the entity
 * whose indexed field has that value.
 */
export function useCache<S extends Schema, P extends readonly unknown[], R>(
  query: Query<S, P, R>,
  ...args: P | readonly [null]
): R | undefined;
export function useCache<S extends IndexedEntity, P>(
  index: Index<S, P>,
  ...args: readonly [P] | readonly [null]
): Denormalize<S> | undefined;
export function useCache<E extends EndpointInterface>(
  endpoint: E,
  ...args: Args<E>
): ResolveNullable<E>;
export function useCache(endpoint: Readable, ...args: readonly unknown[]): unknown {
  const { data, expiryStatus, expiresAt } = useReading('useCache', endpoint, args).reading;
  // As data-client's: what useSuspense would suspend for (stale data of an `invalidIfStale`
  // endpoint) is not given either.
  return expiryStatus !== ExpiryStatus.Valid && Date.now() > expiresAt
    ? emptyReading(endpoint)
    : data;
}
