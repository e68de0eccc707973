/**
 * The validators that decide which messages are accepted, on both sides. Whatever they accept
 * is safe to apply and to render: every field the panel reads, applies or shows is checked.
 *
 * A validator answers false, never throws, even when reading a field throws (a getter or a
 * Proxy in a message that a script of the page dispatched on the window): an exception would
 * escape the message listener.
 */

import { COLLECTION_CHANGE_KINDS } from '../../normalize/changeKinds.js';
import type { EffectType, StoreEvent } from './effects.js';
import {
  type Encoded,
  type EventsMessage,
  type ExtensionCommand,
  MAX_MESSAGE_LENGTH,
  MAX_ROWS_PER_REQUEST,
  MAX_SEARCH_LENGTH,
  MAX_SNAPSHOT_CHUNKS,
  MAX_VALUE_DEPTH,
  type MembersMessage,
  type PageMessage,
  PROTOCOL_TAG,
  PROTOCOL_VERSION,
  type RecordedMutation,
  SNAPSHOT_CHUNK_LENGTH,
  type SnapshotState,
} from './messages.js';

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString: Check = (value) => typeof value === 'string';
/** Names the panel shows as they are (a store's name, the library version). */
const isShortString: Check = (value) => typeof value === 'string' && value.length < 1024;
const isNonEmptyString: Check = (value) => isShortString(value) && (value as string).length > 0;
const isSeq: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
/** An event's seq: from 1 (0 is the seq of a store that has made no event yet). */
const isEventSeq: Check = (value) => isSeq(value) && (value as number) >= 1;
const isNumber: Check = (value) => typeof value === 'number';
/** A poll frequency: a positive, finite number of ms (a structured clone carries NaN and ∞). */
const isFrequency: Check = (value) => Number.isFinite(value) && (value as number) > 0;
const isBoolean: Check = (value) => typeof value === 'boolean';
const isTrue: Check = (value) => value === true;
const isArrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
const isStrings = isArrayOf(isString);
const isOptional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const isOneOf =
  (...allowed: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && allowed.includes(value);
/** A list of keys one read may ask for (pks, result keys). */
const isKeyList: Check = (keys) =>
  Array.isArray(keys) && keys.length <= MAX_ROWS_PER_REQUEST && keys.every(isString);

function hasFields(
  value: unknown,
  fields: Record<string, Check>,
  optional: Record<string, Check> = {},
): boolean {
  return shape(fields, optional)(value);
}

/**
 * The check of an object with these fields (and these optional ones), its lists of fields made
 * once: events are checked by the thousand, each with several such shapes.
 */
function shape(fields: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  const required = Object.entries(fields);
  const allowed = Object.entries(optional);
  return (value) => {
    if (!isObject(value)) return false;
    for (const [name, check] of required) if (!check(value[name])) return false;
    for (const [name, check] of allowed)
      if (value[name] !== undefined && !check(value[name])) return false;
    return true;
  };
}

function isEnvelope(
  value: unknown,
  source: 'page' | 'extension',
): value is Record<string, unknown> {
  return (
    isObject(value) &&
    value.tag === PROTOCOL_TAG &&
    value.v === PROTOCOL_VERSION &&
    value.source === source
  );
}

/**
 * Whether a value is JSON within MAX_MESSAGE_LENGTH characters. A page message is a
 * structured clone, not parsed JSON: it can hold one object in many places (written out, a copy
 * in each: a value of 64 levels that each hold the next one twice is 2^64 copies), and values JSON
 * cannot carry (Map, Set, Date, typed arrays: `{}` once written; BigInt). So the value is first
 * walked counting what its text would at least hold (each string, key and value adds its length,
 * or one), which stops as soon as the count passes the limit; only then is it written.
 */
function withinSize(value: unknown): boolean {
  try {
    return mayFit(value, MAX_MESSAGE_LENGTH) && JSON.stringify(value).length <= MAX_MESSAGE_LENGTH;
  } catch {
    return false;
  }
}

/**
 * Whether a value is JSON whose text may be at most `limit` characters: what it would at least
 * hold, counted without writing it (see withinSize). Throws when a field does.
 */
function mayFit(value: unknown, limit: number): boolean {
  let left = limit;
  const fits = (item: unknown): boolean => {
    left -= typeof item === 'string' ? item.length + 2 : 1;
    if (left < 0 || typeof item === 'bigint') return false;
    if (typeof item !== 'object' || item === null) return true;
    if (Array.isArray(item)) {
      // Every item adds at least a comma, holes too (which `every` would skip).
      left -= item.length;
      return left >= 0 && item.every(fits);
    }
    // A plain object (of any realm); a Map, a Date or a typed array is not.
    if (Object.prototype.toString.call(item) !== '[object Object]') return false;
    return Object.keys(item).every((key) => {
      const field = (item as Record<string, unknown>)[key];
      // JSON leaves out a field that is undefined (or a function): it adds nothing.
      if (field === undefined || typeof field === 'function' || typeof field === 'symbol')
        return true;
      left -= key.length + 3;
      return fits(field);
    });
  };
  return fits(value);
}

/**
 * The most a page message's JSON may hold: its data (at most MAX_MESSAGE_LENGTH) and a few
 * short fields. The content script forwards a message whole, fields the protocol does not know
 * included, and the port writes it as JSON: a field sharing one object among many places would
 * make that write never end.
 */
const MAX_PAGE_MESSAGE_LENGTH = 2 * MAX_MESSAGE_LENGTH;

/** Whether a value nests at most `levels` lists and objects deep (stops at the first too deep). */
function nestsWithin(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (levels === 0) return false;
  for (const child of Array.isArray(value) ? value : Object.values(value))
    if (!nestsWithin(child, levels - 1)) return false;
  return true;
}
/** A carried value: any JSON, nested at most MAX_VALUE_DEPTH deep (or absent). */
const isValue: Check = (value) => nestsWithin(value, MAX_VALUE_DEPTH);
/** Whether parsed JSON is a value the panel can carry and show (see isValue). */
export const isCarriedValue = (value: unknown): value is Encoded | undefined => isValue(value);
const isValues: Check = (value) => Array.isArray(value) && isValue(value);

const isFieldChange = shape({ field: isString, before: isValue, after: isValue });
const isEntityUpdate = shape({ pk: isString, fields: isArrayOf(isFieldChange) });

/**
 * The fields of each effect type. Effects of a type not listed here (from a newer library) are
 * kept, and shown without details.
 */
const EFFECT_FIELDS: Record<EffectType, Record<string, Check>> = {
  'entities-added': { entity: isString, pks: isStrings, labels: isOptional(isStrings) },
  'entities-updated': {
    entity: isString,
    updates: isArrayOf(isEntityUpdate),
    labels: isOptional(isStrings),
  },
  'entity-invalidated': {
    entity: isString,
    pk: isString,
    from: isValue,
    via: isOneOf('response', 'url-params'),
    label: isOptional(isString),
    last: isValue,
  },
  'collection-changed': {
    collection: isString,
    row: isString,
    kind: isOneOf(...COLLECTION_CHANGE_KINDS),
    lengthBefore: isNumber,
    lengthAfter: isNumber,
    inserted: isArrayOf(shape({ index: isSeq, pks: isStrings })),
    duplicates: isStrings,
    removed: isStrings,
    members: isOptional(isStrings),
  },
  'result-stored': {
    key: isString,
    endpoint: isString,
    expiresAt: isNumber,
    kept: isBoolean,
    result: isValue,
  },
  'result-error': { key: isString, endpoint: isString, error: isValue, kept: isBoolean },
  'result-invalidated': { key: isString },
  'result-expired': { key: isString },
  'result-suspends': { key: isString, endpoint: isString },
  'result-lost-member': { key: isString, endpoint: isString },
  'store-reset': {},
  'replay-result': {
    replayId: isString,
    index: isSeq,
    endpoint: isString,
    ok: isBoolean,
    error: isOptional(isString),
    response: isValue,
  },
};

/** Each effect type's check, made once from EFFECT_FIELDS. */
const EFFECT_SHAPES = new Map(
  Object.entries(EFFECT_FIELDS).map(([type, fields]) => [type, shape(fields)]),
);
const hasType = shape({ type: isString });

const isEffect: Check = (effect) =>
  hasType(effect) && (EFFECT_SHAPES.get((effect as { type: string }).type)?.(effect) ?? true);

/** Names the panel shows as they are (a component, a devtools command). */
const isName: Check = (value) => isShortString(value);
/** The fields of each reason a page gives for an action (see FetchReason). */
const REASON_SHAPES: Record<string, Check> = {
  mount: shape({}, { component: isName }),
  'args-changed': shape({}, { component: isName }),
  invalid: shape({}, { component: isName }),
  stale: shape({}, { component: isName }),
  poll: shape({ frequency: isFrequency }),
  app: shape({}),
  devtools: shape({ command: isName }),
};
/** A reason of a kind this version knows has its fields; one from a newer page is shown by kind. */
const isReason: Check = (reason) =>
  isObject(reason) &&
  isName(reason.kind) &&
  (!Object.hasOwn(REASON_SHAPES, reason.kind as string) ||
    (REASON_SHAPES[reason.kind as string] as Check)(reason));
const isTraceFrame = shape(
  { url: isShortString, line: isSeq, column: isSeq },
  { function: isShortString },
);
const isCause: Check = shape(
  { reason: isReason },
  {
    by: shape({ seq: isEventSeq, label: isName }),
    trace: (trace) => Array.isArray(trace) && trace.length <= 64 && trace.every(isTraceFrame),
  },
);

const isAction: Check = shape(
  { type: isString },
  {
    endpoint: isString,
    key: isString,
    method: isString,
    url: isString,
    mutation: isBoolean,
    args: isValues,
    body: isValue,
    response: isValue,
    error: isValue,
    duration: isNumber,
    optimistic: isOneOf('applied', 'committed', 'rolled-back'),
    replayId: isString,
    cause: (cause) => isCause(cause),
  },
);

const isStoreEvent: Check = shape(
  { seq: isEventSeq, time: isNumber, action: isAction, effects: isArrayOf(isEffect) },
  { effectsOmitted: isBoolean },
);

const isMutation: Check = (value) =>
  hasFields(
    value,
    { endpoint: isNonEmptyString, args: isValues },
    { response: isValue, time: isNumber },
  );

function neverThrows<T>(check: (value: unknown) => value is T): (value: unknown) => value is T {
  return (value: unknown): value is T => {
    try {
      return check(value);
    } catch {
      return false;
    }
  };
}

/** The fields every answer to a read has (see ReadAnswer). */
const READ_ANSWER = { storeId: isNonEmptyString, seq: isSeq };
const READ_ANSWER_OPTIONAL = { asOf: isSeq, leftRing: isTrue };

const isPresentValue: Check = (value) => value !== undefined && isValue(value);
const isStoredResult: Check = (stored) =>
  stored === null || hasFields(stored, { result: isPresentValue, meta: isPresentValue });

/** Accepts only well-formed page → extension messages. */
export const isPageMessage = neverThrows(checkPageMessage);
function checkPageMessage(value: unknown): value is PageMessage {
  if (!isEnvelope(value, 'page') || !mayFit(value, MAX_PAGE_MESSAGE_LENGTH)) return false;
  switch (value.kind) {
    case 'hello':
      return hasFields(
        value,
        {
          storeId: isNonEmptyString,
          storeName: isShortString,
          libraryVersion: isShortString,
          seq: isSeq,
        },
        { answering: isBoolean },
      );
    case 'events':
      // The events themselves are checked where they are read (parseEvents): the content script
      // relays the text without parsing it.
      return (
        hasFields(value, { storeId: isNonEmptyString, data: isString }, { history: isBoolean }) &&
        (value.data as string).length <= MAX_MESSAGE_LENGTH
      );
    case 'rows':
      return (
        hasFields(
          value,
          { ...READ_ANSWER, table: isNonEmptyString, rows: isObject },
          READ_ANSWER_OPTIONAL,
        ) && withinSize(value)
      );
    case 'results':
      // Measured first: the values' depth is checked by walking them (see withinSize).
      return (
        withinSize(value) &&
        hasFields(
          value,
          {
            ...READ_ANSWER,
            results: (results) => isObject(results) && Object.values(results).every(isStoredResult),
          },
          READ_ANSWER_OPTIONAL,
        )
      );
    case 'readers':
      return (
        hasFields(
          value,
          {
            storeId: isNonEmptyString,
            readers: (readers) => isObject(readers) && Object.values(readers).every(isSeq),
            forced: (forced) =>
              isObject(forced) && Object.values(forced).every(isOneOf('loading', 'error')),
            fetching: isStrings,
          },
          {
            polling: (polling) => isObject(polling) && Object.values(polling).every(isFrequency),
            names: (names) => isObject(names) && Object.values(names).every(isArrayOf(isName)),
            rowReaders: shape({ table: isString, pk: isString, names: isArrayOf(isName) }),
          },
        ) && withinSize(value)
      );
    case 'search':
      return (
        hasFields(value, {
          storeId: isNonEmptyString,
          seq: isSeq,
          text: isString,
          matches: isArrayOf(
            shape({ entity: isString, pk: isString, field: isString, value: isString }),
          ),
          more: isBoolean,
        }) && withinSize(value)
      );
    case 'command-error':
      return hasFields(value, {
        storeId: isNonEmptyString,
        command: isNonEmptyString,
        error: isShortString,
      });
    case 'snapshot':
      return (
        hasFields(value, {
          storeId: isNonEmptyString,
          seq: isSeq,
          index: isSeq,
          count: isSeq,
          data: isString,
        }) &&
        (value.data as string).length <= SNAPSHOT_CHUNK_LENGTH &&
        (value.index as number) < (value.count as number) &&
        (value.count as number) <= MAX_SNAPSHOT_CHUNKS
      );
    case 'members':
      return (
        hasFields(
          value,
          { storeId: isNonEmptyString, seq: isSeq, table: isNonEmptyString, data: isString },
          { row: isString },
        ) && (value.data as string).length <= MAX_MESSAGE_LENGTH
      );
    default:
      return false;
  }
}

/** The pks of a `members` message, or undefined when its text is not a list of strings. */
export function parseMembers(message: MembersMessage): string[] | undefined {
  let pks: unknown;
  try {
    pks = JSON.parse(message.data);
  } catch {
    return undefined;
  }
  return isStrings(pks) ? (pks as string[]) : undefined;
}

/**
 * The events of an `events` message, or undefined when its text is not a well-formed list of
 * events (then none of them is used).
 */
export function parseEvents(message: EventsMessage): StoreEvent[] | undefined {
  let events: unknown;
  try {
    events = JSON.parse(message.data);
  } catch {
    return undefined;
  }
  return isArrayOf(isStoreEvent)(events) ? (events as StoreEvent[]) : undefined;
}

/** Counts by name (a snapshot's sizes). */
const isCounts: Check = (counts) => isObject(counts) && Object.values(counts).every(isSeq);

const isOptimistic: Check = (update) =>
  hasFields(update, { key: isString, endpoint: isString, fetchedAt: isNumber });

/**
 * The snapshot a snapshot message's chunks make once joined, or undefined when the text is not
 * one: the tables the panel walks must be objects (their rows and results it only shows).
 */
export function parseSnapshot(text: string): SnapshotState | undefined {
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(text);
  } catch {
    return undefined;
  }
  const valid = hasFields(
    snapshot,
    {
      entities: (entities) => isObject(entities) && Object.values(entities).every(isObject),
      endpoints: isObject,
      meta: isObject,
      optimistic: isArrayOf(isOptimistic),
    },
    {
      tableSizes: isCounts,
      collectionSizes: (tables) => isObject(tables) && Object.values(tables).every(isCounts),
      pks: (pks) => isObject(pks) && Object.values(pks).every(isStrings),
    },
  );
  return valid ? (snapshot as SnapshotState) : undefined;
}

/** Accepts only well-formed extension → page commands. */
export const isExtensionCommand = neverThrows(checkExtensionCommand);
function checkExtensionCommand(value: unknown): value is ExtensionCommand {
  if (!isEnvelope(value, 'extension')) return false;
  switch (value.kind) {
    case 'connect':
      return hasFields(value, { lastSeq: isSeq }, { storeId: isNonEmptyString });
    case 'disconnect':
      return true;
    case 'snapshot':
    case 'expireAll':
    case 'reset':
      return hasFields(value, { storeId: isNonEmptyString });
    case 'invalidate':
      return hasFields(value, { storeId: isNonEmptyString, key: isString });
    case 'rows':
      return hasFields(
        value,
        { storeId: isNonEmptyString, table: isNonEmptyString, pks: isKeyList },
        { asOf: isSeq },
      );
    case 'results':
      return hasFields(value, { storeId: isNonEmptyString, keys: isKeyList }, { asOf: isSeq });
    case 'refetch':
    case 'expire':
    case 'force-loading':
    case 'force-error':
    case 'edit':
    case 'readers':
    case 'search':
      // Fields that throw when read are let through to neverThrows: such a command is refused.
      return badInspectorField(value, value.kind) === undefined;
    case 'replay':
      return (
        hasFields(value, {
          storeId: isNonEmptyString,
          replayId: isNonEmptyString,
          mode: isOneOf('apply', 'send'),
          mutations: Array.isArray,
        }) && withinSize(value)
      );
    default:
      return false;
  }
}

/** Whether one recorded mutation has the shape replay needs (checked per mutation). */
export const isRecordedMutation = neverThrows((value: unknown): value is RecordedMutation =>
  isMutation(value),
);

/** A field an inspector command needs: its check, and what it must be (said when it is not). */
type FieldRule = [check: Check, mustBe: string];
const STORE_ID: FieldRule = [isNonEmptyString, 'a store id (a non-empty string)'];
const RESULT_KEY: FieldRule = [isString, 'a result key (a string)'];

/** The fields of each inspector command (the commands on one result or entity). */
const INSPECTOR_COMMANDS: Record<string, Record<string, FieldRule>> = {
  refetch: { storeId: STORE_ID, key: RESULT_KEY },
  expire: { storeId: STORE_ID, key: RESULT_KEY },
  'force-loading': { storeId: STORE_ID, key: RESULT_KEY },
  'force-error': { storeId: STORE_ID, key: RESULT_KEY },
  readers: {
    storeId: STORE_ID,
    row: [
      (row) => row === undefined || hasFields(row, { table: isNonEmptyString, pk: isString }),
      'absent, or an entity row ({ table, pk }: strings)',
    ],
  },
  search: {
    storeId: STORE_ID,
    text: [
      (text) => isString(text) && (text as string).length <= MAX_SEARCH_LENGTH,
      `a text of at most ${MAX_SEARCH_LENGTH} characters`,
    ],
  },
  edit: {
    storeId: STORE_ID,
    entity: [isNonEmptyString, 'an entity type (a non-empty string)'],
    pk: [isString, 'a pk (a string)'],
    field: [isNonEmptyString, 'a field name (a non-empty string)'],
    value: [
      // Measured first: the depth is checked by walking the value (see withinSize).
      (value) => value !== undefined && withinSize(value) && isValue(value),
      `a JSON value (at most ${MAX_VALUE_DEPTH} levels deep)`,
    ],
  },
};

/** Why an inspector command is refused, and what it was (to answer its store's panel). */
export interface Refusal {
  kind: string;
  storeId: unknown;
  problem: string;
}

/**
 * What is wrong with an inspector command (`refetch`, `expire`, `force-loading`, `force-error`,
 * `edit`, `readers`), in words that name the field: undefined when nothing is, or when the
 * message is no inspector command at all (or cannot be read: then it is dropped, like any
 * malformed message). The page answers a refused command with the problem.
 */
export function inspectorCommandRefusal(value: unknown): Refusal | undefined {
  try {
    if (!isEnvelope(value, 'extension') || typeof value.kind !== 'string') return undefined;
    const { kind, storeId } = value;
    if (!Object.hasOwn(INSPECTOR_COMMANDS, kind)) return undefined;
    const problem = badInspectorField(value, kind);
    return problem === undefined ? undefined : { kind, storeId, problem };
  } catch {
    return undefined;
  }
}

/** What the first malformed field of an inspector command must be; throws when one cannot be read. */
function badInspectorField(command: Record<string, unknown>, kind: string): string | undefined {
  const fields = INSPECTOR_COMMANDS[kind] as Record<string, FieldRule>;
  for (const [name, [check, mustBe]] of Object.entries(fields))
    if (!check(command[name])) return `${kind}: \`${name}\` must be ${mustBe}`;
  return undefined;
}
