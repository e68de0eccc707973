import type { EndpointInterface } from '../../endpoint/types.js';
import type { ChangeSet, EntityChanges } from '../../normalize/changes.js';
import { holdingRows } from '../../normalize/rowsHolding.js';
import { AllSchema } from '../../schema/All.js';
import { Collection } from '../../schema/Collection.js';
import { isInvalid } from '../../schema/invalid.js';
import { ListSchema } from '../../schema/List.js';
import type { EntityStatics } from '../../schema/types.js';
import type { Action } from '../../store/actions.js';
import type { Controller } from '../../store/Controller.js';
import { ExpiryStatus, type State } from '../../store/state.js';
import type { ActionCause, ActionSummary, Effect, StoreEvent } from '../protocol/effects.js';
import type { Encoded } from '../protocol/messages.js';
import { DEFAULT_MAX_SIZE, type EncodeLimits, encode, encodeWhole } from './encode.js';
import { entityClassesIn } from './entityClasses.js';
import { DESCRIBED_PER_GROUP, labelOfRow } from './entityLabels.js';
import type { ActionEntry, HistoryEntry, ReaderEffect } from './history.js';
import { PendingRows } from './pendingRows.js';
import { ReferenceIndex, type Referrer, referencesOf, rowReferencesOf } from './references.js';
import type { Call } from './resultCommands.js';
import { traceFrames } from './trace.js';

type Row = Record<string, unknown>;
/** An entity row that points at others, as the reference index names it. */
type RowReferrer = Extract<Referrer, { kind: 'row' }>;

/** Whether the store still shows an entity row (a deleted one's references stay in the index). */
function isShown({ table, pk }: { table: string; pk: string }, state: State): boolean {
  const stored = state.entities.get(table)?.get(pk);
  return typeof stored === 'object' && stored !== null && !isInvalid(stored);
}

/** A result the store dropped since the index last took its changes (see Describer.pendingResults). */
const RESULT_DROPPED = Symbol('result dropped');

/** Whether an entity class gives any field a schema (only such rows point at others). */
function hasRelations(entityClass: EntityStatics): boolean {
  for (const _field in entityClass.schema) return true;
  return false;
}

/** Whether a schema reads as a list (which loses members, and never suspends for that). */
function isList(schema: unknown): boolean {
  return (
    Array.isArray(schema) ||
    schema instanceof Collection ||
    schema instanceof ListSchema ||
    schema instanceof AllSchema
  );
}

const REQUEST_KEY = /^(GET|POST|PUT|PATCH|DELETE) (.*)$/;

/**
 * Describes the ring's entries as StoreEvents: the action in the user's terms and its effects,
 * which are the entry's change-set item by item, plus the stored results an Invalidate touched.
 * An entry is described from what it holds (its action, change-set and what was read of the
 * states as it happened), never from when it is described: an event sent live and the same event sent to a panel that connects
 * later are the same.
 */
export class Describer {
  /**
   * The call behind each stored read (the first one that stored its key names it), to read it
   * again after an Invalidate.
   */
  private readonly calls = new Map<string, StoredCall>();
  /** What each stored result and entity row points at (see ReferenceIndex). */
  private readonly references = new ReferenceIndex();
  /**
   * What was written since the index last took it, taken only when a delete needs it: loads and
   * updates cost the page nothing more than these, and a store that never deletes never pays for
   * the index. Results are kept as the latest value of each key (RESULT_DROPPED when it went), so
   * what waits is never more than the store holds, however many writes came between two deletes.
   * Entity rows are taken only for the tables whose rows can point, however deep, at the deleted
   * entity's (a todo's delete does not need the todos' authors indexed).
   */
  private pendingResults = new Map<string, unknown>();
  private pendingRows = new Map<string, PendingRows>();
  /** Entity classes by key, from the schemas of the endpoints that ran. */
  private readonly classes = new Map<string, EntityStatics>();
  /** Those of them whose rows point at others (see hasRelations): the rows the index takes. */
  private readonly pointingClasses = new Map<string, EntityStatics>();
  private readonly schemasSeen = new WeakSet<object>();
  /** The tables each entity class's rows can point at, however deep (see canReachDeleted). */
  private readonly reachedTables = new WeakMap<EntityStatics, ReadonlySet<string>>();

  constructor(
    private readonly controller: Controller,
    /** The name an endpoint is recorded by (see EndpointNames). */
    private readonly nameOf: (endpoint: EndpointInterface) => string,
  ) {}

  /** Notes an action: the call behind each read it stored, and its changes for the index. */
  note(action: Action, changes: ChangeSet): void {
    const ran = action.type === 'fetch' || action.type === 'setResponse' ? action : undefined;
    if (ran) {
      this.learnClasses(ran.endpoint.schema);
      for (const change of changes.results) {
        if (change.type !== 'result-stored' || !change.kept || this.calls.has(change.key)) continue;
        this.calls.set(change.key, {
          key: change.key,
          endpoint: ran.endpoint,
          args: ran.args,
          order: this.calls.size,
        });
      }
    }
    if (changes.reset) {
      this.references.clear();
      this.pendingResults = new Map();
      this.pendingRows = new Map();
      return;
    }
    for (const change of changes.results) {
      if (change.type === 'result-invalidated') this.pendingResults.set(change.key, RESULT_DROPPED);
      else if (change.type === 'result-stored' && change.kept)
        this.pendingResults.set(change.key, change.result);
    }
    for (const entityChanges of changes.entities) {
      const entityClass = this.pointingClasses.get(entityChanges.entity);
      if (entityClass === undefined) continue;
      let waiting = this.pendingRows.get(entityChanges.entity);
      if (waiting === undefined) {
        waiting = new PendingRows(entityClass);
        this.pendingRows.set(entityChanges.entity, waiting);
      }
      waiting.add(entityChanges);
    }
  }

  /**
   * Brings the reference index up to `state` for a change that deleted rows: every result
   * written since, and the rows of each table that can point at a table it deleted from.
   */
  private catchUp(state: State, changes: ChangeSet): void {
    this.pendingResults.forEach((value, key) => {
      if (value === RESULT_DROPPED) this.references.deleteResult(key);
      else this.noteResult(key, value);
    });
    this.pendingResults.clear();
    this.pendingRows.forEach((waiting, table) => {
      const entityClass = this.classes.get(table);
      if (entityClass === undefined || !this.canReachDeleted(entityClass, changes)) return;
      const rows = state.entities.get(table);
      waiting.forEachPk((pk) => this.noteRow(entityClass, pk, rows?.get(pk)));
      this.pendingRows.delete(table);
    });
  }

  /**
   * Whether rows of `entityClass` can point, directly or through other rows, at a table these
   * changes deleted from.
   */
  private canReachDeleted(entityClass: EntityStatics, changes: ChangeSet): boolean {
    let reached = this.reachedTables.get(entityClass);
    if (reached === undefined) {
      reached = new Set(entityClassesIn(entityClass.schema).map(({ key }) => key));
      this.reachedTables.set(entityClass, reached);
    }
    return changes.entities.some((entry) => deletesRows(entry) && reached.has(entry.entity));
  }

  private noteResult(key: string, value: unknown): void {
    const call = this.calls.get(key);
    if (call) this.references.setResult(key, referencesOf(call.endpoint.schema, value, call.args));
  }

  private noteRow(entityClass: EntityStatics, pk: string, row: unknown): void {
    if (typeof row === 'object' && row !== null && !isInvalid(row))
      this.references.setRow(entityClass.key, pk, rowReferencesOf(entityClass, row as Row));
    else this.references.deleteRow(entityClass.key, pk);
  }

  private learnClasses(schema: unknown): void {
    if (typeof schema !== 'object' && typeof schema !== 'function') return;
    if (schema === null || this.schemasSeen.has(schema)) return;
    this.schemasSeen.add(schema);
    for (const entityClass of entityClassesIn(schema)) {
      if (this.classes.has(entityClass.key)) continue;
      this.classes.set(entityClass.key, entityClass);
      if (hasRelations(entityClass)) this.pointingClasses.set(entityClass.key, entityClass);
    }
  }

  /** The call behind a stored read, by its key (what a refetch runs again). */
  callOf(key: string): Call | undefined {
    return this.calls.get(key);
  }

  /** The Entity class of a type, among the schemas of the endpoints that ran. */
  entityClass(type: string): EntityStatics | undefined {
    return this.classes.get(type);
  }

  /**
   * The stored results an Invalidate touched, worked out as it happens (panel or not, so that
   * history and live events agree), from the change-set and the reference index: the results
   * pointing at a deleted entity, at a list that lost it (the change-set's invalidate changes),
   * at a table it was deleted from, or at an entity that points at any of these. A list (or a
   * whole table) only loses a member; any other result is read in the state after, with the
   * app's own read (which its next render makes anyway): INVALID there, it suspends.
   */
  readerEffects(changes: ChangeSet, after: State): ReaderEffect[] {
    if (!changes.entities.some(deletesRows)) return NO_READERS;
    this.catchUp(after, changes);
    const reachedCalls: StoredCall[] = [];
    for (const key of this.resultsReaching(changes, after)) {
      const call = this.calls.get(key);
      if (call !== undefined) reachedCalls.push(call);
    }
    // In the order the results were first stored, as the panel lists them.
    if (reachedCalls.length > 1) reachedCalls.sort(byOrder);
    return reachedCalls.map((call) => ({
      type: this.suspends(call, after) ? 'result-suspends' : 'result-lost-member',
      key: call.key,
      endpoint: this.nameOf(call.endpoint),
    }));
  }

  /**
   * The keys of the results that point at what a delete reached (its entities, their tables, the
   * lists that lost them), or at entities (or lists holding them, as the tables' `rowsHolding`
   * says) that do, however deep. Entities the store no longer shows (deleted before) are passed
   * over: their references stay in the index.
   */
  private resultsReaching(changes: ChangeSet, state: State): Set<string> {
    const results = new Set<string>();
    /** The entity rows reached (made when one is), each walked up from once. */
    let rowsReached: Set<Referrer> | undefined;
    const pending: RowReferrer[] = [];
    const reach = (referrers: ReadonlySet<Referrer>) => {
      for (const referrer of referrers) {
        if (referrer.kind === 'result') results.add(referrer.key);
        else if (!rowsReached?.has(referrer) && isShown(referrer, state)) {
          rowsReached ??= new Set();
          rowsReached.add(referrer);
          pending.push(referrer);
        }
      }
    };
    const walkUpFrom = (table: string, pk: string) => {
      reach(this.references.referrersOfRow(table, pk));
      for (const holder of holdingRows(state.rowsHolding.get(table)?.get(pk)))
        reach(this.references.referrersOfRow(holder.collection, holder.row));
    };
    for (const { entity, invalidated } of changes.entities) {
      if (invalidated.length === 0) continue;
      reach(this.references.referrersOfTable(entity));
      for (const { pk } of invalidated) walkUpFrom(entity, pk);
    }
    for (const { collection, row, kind } of changes.collections)
      if (kind === 'invalidate') reach(this.references.referrersOfRow(collection, row));
    for (let row = pending.pop(); row !== undefined; row = pending.pop())
      walkUpFrom(row.table, row.pk);
    return results;
  }

  /** Whether the result of `call` must be fetched again to be shown, in `state`. */
  private suspends({ endpoint, args }: Call, state: State): boolean {
    if (isList(endpoint.schema)) return false;
    try {
      const read = this.controller.getResponse(
        endpoint,
        ...(args as Parameters<typeof endpoint>),
        state,
      );
      return read.expiryStatus === ExpiryStatus.Invalid;
    } catch {
      // The app's own code (an entity's constructor) threw while reading: it is not said to suspend.
      return false;
    }
  }

  /** The entry as a StoreEvent; values are still the page's own (see encodeEvent). */
  describe(entry: HistoryEntry): StoreEvent<unknown> {
    const { seq, time } = entry;
    if (entry.kind === 'replay') {
      const { endpoint } = entry.outcome;
      return {
        seq,
        time,
        action: endpoint ? { type: 'replay', endpoint } : { type: 'replay' },
        effects: [{ type: 'replay-result', replayId: entry.replayId, ...entry.outcome }],
      };
    }
    const action = summarize(entry, this.nameOf);
    if (entry.replayId !== undefined) action.replayId = entry.replayId;
    const cause = causeOf(entry);
    if (cause !== undefined) action.cause = cause;
    const effects = effectsOf(entry, this.nameOf, (type) => this.classes.get(type));
    return { seq, time, action, effects: [...effects, ...entry.readers] };
  }
}

const NO_READERS: ReaderEffect[] = [];

/** A stored read's call, by the key it stored, and when that key was first stored. */
interface StoredCall extends Call {
  key: string;
  order: number;
}

const deletesRows = ({ invalidated }: EntityChanges): boolean => invalidated.length > 0;
const byOrder = (a: StoredCall, b: StoredCall): number => a.order - b.order;

/** The change-set's items as effects; values still the page's own. */
function effectsOf(
  { action, changes, labels, state }: ActionEntry,
  nameOf: (endpoint: EndpointInterface) => string,
  classOf: (type: string) => EntityStatics | undefined,
): Effect<unknown>[] {
  const effects: Effect<unknown>[] = [];
  changes.entities.forEach(({ entity, added, updated, invalidated }, index) => {
    const groupLabels = labels[index];
    if (added.length > 0)
      effects.push({
        type: 'entities-added',
        entity,
        pks: added,
        ...labelsField(groupLabels?.added),
        ...rowsField(state, entity, added),
      });
    if (updated.length > 0)
      effects.push({
        type: 'entities-updated',
        entity,
        updates: updated,
        ...labelsField(groupLabels?.updated),
      });
    for (const invalidation of invalidated) {
      const label = labelOfRow(invalidation.last, classOf(entity));
      effects.push({ type: 'entity-invalidated', entity, ...invalidation, label });
    }
  });
  for (const change of changes.collections) effects.push({ type: 'collection-changed', ...change });
  const endpoint = 'endpoint' in action ? nameOf(action.endpoint) : '';
  for (const change of changes.results) {
    if (change.type === 'result-stored' || change.type === 'result-error')
      effects.push({ ...change, endpoint });
    else effects.push(change);
  }
  if (changes.reset) effects.push({ type: 'store-reset' });
  return effects;
}

/** The `labels` field of a group of entities, when they were labelled and one has a label. */
const labelsField = (of: string[] | undefined) =>
  of?.some((label) => label !== '') ? { labels: of } : {};

/** The rows of the entities a change added, as the state after it holds them (while it is kept). */
function rowsField(state: State | undefined, entity: string, pks: readonly string[]) {
  if (state === undefined || pks.length > DESCRIBED_PER_GROUP) return {};
  const rows = state.entities.get(entity);
  return { rows: pks.map((pk) => rows?.get(pk) ?? null) };
}

/**
 * Whether the panel's copy of the state cannot follow this entry from its effects alone: an
 * optimistic response shown before or after it is undone by no effect. An optimistic fetch with
 * none shown before it is the exception: its effects are what its own response did.
 */
export function needsSnapshot(entry: HistoryEntry): boolean {
  if (entry.kind !== 'action' || entry.changes.optimistic === undefined) return false;
  return entry.action.type !== 'fetch' || entry.changes.optimistic.before !== undefined;
}

/** Why the entry's action ran, as the panel is told it (undefined when the page did not say). */
function causeOf({ action, staleSource }: ActionEntry): ActionCause | undefined {
  if (action.cause === undefined) return undefined;
  const { reason, trace } = action.cause;
  const cause: ActionCause = { reason };
  if (staleSource !== undefined) cause.by = staleSource;
  if (trace?.stack !== undefined) cause.trace = traceFrames(trace.stack);
  return cause;
}

/** A fresh summary of an action (the caller may add to it). */
function summarize(
  { action, changes }: ActionEntry,
  nameOf: (endpoint: EndpointInterface) => string,
): ActionSummary<unknown> {
  switch (action.type) {
    case 'fetch':
      // Only optimistic fetches change the store.
      return { ...callSummary(action, nameOf(action.endpoint)), optimistic: 'applied' };
    case 'setResponse': {
      const summary = callSummary(action, nameOf(action.endpoint));
      summary.duration = action.date - action.fetchedAt;
      if (action.error) summary.error = action.response;
      else summary.response = action.response;
      if (changes.settled) summary.optimistic = changes.settled;
      return summary;
    }
    case 'invalidate':
      return { type: 'invalidate', key: action.key };
    default:
      return { type: action.type };
  }
}

/** A call's summary; `name` is the one its endpoint is recorded by. */
function callSummary(action: Extract<Action, { type: 'fetch' | 'setResponse' }>, name: string) {
  const { type, endpoint, args, key } = action;
  const mutation = endpoint.sideEffect === true;
  const summary: ActionSummary<unknown> = {
    type,
    endpoint: name,
    mutation,
    args: args as unknown[],
    key,
  };
  if (mutation && args.length > 1) summary.body = args[args.length - 1];
  const requestKey = (endpoint as { requestKey?: (...args: unknown[]) => string }).requestKey;
  const request = REQUEST_KEY.exec(
    typeof requestKey === 'function' ? requestKey.apply(endpoint, args as unknown[]) : key,
  );
  if (request) {
    summary.method = request[1];
    summary.url = request[2];
  }
  return summary;
}

export interface EventLimits {
  /** A mutation's args, body and answer: what a recording keeps and a replay sends again. */
  mutation?: EncodeLimits;
  /** A read's args and answer: a preview (the rows it stored are in the store). */
  read?: EncodeLimits;
  /** Each value an effect carries. */
  effects?: EncodeLimits;
}

/** The wire form of an event: every carried value encoded (capped, JSON-safe). */
export function encodeEvent(event: StoreEvent<unknown>, limits: EventLimits = {}): StoreEvent {
  const { action } = event;
  const actionLimits = action.mutation ? limits.mutation : limits.read;
  // The body is the last argument, and an answer is often the body echoed: each is encoded once.
  const encoded = new Map<unknown, Encoded>();
  const encodeValue = (value: unknown) => {
    let known = encoded.get(value);
    if (known === undefined) {
      known = encode(value, actionLimits);
      if (typeof value === 'object' && value !== null) encoded.set(value, known);
    }
    return known;
  };
  const encodedAction = { ...action } as ActionSummary;
  if (action.args) encodedAction.args = action.args.map(encodeValue);
  for (const field of ['body', 'response', 'error'] as const) {
    if (field in action) encodedAction[field] = encodeValue(action[field]);
  }
  const effects = event.effects.map((effect) => encodeEffect(effect, limits.effects));
  return { ...event, action: encodedAction, effects };
}

function encodeEffect(effect: Effect<unknown>, limits: EncodeLimits | undefined): Effect {
  const value = (raw: unknown) => encode(raw, limits);
  switch (effect.type) {
    case 'entities-added': {
      const { rows, ...added } = effect;
      if (rows === undefined) return added;
      // The rows share the effects' budget; one that does not fit whole is left for a `rows` ask.
      const rowLimits = {
        maxSize: Math.floor((limits?.maxSize ?? DEFAULT_MAX_SIZE) / rows.length),
      };
      return { ...added, rows: rows.map((row) => encodeWhole(row, rowLimits) ?? null) };
    }
    case 'entities-updated':
      return {
        ...effect,
        updates: effect.updates.map(({ pk, fields }) => ({
          pk,
          fields: fields.map(({ field, before, after }) => ({
            field,
            before: value(before),
            after: value(after),
          })),
        })),
      };
    case 'entity-invalidated': {
      const { last, ...invalidated } = effect;
      const encoded = { ...invalidated, from: value(effect.from) };
      return last === undefined ? encoded : { ...encoded, last: value(last) };
    }
    case 'result-stored': {
      const { result, ...stored } = effect;
      return effect.kept ? { ...stored, result: value(result) } : stored;
    }
    case 'result-error':
      return { ...effect, error: value(effect.error) };
    case 'replay-result': {
      const { response, ...outcome } = effect;
      return 'response' in effect ? { ...outcome, response: value(response) } : outcome;
    }
    default:
      return effect;
  }
}
