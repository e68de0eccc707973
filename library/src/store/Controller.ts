import type { Index, IndexedEntity } from '../endpoint/Index.js';
import type { Query } from '../endpoint/Query.js';
import type { EndpointRegistry } from '../endpoint/registry.js';
import type { EndpointInterface, SnapshotInterface } from '../endpoint/types.js';
import type { AnswerChange } from '../normalize/changes.js';
import { MemoCache } from '../normalize/denormalize.js';
import { schemaOf } from '../normalize/schemaOf.js';
import type {
  Denormalize,
  DenormalizeNullable,
  EmptyReading,
  Schema,
} from '../schema/denormalizeTypes.js';
import { describeValue } from '../schema/describe.js';
import type { Action, TestKey } from './actions.js';
import type { CallCauses } from './cause.js';
import { keyOf } from './keyOf.js';
import {
  assertFetchable,
  type Readable,
  type ResponseInfo,
  storedError,
  storedResponse,
  tablesReading,
} from './reading.js';
import { type Outcome, request, storeAnswer, throwIfRefused } from './request.js';
import { type RequestsInFlight, resultKeysOf, shareRead } from './requestsInFlight.js';
import { ResetError } from './resetError.js';
import { snapshotOf } from './snapshot.js';
import { ExpiryStatus, type State } from './state.js';
import { Subscriptions } from './subscriptions.js';

/**
 * An endpoint's arguments then one more value; an endpoint whose arguments are all optional may
 * be given the value alone (`setResponse(list, response)`, `getResponse(list, state)`), as in
 * data-client. `[...P, V]` alone would make those arguments required.
 */
type ArgsThen<P extends readonly unknown[], V> = [...P, V] | ([] extends P ? [V] : never);

/** A read's arguments then the state: `null` reads nothing. */
type ArgsThenState<P extends readonly unknown[]> = ArgsThen<P, State> | [null, State];

/**
 * `getResponse` of an endpoint, of a Query (its data is what `process` returns), or of an Index
 * (the entity found by the indexed field).
 */
interface GetResponse {
  <S extends Schema, P extends readonly unknown[], R>(
    query: Query<S, P, R>,
    ...argsAndState: ArgsThenState<P>
  ): ResponseInfo<R>;
  <S extends IndexedEntity, P>(
    index: Index<S, P>,
    ...argsAndState: [P, State] | [null, State]
  ): ResponseInfo<Denormalize<S>>;
  <E extends EndpointInterface>(
    endpoint: E,
    ...argsAndState: ArgsThenState<Parameters<E>>
  ): ResponseInfo<ResolveType<E>, ResolveNullable<E>>;
}

/**
 * What `fetch` resolves to: the schema's reading of the response (for a delete, the entity it
 * removed), or what the endpoint resolves to when it has no schema.
 */
export type ResolveType<E extends EndpointInterface> = [NonNullable<E['schema']>] extends [never]
  ? ReturnType<E> extends PromiseLike<infer R>
    ? R
    : ReturnType<E>
  : Denormalize<NonNullable<E['schema']>>;

/**
 * What a read of `E` may give: its data, or what its schema reads as with nothing stored (an
 * object schema's shape, `{ results: undefined, nextPage: '' }`; otherwise undefined).
 */
export type ResolveNullable<E extends EndpointInterface> = [NonNullable<E['schema']>] extends [
  never,
]
  ? ResolveType<E> | undefined
  : DenormalizeNullable<NonNullable<E['schema']>>;

/** What a read of `E` gives with nothing stored (`null` arguments): see ResolveNullable. */
export type ResolveEmpty<E extends EndpointInterface> = [NonNullable<E['schema']>] extends [never]
  ? undefined
  : EmptyReading<NonNullable<E['schema']>>;

type KeyFilter = TestKey | { testKey: TestKey };

/**
 * The key test of a filter. An endpoint with a `testKey` (RestEndpoint) is itself a function, so
 * it is recognized by its `testKey` first: calling the endpoint as the test would fetch.
 */
function testKeyOf(caller: string, filter: KeyFilter): TestKey {
  const withTestKey = filter as { testKey?: unknown } | null | undefined;
  if (typeof withTestKey?.testKey === 'function')
    return (key) => (filter as { testKey: TestKey }).testKey(key);
  if (typeof filter === 'function') return filter;
  // Refused here, by name: the store would otherwise fail on its first key, or on none.
  throw new TypeError(
    process.env.NODE_ENV !== 'production'
      ? `${caller}: the filter must be an endpoint (such as TodoResource.getList) or { testKey(key) }, not ${describeValue(filter)}`
      : `${caller}: the filter is not an endpoint`,
  );
}

export interface StoreAccess {
  /** Runs an action through the store; for an answer, returns how the store took it (see Reduced). */
  dispatch(action: Action): AnswerChange | undefined;
  getState(): State;
  /** The endpoints the store knows by name (development builds only). */
  endpoints: EndpointRegistry | undefined;
}

export type { ResponseInfo };

/**
 * Runs endpoints and reads the store. It works with any endpoint that is a callable with
 * `key(...args)`, an optional `schema`, `sideEffect` and expiry options.
 *
 * Every public method is a bound function (an arrow property), so that
 * `const { fetch, invalidate } = useController()` works as data-client's documentation writes it.
 * The methods that change the store return a promise that resolves once the change is stored.
 */

export class Controller {
  /** Shared by every read, so results keep their identity across renders. */
  readonly memo = new MemoCache();
  private readonly inflight: RequestsInFlight = new Map();
  /** Aborted by the next `resetEntireStore`: the requests started until then store nothing. */
  private untilReset = new AbortController();
  /**
   * Why each action runs and, while asked, where the app called it (see cause.ts): set by
   * createStore in development builds, for the devtools. Declared only: production code has none.
   */
  declare causes?: CallCauses;
  private readonly subscriptions = new Subscriptions(this);

  /**
   * The last number of the store's sequence: each request takes the next one when it starts, and
   * each answer the next one when it is stored. Numbers order what happened in one millisecond
   * too, where clock readings tie: an answer to a request numbered before a delete's write cannot
   * know of that delete.
   */
  private sequence: number;

  /**
   * The endpoints this store knows by name (those that ran in it, their resources' others, and
   * the resources given to createStore): a replay of a recorded session finds its endpoints here.
   * Undefined in production builds, which leave the devtools out.
   */
  readonly endpoints: EndpointRegistry | undefined;

  constructor(private readonly store: StoreAccess) {
    // A store started from another's state numbers on after everything that state holds.
    this.sequence = store.getState().sequence;
    this.endpoints = store.endpoints;
  }

  /** The state components see: committed data plus pending optimistic responses. */
  getState = (): State => this.store.getState();

  /**
   * Runs the endpoint and stores its normalized response. Identical GETs in flight share one
   * request; the endpoint's `signal` aborts the caller's share of it (see SharedRequest), and an
   * aborted request stores nothing. Resolves after the response is stored, with the response as
   * the endpoint's schema reads it (the entities the server sent, as class instances): a page
   * for `getPage`, the created entity for `push`, the deleted entity for `delete`.
   */
  fetch = <E extends EndpointInterface>(
    endpoint: E,
    ...args: Parameters<E>
  ): Promise<ResolveType<E>> => {
    let key: string;
    /** Identifies a read's request, to share it; mutations are never shared. */
    let requestKey: string | undefined;
    try {
      key = keyOf('controller.fetch', endpoint, args);
      assertFetchable('controller.fetch', endpoint);
      if (!endpoint.sideEffect) requestKey = endpoint.requestKey?.(...args) ?? key;
    } catch (error) {
      // e.g. a missing URL parameter: the caller gets a rejected promise, like any failure.
      return Promise.reject(error);
    }
    const { signal } = endpoint;
    // As fetch does: nothing is sent, and nothing stored.
    if (signal?.aborted) return Promise.reject(signal.reason);
    const run = (ownSignal?: AbortSignal) => {
      const started = { fetchedAt: Date.now(), requestId: ++this.sequence };
      this.store.dispatch({ type: 'fetch', endpoint, args, key, ...started });
      const storeOutcome = (outcome: Outcome) =>
        storeAnswer(this.store, ++this.sequence, endpoint, outcome, key, started);
      return request(endpoint, args, this.untilReset.signal, storeOutcome, ownSignal);
    };
    // A mutation is its caller's alone, and so is its signal.
    return (
      requestKey === undefined ? run() : shareRead(this.inflight, requestKey, key, endpoint, run)
    ) as Promise<ResolveType<E>>;
  };

  /**
   * The stored data when it is still fresh (not invalid and not expired), otherwise `fetch`'s
   * promise of it.
   */
  fetchIfStale = <E extends EndpointInterface>(
    endpoint: E,
    ...args: Parameters<E>
  ): ResolveType<E> | Promise<ResolveType<E>> => {
    const { data, expiresAt, expiryStatus } = this.getResponse(endpoint, ...args, this.getState());
    const fresh = expiryStatus !== ExpiryStatus.Invalid && Date.now() <= expiresAt;
    // Fresh data is never the empty reading: that has no result, so it is never fresh.
    return fresh && data !== undefined ? (data as ResolveType<E>) : this.fetch(endpoint, ...args);
  };

  /** Stores a response as if `endpoint(...args)` had answered it; the last argument is the response. */
  setResponse = <E extends EndpointInterface>(
    endpoint: E,
    ...argsAndResponse: ArgsThen<Parameters<E>, unknown>
  ): Promise<void> =>
    this.resolve(endpoint, {
      args: argsAndResponse.slice(0, -1),
      response: argsAndResponse.at(-1),
    });

  /** Stores an error for `endpoint(...args)`; the last argument is the error. */
  setError = <E extends EndpointInterface>(
    endpoint: E,
    ...argsAndError: ArgsThen<Parameters<E>, unknown>
  ): Promise<void> =>
    this.resolve(endpoint, { args: argsAndError.slice(0, -1), error: argsAndError.at(-1) });

  /**
   * Stores a response or error. `fetchedAt` is when its request started (tests set it for
   * races); without it, the answer was requested when it is written: one clock reading for both.
   */
  resolve = (endpoint: EndpointInterface, outcome: Outcome): Promise<void> => {
    const key = keyOf('controller.setResponse', endpoint, outcome.args);
    storeAnswer(this.store, ++this.sequence, endpoint, outcome, key);
    return Promise.resolve();
  };

  /** The next read of this result must fetch (and suspend). A `null` argument does nothing. */
  invalidate = <E extends EndpointInterface>(
    endpoint: E,
    ...args: Parameters<E> | [null]
  ): Promise<void> =>
    args[0] === null
      ? Promise.resolve()
      : this.dispatch({ type: 'invalidate', key: keyOf('controller.invalidate', endpoint, args) });

  /** Invalidates every stored result whose key passes the filter. */
  invalidateAll = (filter: KeyFilter): Promise<void> =>
    this.dispatch({
      type: 'invalidateAll',
      testKey: testKeyOf('controller.invalidateAll', filter),
    });

  /** Marks every matching result stale: it is still shown, and fetched again when read. */
  expireAll = (filter: KeyFilter): Promise<void> =>
    this.dispatch({ type: 'expireAll', testKey: testKeyOf('controller.expireAll', filter) });

  /**
   * Keeps `endpoint(...args)` fresh until `unsubscribe`: it is fetched again whenever its data
   * is the endpoint's `pollFrequency` old. Subscribers of one call share one timer, at the
   * shortest frequency any of them asked for. Rejects an endpoint that has no `pollFrequency`
   * (nothing says how often to poll); a `null` argument does nothing.
   */
  subscribe = <E extends EndpointInterface>(
    endpoint: E,
    ...args: Parameters<E> | [null]
  ): Promise<void> => this.subscriptions.subscribe(endpoint, args);

  /** Ends one `subscribe` of `endpoint(...args)`; polling stops when none is left. */
  unsubscribe = <E extends EndpointInterface>(
    endpoint: E,
    ...args: Parameters<E> | [null]
  ): Promise<void> => this.subscriptions.unsubscribe(endpoint, args);

  /**
   * Empties the store; responses to requests already in flight are dropped, and the reads in
   * flight reject at once with a ResetError.
   */
  resetEntireStore = (): Promise<void> => {
    this.inflight.clear();
    const ended = this.untilReset;
    this.untilReset = new AbortController();
    const reset = this.dispatch({ type: 'reset', date: Date.now() });
    // After the reset is stored, so that whoever awaits a read finds the empty store.
    ended.abort(new ResetError());
    return reset;
  };

  /**
   * The keys of the results whose read is in flight now (reads only: mutations are never
   * shared). For tools that show what is loading, such as the devtools' Results view.
   */
  fetching = (): string[] => resultKeysOf(this.inflight);

  /**
   * The results polled now (`subscribe`, `useSubscription`, `useLive`): by result key, the
   * frequency (ms) each is fetched again at, the shortest its subscribers asked for. For tools
   * that show what is kept live, such as the devtools' Results view. A copy: changing it
   * changes no polling.
   */
  polling = (): Map<string, number> => this.subscriptions.frequencies();

  /** Reads a result from `state` (the last argument), as a component would see it. */
  getResponse: GetResponse = (endpoint: Readable, ...argsAndState: readonly unknown[]) =>
    storedResponse(this.memo, 'controller.getResponse', endpoint, argsAndState) as never;

  /**
   * `getResponse` under the name current data-client gives the read with its expiry (data,
   * `expiryStatus`, `expiresAt`).
   */
  getResponseMeta: GetResponse = (endpoint: Readable, ...argsAndState: readonly unknown[]) =>
    storedResponse(this.memo, 'controller.getResponseMeta', endpoint, argsAndState) as never;

  /** The error to show for a result: hard errors always, soft ones only when there is no data. */
  getError = <E extends EndpointInterface>(
    endpoint: E,
    ...argsAndState: ArgsThenState<Parameters<E>>
  ): unknown => storedError('controller.getError', endpoint, argsAndState);

  /**
   * A read-only view of `state` at `fetchedAt` (0 when not given, as in data-client), given to
   * optimistic updaters.
   */
  snapshot = (state: State, fetchedAt = 0): SnapshotInterface => snapshotOf(this, state, fetchedAt);

  /**
   * What `schema` reads for these arguments from the tables alone, without an endpoint: an
   * entity by its pk (`get(Todo, { id: 5 }, state)`) or an indexed field, a collection's row by
   * its arguments (`get(TodoResource.getList.schema, { userId: 1 }, state)`). Undefined when the
   * store does not hold it (or holds it INVALID).
   */
  get: GetFromTables = (schema: Schema | Readable, ...argsAndState: readonly unknown[]) =>
    tablesReading(this.memo, 'controller.get', schema, argsAndState) as never;

  /** `get`'s reading as current data-client's `getQueryMeta` gives it: `{ data }`. */
  getQueryMeta: GetQueryMeta = (schema: Schema | Readable, ...argsAndState: unknown[]) => ({
    data: tablesReading(this.memo, 'controller.getQueryMeta', schema, argsAndState) as never,
  });

  /**
   * Writes a value into the tables as `schema` normalizes it, for these arguments (a
   * Collection's row is the one they name): `set(Todo, { id: 5 }, { id: 5, title: 'x' })`. The
   * last argument is the value, or a function of what `get` reads now that returns it. No result
   * is stored: the value reaches the entities and lists it holds, as a mutation's answer does.
   * Rejects with the SchemaError of a value that does not fit the schema (nothing is written).
   */
  set: SetInTables = (schema: Schema, ...argsAndValue: readonly unknown[]): Promise<void> =>
    // A throw in the executor rejects the promise.
    new Promise((resolve) => {
      const args = argsAndValue.slice(0, -1);
      const given = argsAndValue.at(-1);
      const value =
        typeof given === 'function'
          ? (given as (previous: unknown) => unknown)(this.get(schema, ...args, this.getState()))
          : given;
      const writer = schemaWriter(schema);
      const outcome = { args, response: value };
      throwIfRefused(
        storeAnswer(this.store, ++this.sequence, writer, outcome, writer.key(...args)),
      );
      resolve();
    });

  /** Runs an action through the store; the promise resolves once it is stored. */
  private dispatch(action: Action): Promise<void> {
    this.store.dispatch(action);
    return Promise.resolve();
  }
}

/** `get`: the reading of a schema (or of a Query's process) from the tables, as of `state`. */
interface GetFromTables {
  <S extends Schema, P extends readonly unknown[], R>(
    query: Query<S, P, R>,
    ...argsAndState: [...P, State]
  ): R | undefined;
  <S extends Schema>(schema: S, ...argsAndState: [...unknown[], State]): Denormalize<S> | undefined;
}

/** `getQueryMeta`: `get`'s reading, under `data`. */
interface GetQueryMeta {
  <S extends Schema, P extends readonly unknown[], R>(
    query: Query<S, P, R>,
    ...argsAndState: [...P, State]
  ): { data: R | undefined };
  <S extends Schema>(
    schema: S,
    ...argsAndState: [...unknown[], State]
  ): { data: Denormalize<S> | undefined };
}

/**
 * `set`: the schema's arguments, then the value (as a response would carry it) or a function
 * of the value read now. The first form types the updater's parameter on TypeScript 4.3 too,
 * which infers no parameter type through a list that starts with a rest element.
 */
interface SetInTables {
  <S extends Schema>(
    schema: S,
    args: unknown,
    updater: (previous: Denormalize<S> | undefined) => object,
  ): Promise<void>;
  <S extends Schema>(
    schema: S,
    ...argsAndValue: [...unknown[], object | ((previous: Denormalize<S> | undefined) => object)]
  ): Promise<void>;
}

/**
 * The endpoint `controller.set` stores its value through: a mutation of `schema`, so its value
 * reaches the tables and lists and leaves no result behind. Its key names the schema and
 * arguments, for the change-set and the devtools.
 */
function schemaWriter(schema: Schema): EndpointInterface {
  const schemaClass = schemaOf(schema);
  if (schemaClass === undefined) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `controller.set: the first argument must be a schema (an Entity, a Collection, …), not ${describeValue(schema)}`
        : 'controller.set: not a schema',
    );
  }
  const name = `set ${(schemaClass as { key?: unknown }).key}`;
  // Never called: the store only writes the value given to `set`.
  return Object.assign(async () => {}, {
    key: (...args: readonly unknown[]) => name + JSON.stringify(args),
    schema,
    sideEffect: true as const,
  });
}
