import { AbortOptimistic, type SnapshotInterface } from '../endpoint/types.js';
import {
  type AnswerChange,
  ChangeRecorder,
  type ChangeSet,
  noChanges,
} from '../normalize/changes.js';
import { normalize } from '../normalize/normalize.js';
import type { Action, SetResponseAction, TestKey } from './actions.js';
import { EXPIRED_EXPIRY, INVALIDATED_EXPIRY } from './resultExpiry.js';
import { type EndpointMeta, initialState, type OptimisticEntry, type State } from './state.js';

/** A new state and what the action did to get there. */
export interface Reduced {
  state: State;
  changes: ChangeSet;
  /**
   * For an answer (`setResponse`): how the store took it, its item of `changes` (an answer
   * whose response did not fit its schema is stored as the error normalizing it threw).
   * Undefined when nothing was stored: its request started before a reset, or was aborted.
   */
  answer?: AnswerChange;
}

/**
 * The one reducer: every change to the committed state goes through here, and comes out with
 * its change-set. An action that changes nothing returns the very state it was given.
 */
export function reduce(state: State, action: Action): Reduced {
  const changes = new ChangeRecorder();
  const next = reduceInto(state, action, changes);
  if (next === state) return { state, changes: noChanges() };
  return { state: next, changes: changes.finish(), answer: changes.answer };
}

function reduceInto(state: State, action: Action, changes: ChangeRecorder): State {
  switch (action.type) {
    case 'fetch': {
      const { endpoint, args, key, fetchedAt, requestId } = action;
      if (!endpoint.sideEffect || !endpoint.getOptimisticResponse) return state;
      const entry = { endpoint, args, key, fetchedAt, requestId };
      return { ...state, optimistic: [...state.optimistic, entry], sequence: requestId };
    }
    case 'setResponse':
      if (action.fetchedAt < state.lastReset) return state;
      return settleOptimistic(
        action.error
          ? setError(state, action, action.response, changes)
          : setResponse(state, action, changes, false),
        action.requestId,
        changes,
      );
    case 'invalidate':
      return invalidateKeys(state, [action.key], changes);
    case 'invalidateAll':
      return invalidateKeys(state, [...state.endpoints.keys()].filter(action.testKey), changes);
    case 'expireAll':
      return expireKeys(state, action.testKey, changes);
    case 'reset':
      changes.reset();
      return initialState(action.date);
  }
}

function setResponse(
  state: State,
  action: SetResponseAction,
  changes: ChangeRecorder,
  optimistic: boolean,
): State {
  const { endpoint, args, key, fetchedAt, date, expiresAt, requestId, sequence } = action;
  let normalized: ReturnType<typeof normalize>;
  // A response that does not fit its schema stores nothing but the error: its changes are
  // recorded apart and dropped with it.
  const recorded = new ChangeRecorder();
  try {
    normalized = normalize(endpoint.schema, action.response, args, state, {
      meta: { date, fetchedAt, expiresAt, requestId, sequence },
      changes: recorded,
      optimistic,
    });
  } catch (error) {
    return setError(state, action, error, changes);
  }
  changes.merge(recorded);
  // A response to an older request keeps the newer result; its entities only fill gaps. A
  // mutation's result is not kept: whoever waits for it reads the change-set, and nothing
  // reads it later (a store would otherwise grow with every mutation key it ever saw).
  const keep = !endpoint.sideEffect && isNotOlder(state.meta.get(key), fetchedAt, requestId);
  const { result, ...tables } = normalized;
  changes.answered({
    type: 'result-stored',
    key,
    expiresAt,
    kept: keep,
    result: keep ? result : undefined,
  });
  return {
    ...state,
    ...tables,
    endpoints: keep ? state.endpoints.set(key, result) : state.endpoints,
    meta: keep ? state.meta.set(key, { date, fetchedAt, expiresAt, requestId }) : state.meta,
    sequence: optimistic ? state.sequence : sequence,
  };
}

function setError(
  state: State,
  action: SetResponseAction,
  error: unknown,
  changes: ChangeRecorder,
): State {
  const { endpoint, key, fetchedAt, date, requestId } = action;
  // Until an error's stack is read, V8 keeps the frames it was thrown from, and with them the
  // objects they were working on: a SchemaError thrown while normalizing would keep the state
  // of its time (and that state's errors, and theirs). Reading it once turns it into text.
  if (error instanceof Error) void error.stack;
  // An aborted request stores nothing, as in data-client: the caller gave up on it, and the data
  // (or error) held before stays as it was. Its optimistic response, if any, is rolled back.
  if (isAbortError(error)) return state;
  // The failure of a request older than what is stored says nothing about the stored data, and
  // a mutation's error is for whoever waits for it (see setResponse). Either is news all the
  // same: a new state publishes its change-set.
  const keep = !endpoint.sideEffect && isNotOlder(state.meta.get(key), fetchedAt, requestId);
  changes.answered({ type: 'result-error', key, error, kept: keep });
  if (!keep) return { ...state };
  const meta: EndpointMeta = {
    date,
    fetchedAt,
    requestId,
    expiresAt: date + (endpoint.errorExpiryLength ?? 1000),
    error,
    errorPolicy: endpoint.errorPolicy?.(error),
  };
  return { ...state, meta: state.meta.set(key, meta) };
}

/**
 * Whether an answer to the request started at `fetchedAt` (numbered `requestId`) is no older than
 * the stored result's: started later, or in the same millisecond and not before it.
 */
function isNotOlder(
  stored: EndpointMeta | undefined,
  fetchedAt: number,
  requestId: number | undefined,
): boolean {
  if (stored === undefined) return true;
  if (stored.fetchedAt !== fetchedAt) return stored.fetchedAt < fetchedAt;
  return stored.requestId === undefined || requestId === undefined || stored.requestId <= requestId;
}

/** fetch's error for an aborted request (a DOMException named AbortError). */
function isAbortError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/**
 * The answer to a request settles its optimistic entry, found by the request's id: another
 * mutation of the same key still in flight (two pushes to one list, started in the same
 * millisecond too) keeps showing until its own answer. Its response is committed when the answer
 * was stored, and rolled back when it failed (or was aborted). An answer given no request id
 * (one placed by its time alone) settles nothing: every entry has one.
 */
function settleOptimistic(
  state: State,
  requestId: number | undefined,
  changes: ChangeRecorder,
): State {
  const index = state.optimistic.findIndex((entry) => entry.requestId === requestId);
  if (index === -1) return state;
  changes.settled(changes.answer?.type === 'result-stored' ? 'committed' : 'rolled-back');
  return { ...state, optimistic: state.optimistic.filter((_, at) => at !== index) };
}

function invalidateKeys(state: State, keys: readonly string[], changes: ChangeRecorder): State {
  if (keys.length === 0) return state;
  let endpoints = state.endpoints;
  const meta = state.meta.withMutations((draft) => {
    for (const key of keys) {
      endpoints = endpoints.delete(key);
      const {
        error: _error,
        errorPolicy: _policy,
        ...previous
      } = draft.get(key) ?? { date: 0, fetchedAt: 0 };
      draft.set(key, { ...previous, expiresAt: INVALIDATED_EXPIRY, invalidated: true });
      changes.result({ type: 'result-invalidated', key });
    }
  });
  return { ...state, endpoints, meta };
}

function expireKeys(state: State, testKey: TestKey, changes: ChangeRecorder): State {
  const meta = state.meta.withMutations((draft) => {
    for (const [key, entry] of state.meta) {
      if (!testKey(key)) continue;
      draft.set(key, { ...entry, expiresAt: EXPIRED_EXPIRY });
      changes.result({ type: 'result-expired', key });
    }
  });
  return meta === state.meta ? state : { ...state, meta };
}

/** The state components see, and the changes an optimistic response made to it. */
export interface OptimisticView {
  view: State;
  /** What applying the entry asked for (see applyOptimistic) did; undefined otherwise. */
  changes: ChangeSet | undefined;
  /** What applying every pending entry did to the committed state. */
  applied: ChangeSet;
}

/**
 * The state components see: the committed state with every pending optimistic response applied
 * in order. The committed state is never changed by it, so a failure rolls back by itself.
 */
export function applyOptimistic(
  state: State,
  snapshot: (view: State, fetchedAt: number) => SnapshotInterface,
  /** The entry whose changes to report (the one a fetch just added), for the devtools. */
  reported?: OptimisticEntry,
): OptimisticView {
  let view = state;
  let reportedChanges: ChangeSet | undefined;
  const applied = new ChangeRecorder();
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
      // Shown from its request on: what it deletes stays deleted for the answers to earlier
      // requests, in the view as in the committed state.
      sequence: entry.requestId,
    };
    const changes = new ChangeRecorder();
    try {
      action.response = entry.endpoint.getOptimisticResponse?.(
        snapshot(view, entry.fetchedAt),
        ...entry.args,
      );
      view = setResponse(view, action, changes, true);
    } catch (error) {
      if (error instanceof AbortOptimistic) continue;
      // A throwing optimistic updater shows nothing; its error is in the change-set, like a
      // failed request's (the devtools show it).
      view = setError(view, action, error, changes);
    }
    if (entry === reported) reportedChanges = changes.finish();
    applied.merge(changes);
  }
  return { view, changes: reportedChanges, applied: applied.finish() };
}
