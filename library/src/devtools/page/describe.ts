import type { ChangeSet } from '../../normalize/changes.js';
import type { Action } from '../../store/actions.js';
import type { Controller } from '../../store/Controller.js';
import { ExpiryStatus, type State } from '../../store/state.js';
import type { ActionSummary, Effect, StoreEvent } from '../protocol/effects.js';
import type { Encoded } from '../protocol/messages.js';
import { type EncodeLimits, encode } from './encode.js';
import type { ActionEntry, HistoryEntry, ReaderEffect } from './history.js';
import type { Call } from './resultCommands.js';

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
  private readonly calls = new Map<string, Call>();

  constructor(private readonly controller: Controller) {}

  /** Notes the call behind a read the store now keeps. */
  track(action: Action, committed: State): void {
    if (action.type !== 'setResponse' || action.endpoint.sideEffect) return;
    if (!this.calls.has(action.key) && committed.endpoints.has(action.key))
      this.calls.set(action.key, { endpoint: action.endpoint, args: action.args });
  }

  /** The call behind a stored read, by its key (what a refetch runs again). */
  callOf(key: string): Call | undefined {
    return this.calls.get(key);
  }

  /** The schemas of the reads the store keeps (where an entity's class is found). */
  *schemas(): Iterable<unknown> {
    for (const { endpoint } of this.calls.values()) yield endpoint.schema;
  }

  /**
   * The stored results an Invalidate touched, worked out as it happens (panel or not, so that
   * history and live events agree): every stored read whose value in the state before used an
   * invalidated entity. One rule from the states alone: each is read in the state before (the
   * controller's memo answers at once when the app has read it already), so whether a component
   * had rendered it yet does not matter. Each is read again from the state after, with the
   * app's own read (which its next render makes anyway): INVALID there, it suspends; otherwise
   * it lost a member.
   */
  readersOf(changes: ChangeSet, before: State, after: State): ReaderEffect[] {
    if (this.calls.size === 0) return NO_READERS;
    const invalidated = new Map<string, Set<string>>();
    for (const { entity, invalidated: pks } of changes.entities)
      for (const { pk } of pks) {
        const set = invalidated.get(entity) ?? new Set<string>();
        invalidated.set(entity, set.add(pk));
      }
    if (invalidated.size === 0) return NO_READERS;
    const readers: ReaderEffect[] = [];
    // The reads tracked, not every stored result: only a read's call can be read again, and
    // walking a large results table on every delete costs the app for nothing.
    for (const [key, call] of this.calls) {
      const result = before.endpoints.get(key);
      if (result === undefined) continue;
      const { endpoint } = call;
      try {
        const args = call.args as Parameters<typeof endpoint>;
        this.controller.getResponse(endpoint, ...args, before);
        const read = this.controller.memo.dependenciesOf(endpoint.schema, result);
        // A whole-table dependency (`schema.All`) loses a member to any delete in that table.
        const lost = read?.some(({ table, pk }) => {
          const deleted = invalidated.get(table);
          return deleted !== undefined && (pk === null || deleted.has(pk));
        });
        if (!lost) continue;
        const now = this.controller.getResponse(endpoint, ...args, after);
        readers.push({
          type:
            now.expiryStatus === ExpiryStatus.Invalid ? 'result-suspends' : 'result-lost-member',
          key,
          endpoint: endpoint.name,
        });
      } catch {
        // The app's own code (an entity's constructor) threw while reading: that result is left
        // out of the description, and the page goes on.
      }
    }
    return readers;
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
    const action = summarize(entry);
    if (entry.replayId !== undefined) action.replayId = entry.replayId;
    return { seq, time, action, effects: [...effectsOf(entry), ...entry.readers] };
  }
}

const NO_READERS: ReaderEffect[] = [];

/** The change-set's items as effects; values still the page's own. */
function effectsOf({ action, changes, kept }: ActionEntry): Effect<unknown>[] {
  const effects: Effect<unknown>[] = [];
  for (const { entity, added, updated, invalidated } of changes.entities) {
    if (added.length > 0) effects.push({ type: 'entities-added', entity, pks: added });
    if (updated.length > 0) effects.push({ type: 'entities-updated', entity, updates: updated });
    for (const invalidation of invalidated)
      effects.push({ type: 'entity-invalidated', entity, ...invalidation });
  }
  for (const change of changes.collections) effects.push({ type: 'collection-changed', ...change });
  const endpoint = 'endpoint' in action ? action.endpoint.name : '';
  for (const change of changes.results) {
    const isKept = kept.has(change.key);
    // encodeEffect drops `result` where it is not kept.
    if (change.type === 'result-stored')
      effects.push({ ...change, endpoint, kept: isKept, result: kept.get(change.key) });
    else if (change.type === 'result-error') effects.push({ ...change, endpoint, kept: isKept });
    else effects.push(change);
  }
  if (changes.reset) effects.push({ type: 'store-reset' });
  return effects;
}

/** What describing an action needs of the states around it, read while they are at hand. */
export function factsOf(
  action: Action,
  changes: ChangeSet,
  before: State,
  after: State,
): Pick<ActionEntry, 'kept' | 'settles' | 'optimisticAround'> {
  let kept: Map<string, unknown> | undefined;
  for (const { type, key } of changes.results) {
    // The store keeps a result (and its meta) for a read's newest answer only.
    if (type !== 'result-stored' && type !== 'result-error') continue;
    if (after.meta.get(key) === before.meta.get(key)) continue;
    kept ??= new Map();
    kept.set(key, type === 'result-stored' ? after.endpoints.get(key) : undefined);
  }
  return {
    kept: kept ?? NOTHING_KEPT,
    // The answer to a request whose optimistic response was shown settles it.
    settles:
      action.type === 'setResponse' &&
      before.optimistic.some(
        (entry) => entry.key === action.key && entry.fetchedAt === action.fetchedAt,
      ),
    // Only an optimistic fetch itself is described by its effects (its optimistic response's).
    optimisticAround:
      before.optimistic.length > 0 || (action.type !== 'fetch' && after.optimistic.length > 0),
  };
}

const NOTHING_KEPT: ReadonlyMap<string, unknown> = new Map();

/**
 * Whether the panel's copy of the state cannot follow this entry from its effects alone: an
 * optimistic response shown before or after it is undone by no effect.
 */
export function needsSnapshot(entry: HistoryEntry): boolean {
  return entry.kind === 'action' && entry.optimisticAround;
}

/** A fresh summary of an action (the caller may add to it). */
function summarize({ action, settles }: ActionEntry): ActionSummary<unknown> {
  switch (action.type) {
    case 'fetch':
      // Only optimistic fetches change the store.
      return { ...callSummary(action), optimistic: 'applied' };
    case 'setResponse': {
      const summary = callSummary(action);
      summary.duration = action.date - action.fetchedAt;
      if (action.error) summary.error = action.response;
      else summary.response = action.response;
      if (settles) summary.optimistic = action.error ? 'rolled-back' : 'committed';
      return summary;
    }
    case 'invalidate':
      return { type: 'invalidate', key: action.key };
    default:
      return { type: action.type };
  }
}

function callSummary(action: Extract<Action, { type: 'fetch' | 'setResponse' }>) {
  const { type, endpoint, args, key } = action;
  const mutation = endpoint.sideEffect === true;
  const summary: ActionSummary<unknown> = {
    type,
    endpoint: endpoint.name,
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
    case 'entity-invalidated':
      return { ...effect, from: value(effect.from) };
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
