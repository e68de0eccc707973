/**
 * What the panel is told about each store change: a `StoreEvent`, the action in the user's terms
 * and its effects. The effects are the store's change-set (`normalize/changes.ts`), item by item,
 * with their values encoded; every effect kind is declared here once, from the change-set's
 * types, plus the few the page adds: which results an Invalidate made suspend or lose a member,
 * a reset, and a replay's outcome.
 *
 * `V` is the type of carried values: the page's own values while an event is described,
 * `Encoded` on the wire.
 */

import type {
  CollectionChange,
  EntityChanges,
  EntityUpdate,
  FieldChange,
  Invalidation,
  ResultChange,
} from '../../normalize/changes.js';
import type { Action } from '../../store/actions.js';
import type { FetchReason } from '../../store/cause.js';
import type { Encoded } from './messages.js';

/** The parts of effects the panel names on their own. */
export type { EntityUpdate, FetchReason, FieldChange };

type ResultOf<T extends ResultChange['type'], V> = Extract<ResultChange<V>, { type: T }>;

/** Entities of one type stored for the first time (or again after they were invalidated). */
export interface EntitiesAdded<V = Encoded> {
  type: 'entities-added';
  entity: EntityChanges['entity'];
  pks: EntityChanges['added'];
  /** Each pk's label, in the order of `pks` ('' for one without); absent for a large group. */
  labels?: string[];
  /**
   * Each pk's row as stored, in the order of `pks`, so that the panel shows a new entity without
   * asking for it: null for a row too large to carry whole (the panel asks for that one), absent
   * for a large group or a change described after its state left the ring.
   */
  rows?: (V | null)[];
}

/** Stored entities of one type whose fields changed, each field with its before and after. */
export interface EntitiesUpdated<V = Encoded> {
  type: 'entities-updated';
  entity: EntityChanges['entity'];
  updates: EntityUpdate<V>[];
  /** Each updated entity's label, in the order of `updates` (as EntitiesAdded's). */
  labels?: string[];
}

/**
 * One entity marked INVALID (a delete), with the input its pk was computed from and the fields
 * it held just before.
 */
export type EntityInvalidated<V = Encoded> = {
  type: 'entity-invalidated';
  entity: EntityChanges['entity'];
  /** Its label before the delete ('' without one). */
  label?: string;
} & Invalidation<V>;

/** A collection row's members changed (or an add met only duplicates). */
export type CollectionChanged = { type: 'collection-changed' } & CollectionChange;

/**
 * A response stored. `kept` says whether the store keeps it as the key's result (a read's
 * newest answer: `result` is then the normalized value kept); a mutation's answer, or one older
 * than the stored result, only went into the tables.
 */
export type ResultStored<V = Encoded> = ResultOf<'result-stored', V> & { endpoint: string };

/** A request failed; `kept` as for ResultStored (the error is then the key's meta). */
export type ResultError<V = Encoded> = ResultOf<'result-error', V> & { endpoint: string };

/** A stored result removed by `controller.invalidate`: its readers fetch it again. */
export type ResultInvalidated = ResultOf<'result-invalidated', never>;
/** A stored result marked stale (`expireAll`): shown until it is fetched again. */
export type ResultExpired = ResultOf<'result-expired', never>;

/** A stored result an Invalidate emptied: it now reads as INVALID, so readers suspend and fetch. */
export interface ResultSuspends {
  type: 'result-suspends';
  key: string;
  endpoint: string;
}

/** A stored result built from an invalidated entity that stays valid: it lost a member. */
export interface ResultLostMember {
  type: 'result-lost-member';
  key: string;
  endpoint: string;
}

/** The whole store was reset (`resetEntireStore`). */
export interface StoreReset {
  type: 'store-reset';
}

/** How one mutation of a panel's replay went. */
export interface ReplayOutcome<V = Encoded> {
  index: number;
  /** The endpoint name, or '' when the mutation had none. */
  endpoint: string;
  ok: boolean;
  /** Why it failed (the endpoint is named apart: the message does not repeat it). */
  error?: string;
  /** A `send` replay: what the server answered this time. */
  response?: V;
}

/** The outcome of one mutation of a panel's replay, as an effect of the replay's event. */
export type ReplayResult<V = Encoded> = {
  type: 'replay-result';
  replayId: string;
} & ReplayOutcome<V>;

/** One thing an action did to the store, as the panel is told it. */
export type Effect<V = Encoded> =
  | EntitiesAdded<V>
  | EntitiesUpdated<V>
  | EntityInvalidated<V>
  | CollectionChanged
  | ResultStored<V>
  | ResultError<V>
  | ResultInvalidated
  | ResultExpired
  | ResultSuspends
  | ResultLostMember
  | StoreReset
  | ReplayResult<V>;

/** The kinds of effects, by their `type`. */
export type EffectType = Effect['type'];

/** The kinds of actions an event can describe: the store's, and a replay the panel asked for. */
export type ActionType = Action['type'] | 'replay';

/** One frame of the app's call stack, as the engine wrote it (line and column from 1). */
export interface TraceFrame {
  /** The function's name, when the engine gave one. */
  function?: string;
  url: string;
  line: number;
  column: number;
}

/** Why an action ran, and where the app called it. */
export interface ActionCause {
  reason: FetchReason;
  /** For a fetch of data that was invalidated or expired: the event that did it, by seq. */
  by?: { seq: number; label: string };
  /**
   * The app's frames at the call, innermost first: recorded while a panel is connected (or
   * always, when the page asks for it).
   */
  trace?: TraceFrame[];
}

/** An action in the user's terms: the endpoint, its call and its answer. */
export interface ActionSummary<V = Encoded> {
  type: ActionType;
  endpoint?: string;
  key?: string;
  method?: string;
  url?: string;
  /** True for mutations (endpoints with side effects). */
  mutation?: boolean;
  args?: V[];
  body?: V;
  response?: V;
  error?: V;
  /** ms from the request's start to its answer. */
  duration?: number;
  /** For optimistic mutations: shown before the answer, then committed or rolled back. */
  optimistic?: 'applied' | 'committed' | 'rolled-back';
  /** Set on what a panel's replay did (the id of its `replay` command): recorders skip it. */
  replayId?: string;
  /** Why it ran (pages in development builds say it). */
  cause?: ActionCause;
}

/** What the panel is told of one action: the action and its effects, in order (`seq`). */
export interface StoreEvent<V = Encoded> {
  /** Strictly increasing per store, from 1. */
  seq: number;
  time: number;
  action: ActionSummary<V>;
  effects: Effect<V>[];
  /**
   * Set when the effects were too large for one message and left out. A snapshot follows the
   * event, so the panel's copy is right, but the timeline cannot say what the event changed.
   */
  effectsOmitted?: boolean;
}
