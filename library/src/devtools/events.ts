import type { EndpointInterface } from '../endpoint/types.js';
import type { TraceEvent } from '../normalize/trace.js';
import type { Controller } from '../store/Controller.js';
import type { StoreRecord } from '../store/createStore.js';
import { ExpiryStatus, type State } from '../store/state.js';
import { type EncodeLimits, encodeMeasured } from './encode.js';
import type { ActionSummary, Effect, StoreEvent } from './protocol.js';

/** A StoreEvent before encoding: values are the page's own objects. */
export type RawStoreEvent = StoreEvent<unknown> & {
  /** The panel's copy of the state cannot follow this event from its effects alone. */
  needsSnapshot?: boolean;
};

const REQUEST_KEY = /^(GET|POST|PUT|PATCH|DELETE) (.*)$/;

/**
 * Describes each store change as a StoreEvent: the action in the user's terms and its effects,
 * from the normalizer's trace plus what the change means for stored results.
 */
export class EventDescriber {
  /** The call behind each stored GET result, to re-read it after an Invalidate. */
  private readonly calls = new Map<
    string,
    { endpoint: EndpointInterface; args: readonly unknown[] }
  >();

  constructor(
    private readonly controller: Controller,
    private readonly onEndpoint: (endpoint: EndpointInterface) => void,
  ) {}

  describe(record: StoreRecord): Omit<RawStoreEvent, 'seq' | 'time'> {
    const { action, before, after } = record;
    const pendingBefore = before.optimistic.length > 0;
    switch (action.type) {
      case 'fetch': {
        // Only optimistic fetches change the store: the effects are those of the optimistic response.
        this.onEndpoint(action.endpoint);
        return {
          action: {
            ...this.callSummary(action.endpoint, action.args, action.key),
            type: 'fetch',
            optimistic: 'applied',
          },
          // The normalizer's trace already has the effects' shape (see normalize/trace.ts).
          effects: record.trace.slice(),
          needsSnapshot: pendingBefore,
        };
      }
      case 'setResponse': {
        const { endpoint, args, key } = action;
        this.onEndpoint(endpoint);
        const settled = before.optimistic.some(
          (entry) => entry.key === key && entry.fetchedAt === action.fetchedAt,
        );
        const summary: ActionSummary<unknown> = {
          ...this.callSummary(endpoint, args, key),
          type: 'setResponse',
          duration: action.date - action.fetchedAt,
          ...(action.error ? { error: action.response } : { response: action.response }),
          ...(settled ? { optimistic: action.error ? 'rolled-back' : 'committed' } : {}),
        };
        const effects: Effect<unknown>[] = record.trace.slice();
        const meta = after.meta[key];
        if (meta?.error !== undefined && meta.fetchedAt === action.fetchedAt) {
          effects.push({ type: 'result-error', key, endpoint: endpoint.name, error: meta.error });
        } else if (after.endpoints[key] !== before.endpoints[key] || meta !== before.meta[key]) {
          effects.push({
            type: 'result-stored',
            key,
            endpoint: endpoint.name,
            result: after.endpoints[key],
            expiresAt: meta?.expiresAt ?? 0,
          });
          // The first reader of a key names it: a page merged into a list keeps the list's name.
          if (!endpoint.sideEffect && !this.calls.has(key)) this.calls.set(key, { endpoint, args });
        }
        if (record.trace.some((event) => event.type === 'entity-invalidated'))
          effects.push(...this.readersOfInvalidated(record.trace, after));
        return {
          action: summary,
          effects,
          needsSnapshot: pendingBefore || after.optimistic.length > 0,
        };
      }
      case 'invalidate':
      case 'invalidateAll': {
        const keys = Object.keys(after.meta).filter(
          (key) => after.meta[key]?.invalidated && before.meta[key] !== after.meta[key],
        );
        return {
          action: {
            type: action.type,
            ...(action.type === 'invalidate' ? { key: action.key } : {}),
          },
          effects: [{ type: 'result-invalidated', keys }],
          needsSnapshot: pendingBefore,
        };
      }
      case 'expireAll': {
        const keys = Object.keys(after.meta).filter((key) => before.meta[key] !== after.meta[key]);
        return {
          action: { type: 'expireAll' },
          effects: [{ type: 'result-expired', keys }],
          needsSnapshot: pendingBefore,
        };
      }
      case 'reset':
        this.calls.clear();
        return { action: { type: 'reset' }, effects: [{ type: 'store-reset' }] };
    }
  }

  private callSummary(
    endpoint: EndpointInterface,
    args: readonly unknown[],
    key: string,
  ): Omit<ActionSummary<unknown>, 'type'> {
    const requestKey = (endpoint as { requestKey?: (...args: unknown[]) => string }).requestKey;
    const request = REQUEST_KEY.exec(
      typeof requestKey === 'function' ? requestKey.apply(endpoint, args as unknown[]) : key,
    );
    const mutation = endpoint.sideEffect === true;
    return {
      endpoint: endpoint.name,
      key,
      ...(request ? { method: request[1], url: request[2] } : {}),
      mutation,
      args: args as unknown[],
      ...(mutation && args.length > 1 ? { body: args[args.length - 1] } : {}),
    };
  }

  /**
   * Stored results an Invalidate touched: those that now suspend, and those that only lost a
   * member. Only results whose last reading was built from an invalidated entity are read again.
   */
  private readersOfInvalidated(trace: readonly TraceEvent[], after: State): Effect<unknown>[] {
    const invalidated = new Set<string>();
    for (const event of trace) {
      if (event.type === 'entity-invalidated') invalidated.add(`${event.entity}\u0000${event.pk}`);
    }
    const effects: Effect<unknown>[] = [];
    for (const [key, { endpoint, args }] of this.calls) {
      const result = after.endpoints[key];
      if (result === undefined) continue;
      const read = this.controller.memo.dependenciesOf(endpoint.schema, result);
      if (!read?.some((row) => invalidated.has(`${row.table}\u0000${row.pk}`))) continue;
      const now = this.controller.getResponse(
        endpoint,
        ...(args as Parameters<typeof endpoint>),
        after,
      );
      effects.push({
        type: now.expiryStatus === ExpiryStatus.Invalid ? 'result-suspends' : 'result-lost-member',
        key,
        endpoint: endpoint.name,
      });
    }
    return effects;
  }
}

const VALUE_FIELDS = ['row', 'from', 'result', 'error'] as const;

/**
 * The wire form of an event: every carried value encoded (capped, JSON-safe), and roughly how
 * many characters of JSON it takes.
 */
export function encodeEvent(
  event: RawStoreEvent,
  limits: { action?: EncodeLimits; effects?: EncodeLimits } = {},
): { event: StoreEvent; size: number } {
  let size = 200; // the fixed fields
  const measuredWith = (caps: EncodeLimits | undefined) => (value: unknown) => {
    const encoded = encodeMeasured(value, caps);
    size += encoded.size;
    return encoded.value;
  };
  const measured = measuredWith(limits.action);
  const measuredEffect = measuredWith(limits.effects);
  const { needsSnapshot: _, action, effects, ...rest } = event;
  const encodedAction = { ...action } as ActionSummary;
  if (action.args) encodedAction.args = action.args.map(measured);
  for (const field of ['body', 'response', 'error'] as const) {
    if (field in action) encodedAction[field] = measured(action[field]);
  }
  const encodedEffects = effects.map((effect) => {
    const copy = { ...effect } as Record<string, unknown>;
    for (const field of VALUE_FIELDS) if (field in copy) copy[field] = measuredEffect(copy[field]);
    size += 100;
    return copy as Effect;
  });
  return { event: { ...rest, action: encodedAction, effects: encodedEffects }, size };
}
