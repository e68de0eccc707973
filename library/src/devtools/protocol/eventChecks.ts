/**
 * The descriptions the panel checks the events it parses against. Their types are declared in
 * `effects.ts`, from the change-set's own types (the change-set is where they are defined): a
 * type test holds each description's type to be exactly the one it checks.
 */

import { COLLECTION_CHANGE_KINDS } from '../../normalize/changeKinds.js';
import {
  array,
  boolean,
  type Check,
  integer,
  literal,
  number,
  object,
  optional,
  string,
  variants,
} from './check.js';
import type { Effect, EffectType } from './effects.js';
import { encoded, encodedList, seq, shortText } from './messages.js';

const strings = array(string());

const fieldChange = object({ field: string(), before: encoded, after: encoded });
const entityUpdate = object({ pk: string(), fields: array(fieldChange) });

/** Each effect type's description, of the effect it describes. */
export const EFFECT_CHECKS = {
  'entities-added': object({
    type: literal('entities-added'),
    entity: string(),
    pks: strings,
    labels: optional(strings),
    rows: optional(array(encoded)),
  }),
  'entities-updated': object({
    type: literal('entities-updated'),
    entity: string(),
    updates: array(entityUpdate),
    labels: optional(strings),
  }),
  'entity-invalidated': object({
    type: literal('entity-invalidated'),
    entity: string(),
    pk: string(),
    from: encoded,
    via: literal('response', 'url-params'),
    label: optional(string()),
    last: optional(encoded),
  }),
  'collection-changed': object({
    type: literal('collection-changed'),
    collection: string(),
    row: string(),
    kind: literal(...COLLECTION_CHANGE_KINDS),
    lengthBefore: number(),
    lengthAfter: number(),
    inserted: array(object({ index: seq, pks: strings })),
    duplicates: strings,
    removed: strings,
    members: optional(strings),
  }),
  'result-stored': object({
    type: literal('result-stored'),
    key: string(),
    endpoint: string(),
    expiresAt: number(),
    kept: boolean(),
    result: optional(encoded),
  }),
  'result-error': object({
    type: literal('result-error'),
    key: string(),
    endpoint: string(),
    error: encoded,
    kept: boolean(),
  }),
  'result-invalidated': object({ type: literal('result-invalidated'), key: string() }),
  'result-expired': object({ type: literal('result-expired'), key: string() }),
  'result-suspends': object({
    type: literal('result-suspends'),
    key: string(),
    endpoint: string(),
  }),
  'result-lost-member': object({
    type: literal('result-lost-member'),
    key: string(),
    endpoint: string(),
  }),
  'store-reset': object({ type: literal('store-reset') }),
  'replay-result': object({
    type: literal('replay-result'),
    replayId: string(),
    index: seq,
    endpoint: string(),
    ok: boolean(),
    error: optional(string()),
    response: optional(encoded),
  }),
} satisfies { [T in EffectType]: Check<Extract<Effect, { type: T }>> };

/**
 * One effect. One of a type this version does not know (from a newer library) is kept, and shown
 * without details.
 */
export const effect = variants('type', EFFECT_CHECKS, object({ type: string() }));

/** A reason a reader gave: its component, when the page could name it. */
const readerReason = <K extends string>(kind: K) =>
  object({ kind: literal(kind), component: optional(shortText) });

/** Why an action ran. A reason of a kind this version does not know is shown by its kind. */
export const fetchReason = variants(
  'kind',
  {
    mount: readerReason('mount'),
    'args-changed': readerReason('args-changed'),
    invalid: readerReason('invalid'),
    stale: readerReason('stale'),
    poll: object({ kind: literal('poll'), frequency: number({ finite: true, above: 0 }) }),
    app: object({ kind: literal('app') }),
    devtools: object({ kind: literal('devtools'), command: shortText }),
  },
  object({ kind: shortText }),
);

export const traceFrame = object({
  function: optional(shortText),
  url: shortText,
  line: seq,
  column: seq,
});

export const actionCause = object({
  reason: fetchReason,
  by: optional(object({ seq: integer({ min: 1 }), label: shortText })),
  trace: optional(array(traceFrame, { max: 64 })),
});

/**
 * An action. Its type is any text: a newer library's actions are shown by their type (see the
 * type test for what this widens).
 */
export const actionSummary = object({
  type: string(),
  endpoint: optional(string()),
  key: optional(string()),
  method: optional(string()),
  url: optional(string()),
  mutation: optional(boolean()),
  args: optional(encodedList),
  body: optional(encoded),
  response: optional(encoded),
  error: optional(encoded),
  duration: optional(number()),
  optimistic: optional(literal('applied', 'committed', 'rolled-back')),
  replayId: optional(string()),
  cause: optional(actionCause),
});

export const storeEvent = object({
  /** From 1 (0 is the seq of a store that has made no event yet). */
  seq: integer({ min: 1 }),
  time: number(),
  action: actionSummary,
  effects: array(effect),
  effectsOmitted: optional(boolean()),
});
