import { AbortOptimistic, type SnapshotInterface } from '../endpoint/types.js';
import { normalize } from '../normalize/normalize.js';
import type { Trace } from '../normalize/trace.js';
import type { Action, SetResponseAction, TestKey } from './actions.js';
import { type EndpointMeta, initialState, type OptimisticEntry, type State } from './state.js';

export interface ReduceOptions {
  /** Receives what normalizing a response did. */
  trace?: Trace;
  /** Normalize as an optimistic response (created entities may lack a pk). */
  optimistic?: boolean;
}

/** The one reducer: every change to the committed state goes through here. */
export function reduce(state: State, action: Action, options: ReduceOptions = {}): State {
  switch (action.type) {
    case 'fetch': {
      const { endpoint, args, key, fetchedAt } = action;
      if (!endpoint.sideEffect || !endpoint.getOptimisticResponse) return state;
      return { ...state, optimistic: [...state.optimistic, { endpoint, args, key, fetchedAt }] };
    }
    case 'setResponse':
      if (action.fetchedAt < state.lastReset) return state;
      return action.error
        ? setError(state, action, action.response)
        : setResponse(state, action, options);
    case 'invalidate':
      return invalidateKeys(state, [action.key]);
    case 'invalidateAll':
      return invalidateKeys(state, Object.keys(state.endpoints).filter(action.testKey));
    case 'expireAll':
      return expireKeys(state, action.testKey);
    case 'reset':
      return initialState(action.date);
  }
}

function setResponse(state: State, action: SetResponseAction, options: ReduceOptions): State {
  const { endpoint, args, key, fetchedAt, date, expiresAt } = action;
  let normalized: ReturnType<typeof normalize>;
  try {
    normalized = normalize(endpoint.schema, action.response, args, state, {
      meta: { date, fetchedAt, expiresAt },
      trace: options.trace,
      optimistic: options.optimistic,
    });
  } catch (error) {
    // A response that does not fit its schema stores nothing but the error.
    return setError(state, action, error);
  }
  const previous = state.meta[key];
  // A response to an older request keeps the newer result; its entities only fill gaps.
  const isOlder = previous !== undefined && previous.fetchedAt > fetchedAt;
  return {
    ...state,
    entities: normalized.entities,
    entitiesMeta: normalized.entitiesMeta,
    indexes: normalized.indexes,
    endpoints: isOlder ? state.endpoints : { ...state.endpoints, [key]: normalized.result },
    meta: isOlder ? state.meta : { ...state.meta, [key]: { date, fetchedAt, expiresAt } },
    optimistic: settleOptimistic(state, key, fetchedAt),
  };
}

function setError(state: State, action: SetResponseAction, error: unknown): State {
  const { endpoint, key, fetchedAt, date } = action;
  // The failure of a request older than what is stored says nothing about the stored data.
  const previous = state.meta[key];
  if (previous !== undefined && previous.fetchedAt > fetchedAt) {
    return { ...state, optimistic: settleOptimistic(state, key, fetchedAt) };
  }
  // Until an error's stack is read, V8 keeps the frames it was thrown from, and with them the
  // objects they were working on: a SchemaError thrown while normalizing would keep the state
  // of its time (and that state's errors, and theirs). Reading it once turns it into text.
  if (error instanceof Error) void error.stack;
  const meta: EndpointMeta = {
    date,
    fetchedAt,
    expiresAt: date + (endpoint.errorExpiryLength ?? 1000),
    error,
    errorPolicy: endpoint.errorPolicy?.(error),
  };
  return {
    ...state,
    meta: { ...state.meta, [key]: meta },
    optimistic: settleOptimistic(state, key, fetchedAt),
  };
}

/** The answer to a request settles its optimistic entry. */
function settleOptimistic(state: State, key: string, fetchedAt: number) {
  if (state.optimistic.length === 0) return state.optimistic;
  // Only the request that answered: another mutation of the same key still in flight (two
  // pushes to one list) keeps showing until its own answer.
  const remaining = state.optimistic.filter(
    (entry) => entry.key !== key || entry.fetchedAt !== fetchedAt,
  );
  return remaining.length === state.optimistic.length ? state.optimistic : remaining;
}

function invalidateKeys(state: State, keys: readonly string[]): State {
  if (keys.length === 0) return state;
  const endpoints = { ...state.endpoints };
  const meta = { ...state.meta };
  for (const key of keys) {
    delete endpoints[key];
    const {
      error: _error,
      errorPolicy: _policy,
      ...previous
    } = meta[key] ?? { date: 0, fetchedAt: 0 };
    meta[key] = { ...previous, expiresAt: 0, invalidated: true };
  }
  return { ...state, endpoints, meta };
}

function expireKeys(state: State, testKey: TestKey): State {
  const meta = { ...state.meta };
  let changed = false;
  for (const key of Object.keys(meta)) {
    if (!testKey(key)) continue;
    meta[key] = { ...(meta[key] as EndpointMeta), expiresAt: 1 };
    changed = true;
  }
  return changed ? { ...state, meta } : state;
}

/**
 * The state components see: the committed state with every pending optimistic response applied
 * in order. The committed state is never changed by it, so a failure rolls back by itself.
 */
export function applyOptimistic(
  state: State,
  snapshot: (view: State, fetchedAt: number) => SnapshotInterface,
  /** Traces applying one entry (the one a fetch just added), for the devtools. */
  traced?: { entry: OptimisticEntry; trace: Trace },
): State {
  let view = state;
  for (const entry of state.optimistic) {
    const date = Date.now();
    const expiresAt = date + (entry.endpoint.dataExpiryLength ?? 60_000);
    const action: SetResponseAction = {
      type: 'setResponse',
      ...entry,
      response: undefined,
      error: false,
      date,
      expiresAt,
    };
    try {
      action.response = entry.endpoint.getOptimisticResponse?.(
        snapshot(view, entry.fetchedAt),
        ...entry.args,
      );
      const trace = traced?.entry === entry ? traced.trace : undefined;
      view = setResponse(view, action, { optimistic: true, trace });
    } catch (error) {
      if (error instanceof AbortOptimistic) continue;
      // A throwing optimistic updater shows as an error for its key, like a failed request.
      view = setError(view, action, error);
    }
    view = { ...view, optimistic: state.optimistic };
  }
  return view;
}
