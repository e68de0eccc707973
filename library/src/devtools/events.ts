import type { EndpointInterface } from '../endpoint/types.js';
import { EMPTY_TRACE, type PackedTrace, unpackTrace } from '../normalize/trace.js';
import type { Action } from '../store/actions.js';
import type { Controller } from '../store/Controller.js';
import type { StoreRecord, TracedRecord } from '../store/createStore.js';
import { ExpiryStatus, type State } from '../store/state.js';
import { type EncodeLimits, encode } from './encode.js';
import type { ActionSummary, Effect, Encoded, StoreEvent } from './protocol.js';

const NO_EFFECTS: readonly Effect<unknown>[] = [];

/**
 * A note's type by its index (the low bits of NotedChange's `bits`): the store's action types,
 * and `replay` for what the bridge itself did (a replay's outcome).
 */
const TYPES = [
  'fetch',
  'setResponse',
  'invalidate',
  'invalidateAll',
  'expireAll',
  'reset',
  'replay',
] as const;
/** Every action type is one of them: the store's actions are passed as they are. */
type NoteType = (typeof TYPES)[number];

/** The parts of NotedChange's `bits`. */
const Bits = {
  Type: 0b111,
  NeedsSnapshot: 1 << 3,
  Failed: 1 << 4,
  Settled: 1 << 5,
  Stored: 1 << 6,
  Error: 1 << 7,
  /** `argsKept` is the call's one arg. */
  OneArg: 1 << 8,
  /** The change's effects could not be worked out (see NotedChange.withUnknownEffects). */
  EffectsUnknown: 1 << 9,
} as const;

const NO_ARGS: readonly unknown[] = [];
/** The ring keeps its times from here, so that they are small integers. */
const EPOCH = Date.now();

/** A time as the ring keeps it: ms since EPOCH (see `small`). */
export const sinceEpoch = (time: number): number => small(time - EPOCH);

/** A time the ring kept (see sinceEpoch). */
export const fromEpoch = (since: number): number => EPOCH + since;

/**
 * `value` as a small integer when it is one. A field that has only held those keeps them in
 * place; one number that is not (a timestamp, or a difference the interpreter computed as a
 * double) makes V8 keep that field of every note as a separate boxed number.
 */
function small(value: number): number {
  const integer = value | 0;
  return integer === value ? integer : value;
}

/** What every entry of the bridge's ring has: its seq, when it was kept, and its replay. */
export class Stamped {
  /** Set by `stamp`, when the bridge keeps the entry. */
  seq = 0;
  /** See sinceEpoch. */
  private keptAt = 0;
  /** The replay that caused it. */
  replayId: string | undefined = undefined;

  /** Numbers the entry and records when it was kept. */
  stamp(seq: number): void {
    this.seq = seq;
    this.keptAt = sinceEpoch(Date.now());
  }

  /** Takes the stamp of the entry it replaces (a change noted after it was kept untraced). */
  stampedAs(entry: Stamped): this {
    this.seq = entry.seq;
    this.keptAt = entry.keptAt;
    this.replayId = entry.replayId;
    return this;
  }

  get time(): number {
    return fromEpoch(this.keptAt);
  }
}

/**
 * A store change as the bridge keeps it in its ring: what the action was and what it did, noted
 * at the cost of a few references, and described in the user's terms (`describe`) only when a
 * panel reads it. A class, so that every note has all its fields from the start: one small
 * object of one shape, where fields added later would cost a second object. It copies what it
 * needs of the store's action rather than keeping the action, whose timestamps are three more
 * objects (numbers past 2³¹ are boxed), for the ring's 1000 changes.
 */
export class NotedChange extends Stamped {
  /** The endpoint called (a fetch or a response). */
  endpoint: EndpointInterface | undefined = undefined;
  /** The call's args, or its one arg itself (see `args`). */
  private argsKept: unknown = NO_ARGS;
  /** The result key (a call's, or an invalidation's). */
  key: string | undefined = undefined;
  /** A response's answer or error, or a replay outcome's endpoint name. */
  value: unknown = undefined;
  /** From the request's start to its answer, in ms. */
  duration = 0;
  /** The stored result, or the error (see `result`). */
  resultValue: unknown = undefined;
  /** When the stored result expires (see sinceEpoch). */
  private expiresSinceEpoch = 0;
  /**
   * The type and the yes-or-no facts, in one small integer (see Bits): five fields were 40 of
   * the note's 160 bytes, for each of the ring's changes.
   */
  private bits: number;

  constructor(
    type: NoteType,
    /** The normalizer's trace, packed (see normalize/trace.ts): effects once unpacked. */
    readonly trace: PackedTrace,
    /** Other effects read from the state at the time (results invalidated, suspending …). */
    readonly effects: readonly Effect<unknown>[] = NO_EFFECTS,
    needsSnapshot = false,
  ) {
    super();
    this.bits = TYPES.indexOf(type) | (needsSnapshot ? Bits.NeedsSnapshot : 0);
  }

  /** The store's action type, or `replay` (see TYPES). */
  get type(): NoteType {
    return TYPES[this.bits & Bits.Type] as NoteType;
  }

  /** The call's args (a list made now for a call of one). */
  get args(): readonly unknown[] {
    return (this.bits & Bits.OneArg) !== 0
      ? [this.argsKept]
      : (this.argsKept as readonly unknown[]);
  }

  /** The panel's copy of the state cannot follow this change from its effects alone. */
  get needsSnapshot(): boolean {
    return (this.bits & Bits.NeedsSnapshot) !== 0;
  }

  /** The response is an error. */
  get failed(): boolean {
    return (this.bits & Bits.Failed) !== 0;
  }

  set failed(failed: boolean) {
    this.bits = failed ? this.bits | Bits.Failed : this.bits & ~Bits.Failed;
  }

  /** A response that settled an optimistic update of its own request. */
  get settled(): boolean {
    return (this.bits & Bits.Settled) !== 0;
  }

  set settled(settled: boolean) {
    this.bits = settled ? this.bits | Bits.Settled : this.bits & ~Bits.Settled;
  }

  /**
   * What a response did to its result, read from the state at the time: kept in the note rather
   * than as an effect object, because every response has one.
   */
  get result(): 'stored' | 'error' | undefined {
    const bits = this.bits & (Bits.Stored | Bits.Error);
    return bits === Bits.Stored ? 'stored' : bits === Bits.Error ? 'error' : undefined;
  }

  set result(result: 'stored' | 'error' | undefined) {
    const bits = result === 'stored' ? Bits.Stored : result === 'error' ? Bits.Error : 0;
    this.bits = (this.bits & ~(Bits.Stored | Bits.Error)) | bits;
  }

  /**
   * A change whose effects could not be worked out after it happened (a schema's or an
   * endpoint's own code threw the second time): what is known of its action, and a snapshot
   * after it.
   */
  static withUnknownEffects(type: NoteType): NotedChange {
    const change = new NotedChange(type, EMPTY_TRACE, NO_EFFECTS, true);
    change.bits |= Bits.EffectsUnknown;
    return change;
  }

  /** Its effects could not be worked out: it has none to show. */
  get effectsUnknown(): boolean {
    return (this.bits & Bits.EffectsUnknown) !== 0;
  }

  /** Notes the call an action is about (a fetch or a response; the key when it is known). */
  called(action: { endpoint: EndpointInterface; args: readonly unknown[]; key?: string }): this {
    this.endpoint = action.endpoint;
    // A read's args are most often one (its URL params) or none: the note keeps no list for them.
    const { args } = action;
    if (args.length === 1) {
      this.argsKept = args[0];
      this.bits |= Bits.OneArg;
    } else {
      this.argsKept = args.length === 0 ? NO_ARGS : args;
    }
    this.key = action.key;
    return this;
  }

  get expiresAt(): number {
    return fromEpoch(this.expiresSinceEpoch);
  }

  set expiresAt(time: number) {
    this.expiresSinceEpoch = sinceEpoch(time);
  }
}

const REQUEST_KEY = /^(GET|POST|PUT|PATCH|DELETE) (.*)$/;

/**
 * Keeps track of every store change (`track`), notes a traced one (`note`: only what must be read
 * from the states around it) and describes a note as a StoreEvent when a panel wants it
 * (`describe`): the action in the user's terms and its effects, from the normalizer's trace plus
 * what the change means for stored results.
 */
export class EventDescriber {
  /**
   * The call behind each stored GET result, to re-read it after an Invalidate. Made at the first
   * one: a store that never stores a read (or a bridge that never sees one) keeps no empty Map.
   * Kept across a reset: a panel connecting later works out the changes before it as well.
   */
  private calls: Map<string, { endpoint: EndpointInterface; args: readonly unknown[] }> | undefined;

  constructor(
    private readonly controller: Controller,
    private readonly onEndpoint: (endpoint: EndpointInterface) => void,
  ) {}

  /**
   * What notes need from every change, traced or not, as it happens: the endpoints called (a
   * replay finds them by name) and the call behind each stored read.
   */
  track({ action, after }: StoreRecord): void {
    if (action.type !== 'fetch' && action.type !== 'setResponse') return;
    const { endpoint, args, key } = action;
    this.onEndpoint(endpoint);
    // The first reader of a key names it: a page merged into a list keeps the list's name.
    if (
      action.type === 'setResponse' &&
      !endpoint.sideEffect &&
      after.endpoints[key] !== undefined &&
      !this.calls?.has(key)
    ) {
      this.calls ??= new Map();
      this.calls.set(key, { endpoint, args });
    }
  }

  /**
   * Notes a traced change. `retraced` is a reader of its own for a change worked out again after
   * it happened (see readersOfInvalidated).
   */
  note(record: TracedRecord, retraced?: Controller): NotedChange {
    const { action, before, after, trace } = record;
    const pendingBefore = before.optimistic.length > 0;
    switch (action.type) {
      case 'fetch':
        // Only optimistic fetches change the store: the trace is the optimistic response's.
        return new NotedChange('fetch', trace.kept(), NO_EFFECTS, pendingBefore).called(action);
      case 'setResponse': {
        const { key } = action;
        const change = new NotedChange(
          'setResponse',
          trace.kept(),
          trace.invalidates ? this.readersOfInvalidated(record, retraced) : NO_EFFECTS,
          pendingBefore || after.optimistic.length > 0,
        ).called(action);
        change.value = action.response;
        change.failed = action.error;
        change.duration = small(action.date - action.fetchedAt);
        const meta = after.meta[key];
        if (meta?.error !== undefined && meta.fetchedAt === action.fetchedAt) {
          change.result = 'error';
          change.resultValue = meta.error;
        } else if (after.endpoints[key] !== before.endpoints[key] || meta !== before.meta[key]) {
          change.result = 'stored';
          change.resultValue = after.endpoints[key];
          change.expiresAt = meta?.expiresAt ?? 0;
        }
        change.settled = pendingBefore && isSettledBy(action, before);
        return change;
      }
      case 'invalidate':
      case 'invalidateAll': {
        const keys = Object.keys(after.meta).filter(
          (key) => after.meta[key]?.invalidated && before.meta[key] !== after.meta[key],
        );
        const change = new NotedChange(
          action.type,
          trace.kept(),
          [{ type: 'result-invalidated', keys }],
          pendingBefore,
        );
        if (action.type === 'invalidate') change.key = action.key;
        return change;
      }
      case 'expireAll': {
        const keys = Object.keys(after.meta).filter((key) => before.meta[key] !== after.meta[key]);
        return new NotedChange(
          'expireAll',
          trace.kept(),
          [{ type: 'result-expired', keys }],
          pendingBefore,
        );
      }
      case 'reset':
        return new NotedChange('reset', EMPTY_TRACE, [{ type: 'store-reset' }]);
    }
  }

  /** The change as a StoreEvent; values are still the page's own objects. */
  describe(change: NotedChange): StoreEvent<unknown> {
    const action = summarize(change);
    if (change.replayId !== undefined) action.replayId = change.replayId;
    const effects: Effect<unknown>[] = unpackTrace(change.trace);
    const result = resultEffect(change);
    if (result) effects.push(result);
    for (const effect of change.effects) effects.push(effect);
    const event: StoreEvent<unknown> = { seq: change.seq, time: change.time, action, effects };
    if (change.effectsUnknown) event.effectsOmitted = true;
    return event;
  }

  /**
   * Stored results an Invalidate touched: those that now suspend, and those that only lost a
   * member. As it happens, only results whose last reading by the app was built from an
   * invalidated entity are read again. A change worked out later is not the app's to read: every
   * stored read is read against the state before it, with the `retraced` reader's own memo, so
   * that the app's memo never holds the states made again.
   */
  private readersOfInvalidated(
    { before, after, trace }: TracedRecord,
    retraced: Controller | undefined,
  ): Effect<unknown>[] {
    // Pks by table: a result read from a long list is checked row by row, without building a
    // key string for each of its rows.
    const invalidated = new Map<string, Set<string>>();
    for (const event of trace.events) {
      if (event.type !== 'entity-invalidated') continue;
      const pks = invalidated.get(event.entity);
      if (pks) pks.add(event.pk);
      else invalidated.set(event.entity, new Set([event.pk]));
    }
    const reader = retraced ?? this.controller;
    const effects: Effect<unknown>[] = [];
    for (const [key, { endpoint, args }] of this.calls ?? []) {
      const result = after.endpoints[key];
      if (result === undefined) continue;
      const call = args as Parameters<typeof endpoint>;
      if (retraced) retraced.getResponse(endpoint, ...call, before);
      const read = reader.memo.dependenciesOf(endpoint.schema, result);
      if (!read?.some((row) => invalidated.get(row.table)?.has(row.pk))) continue;
      const now = reader.getResponse(endpoint, ...call, after);
      effects.push({
        type: now.expiryStatus === ExpiryStatus.Invalid ? 'result-suspends' : 'result-lost-member',
        key,
        endpoint: endpoint.name,
      });
    }
    return effects;
  }
}

function resultEffect(change: NotedChange): Effect<unknown> | undefined {
  const { result, resultValue, endpoint, key } = change;
  if (result === undefined || endpoint === undefined || key === undefined) return undefined;
  return result === 'stored'
    ? {
        type: 'result-stored',
        key,
        endpoint: endpoint.name,
        result: resultValue,
        expiresAt: change.expiresAt,
      }
    : { type: 'result-error', key, endpoint: endpoint.name, error: resultValue };
}

/** Whether a response settles an optimistic update: the one its own request applied. */
function isSettledBy(action: Extract<Action, { type: 'setResponse' }>, before: State): boolean {
  return before.optimistic.some(
    (entry) => entry.key === action.key && entry.fetchedAt === action.fetchedAt,
  );
}

/** A fresh summary (the caller may add to it). */
function summarize(change: NotedChange): ActionSummary<unknown> {
  const { type, endpoint, key } = change;
  if (endpoint !== undefined && (type === 'fetch' || type === 'setResponse')) {
    const summary = callSummary(type, endpoint, change.args, key);
    if (type === 'fetch') {
      summary.optimistic = 'applied';
      return summary;
    }
    summary.duration = change.duration;
    if (change.failed) summary.error = change.value;
    else summary.response = change.value;
    if (change.settled) summary.optimistic = change.failed ? 'rolled-back' : 'committed';
    return summary;
  }
  if (type === 'invalidate') return { type, key };
  if (type === 'replay' && change.value !== undefined)
    return { type, endpoint: change.value as string };
  return { type };
}

function callSummary(
  type: 'fetch' | 'setResponse',
  endpoint: EndpointInterface,
  args: readonly unknown[],
  /** Unknown for a change whose effects could not be worked out: its endpoint's code is not run. */
  key: string | undefined,
): ActionSummary<unknown> {
  const mutation = endpoint.sideEffect === true;
  const summary: ActionSummary<unknown> = {
    type,
    endpoint: endpoint.name,
    mutation,
    args: args as unknown[],
  };
  if (mutation && args.length > 1) summary.body = args[args.length - 1];
  if (key === undefined) return summary;
  summary.key = key;
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

/** The values effects carry (the rest of their fields are names and numbers). */
const VALUE_FIELDS = ['from', 'result', 'error'] as const;

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
  const { action, effects } = event;
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
  const encodedEffects = effects.map((effect) => {
    if (!VALUE_FIELDS.some((field) => field in effect)) return effect as Effect;
    const copy = { ...effect } as Record<string, unknown>;
    for (const field of VALUE_FIELDS)
      if (field in copy) copy[field] = encode(copy[field], limits.effects);
    return copy as Effect;
  });
  return { ...event, action: encodedAction, effects: encodedEffects };
}
