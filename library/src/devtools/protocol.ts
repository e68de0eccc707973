/**
 * The page ⇄ extension protocol. Both sides import this file (the extension imports nothing
 * else from the library): message types, constants, and the validators that decide which
 * messages are accepted. Every message is a plain JSON-safe object.
 *
 * What crosses on every store change is kept small, because it is paid for on the page's thread
 * (the page encodes it, the browser clones it into the content script, which checks it):
 * - events travel as JSON text, one string per batch, so the clone is a copy of one string and
 *   the content script checks only the envelope; the panel parses and checks the events;
 * - effects name the entities a change touched (type and pk, grouped per type) without carrying
 *   their rows: the panel asks for the rows it shows (`rows`), and a snapshot carries them all.
 */

export const PROTOCOL_TAG = 'restlens';
export const PROTOCOL_VERSION = 2;
/** Largest snapshot chunk, in UTF-16 code units (≤ 1 MB once UTF-8 encoded, even if non-ASCII). */
export const SNAPSHOT_CHUNK_LENGTH = 256 * 1024;
/**
 * The most chunks one snapshot may have: 256 Mi UTF-16 code units of JSON in all, four times the
 * size budget the page's encoder gives the entity tables, and below the longest string an engine
 * can join. The panel keeps only the chunks that came, so a count it is told sizes nothing.
 */
export const MAX_SNAPSHOT_CHUNKS = 1024;
/** Messages larger than this (as JSON) are refused by the validators. */
export const MAX_MESSAGE_LENGTH = 8 * 1024 * 1024;
/** The most rows one `rows` command may ask for. */
export const MAX_ROWS_PER_REQUEST = 1000;
/**
 * How deep a carried value (args, a response, a result …) may nest, counting every list and
 * object of its encoding: far deeper than the page's encoder writes, and far shallower than
 * what makes JSON.stringify or a structured clone run out of stack (a few thousand levels),
 * which the panel does when it replays or saves a recorded value.
 */
export const MAX_VALUE_DEPTH = 128;

/**
 * The field an encoded object gets, holding a `truncated` marker with the count of fields that
 * the size cap left out (added with the encoder fix that made that cut visible).
 */
export const TRUNCATED_FIELDS = '…';

/**
 * A value that JSON cannot carry as is, written as a tagged object. Plain JSON values stand for
 * themselves; an object that itself has an `@t` key is wrapped as `{ '@t': 'object' }`.
 */
export type Encoded =
  | null
  | boolean
  | number
  | string
  | Encoded[]
  | { [key: string]: Encoded }
  | { '@t': 'undefined' }
  | { '@t': 'number'; v: 'NaN' | 'Infinity' | '-Infinity' }
  | { '@t': 'bigint'; v: string }
  | { '@t': 'date'; v: string }
  | { '@t': 'map'; entries: [Encoded, Encoded][] }
  | { '@t': 'set'; values: Encoded[] }
  | { '@t': 'instance'; class: string; fields: { [key: string]: Encoded } }
  | { '@t': 'error'; name: string; message: string; status?: number }
  | { '@t': 'function'; name: string }
  | { '@t': 'symbol'; description: string }
  | { '@t': 'object'; fields: { [key: string]: Encoded } }
  | { '@t': 'cycle' }
  | { '@t': 'truncated'; reason: 'depth' | 'size' | 'length'; omitted?: number; preview?: string };

/**
 * What an action did, in the user's terms. `V` is the type of carried values: raw inside the
 * page until a panel connects, `Encoded` on the wire.
 */
export type Effect<V = Encoded> =
  /** Entities of one type stored for the first time (or again after they were invalidated). */
  | { type: 'entities-added'; entity: string; pks: string[] }
  /** Stored entities of one type whose fields changed: `fields[i]` are those of `pks[i]`. */
  | { type: 'entities-updated'; entity: string; pks: string[]; fields: string[][] }
  | {
      type: 'entity-invalidated';
      entity: string;
      pk: string;
      /** The input the pk was computed from. */
      from: V;
      /** Where that input came from: the server's answer, or the URL params it fell back to. */
      via: 'response' | 'url-params';
    }
  | {
      type: 'collection-changed';
      collection: string;
      /** The row key, e.g. `{"userId":"1"}`. */
      row: string;
      kind: 'push' | 'unshift' | 'page-merge' | 'add' | 'replace' | 'invalidate';
      lengthBefore: number;
      lengthAfter: number;
      /** Runs of pks inserted next to each other, the first at `index` of the new list. */
      inserted: { index: number; pks: string[] }[];
      duplicates: string[];
      removed: string[];
      /** The whole list, when it was replaced. */
      members?: string[];
    }
  | { type: 'result-stored'; key: string; endpoint: string; result: V; expiresAt: number }
  | { type: 'result-error'; key: string; endpoint: string; error: V }
  | { type: 'result-invalidated'; keys: string[] }
  | { type: 'result-expired'; keys: string[] }
  /** The result now resolves to INVALID: readers suspend and fetch it again. */
  | { type: 'result-suspends'; key: string; endpoint: string }
  /** The result stays valid but lost an optional member (or list item). */
  | { type: 'result-lost-member'; key: string; endpoint: string }
  | { type: 'store-reset' }
  | {
      type: 'replay-result';
      replayId: string;
      index: number;
      endpoint: string;
      ok: boolean;
      error?: string;
    };

export type ActionType =
  | 'fetch'
  | 'setResponse'
  | 'invalidate'
  | 'invalidateAll'
  | 'expireAll'
  | 'reset'
  | 'replay';

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
}

export interface StoreEvent<V = Encoded> {
  /** Strictly increasing per store, from 1. */
  seq: number;
  time: number;
  action: ActionSummary<V>;
  effects: Effect<V>[];
  /**
   * Set when the effects were left out: too large for one message, or not worked out (a change
   * made before the panel connected, which the page could not run again). A snapshot follows the
   * event, so the panel's copy is right, but the timeline cannot say what the event changed.
   */
  effectsOmitted?: true;
}

/** One recorded mutation, as replay takes it. */
export interface RecordedMutation {
  endpoint: string;
  args: Encoded[];
  /** The recorded answer, written by `apply` replays. */
  response?: Encoded;
  time?: number;
}

interface Envelope {
  tag: typeof PROTOCOL_TAG;
  v: typeof PROTOCOL_VERSION;
}

export interface HelloMessage extends Envelope {
  source: 'page';
  kind: 'hello';
  storeId: string;
  storeName: string;
  libraryVersion: string;
  /** The latest seq the store has produced. */
  seq: number;
  /** Sent in answer to a `connect` (a snapshot follows), not as the store's own greeting. */
  answering?: boolean;
}
export interface EventsMessage extends Envelope {
  source: 'page';
  kind: 'events';
  storeId: string;
  /** The JSON text of a `StoreEvent[]`, oldest first; `parseEvents` reads and checks it. */
  data: string;
  /** History from before the snapshot just sent: for the timeline, already in the snapshot. */
  history?: boolean;
}
export interface SnapshotMessage extends Envelope {
  source: 'page';
  kind: 'snapshot';
  storeId: string;
  /** The seq the snapshot is current at. */
  seq: number;
  index: number;
  count: number;
  /** This chunk of the snapshot's JSON text. */
  data: string;
}
/** The answer to a `rows` command: the rows as stored when it was answered. */
export interface RowsMessage extends Envelope {
  source: 'page';
  kind: 'rows';
  storeId: string;
  /** The seq the rows are current at (every event up to it was posted before this message). */
  seq: number;
  /** The table asked for: an entity type. */
  table: string;
  /** By pk; `null` for a pk the store does not hold. */
  rows: Record<string, Encoded>;
}
export type PageMessage = HelloMessage | EventsMessage | SnapshotMessage | RowsMessage;

export interface ConnectCommand extends Envelope {
  source: 'extension';
  kind: 'connect';
  /** Omitted: every store on the page answers. */
  storeId?: string;
  /** The last seq the panel holds; 0 for none. */
  lastSeq: number;
}
export interface DisconnectCommand extends Envelope {
  source: 'extension';
  kind: 'disconnect';
}
export interface StoreCommand extends Envelope {
  source: 'extension';
  kind: 'snapshot' | 'expireAll' | 'reset';
  storeId: string;
}
export interface InvalidateCommand extends Envelope {
  source: 'extension';
  kind: 'invalidate';
  storeId: string;
  key: string;
}
export interface ReplayCommand extends Envelope {
  source: 'extension';
  kind: 'replay';
  storeId: string;
  replayId: string;
  mode: 'apply' | 'send';
  mutations: RecordedMutation[];
}
/** Asks for the current rows of some entities (those a panel view shows). */
export interface RowsCommand extends Envelope {
  source: 'extension';
  kind: 'rows';
  storeId: string;
  table: string;
  /** At most MAX_ROWS_PER_REQUEST. */
  pks: string[];
}
export type ExtensionCommand =
  | ConnectCommand
  | RowsCommand
  | DisconnectCommand
  | StoreCommand
  | InvalidateCommand
  | ReplayCommand;

/** The snapshot, once its chunks are joined and parsed. */
export interface SnapshotState {
  entities: Record<string, Record<string, Encoded>>;
  endpoints: Record<string, Encoded>;
  meta: Record<string, Encoded>;
  entitiesMeta: Record<string, Record<string, Encoded>>;
  indexes: Encoded;
  optimistic: { key: string; endpoint: string; fetchedAt: number }[];
}

// ---- validation ------------------------------------------------------------------------------

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString: Check = (value) => typeof value === 'string';
const isNonEmptyString: Check = (value) =>
  typeof value === 'string' && value.length > 0 && value.length < 1024;
/** Names the panel shows as they are (a store's name, the library version). */
const isShortString: Check = (value) => typeof value === 'string' && value.length < 1024;
const isSeq: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
/** An event's seq: from 1 (0 is the seq of a store that has made no event yet). */
const isEventSeq: Check = (value) => isSeq(value) && (value as number) >= 1;
const isArrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);

function hasFields(
  value: unknown,
  fields: Record<string, Check>,
  optional: Record<string, Check> = {},
): boolean {
  if (!isObject(value)) return false;
  for (const [name, check] of Object.entries(fields)) if (!check(value[name])) return false;
  for (const [name, check] of Object.entries(optional))
    if (value[name] !== undefined && !check(value[name])) return false;
  return true;
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

/** Parsed JSON is all any field can hold, so a bounded length is the only size check needed. */
function withinSize(value: unknown): boolean {
  try {
    return JSON.stringify(value).length <= MAX_MESSAGE_LENGTH;
  } catch {
    return false;
  }
}

const isStrings = isArrayOf(isString);
const isNumber: Check = (value) => typeof value === 'number';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isOptional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const isOneOf =
  (...allowed: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && allowed.includes(value);

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
const isValues: Check = (value) => Array.isArray(value) && isValue(value);

/**
 * Every field of an effect the panel reads, applies or shows is checked, so that whatever the
 * validators accept is safe to apply and to render. Effects of a type not listed here (from a
 * newer library) are kept, and shown without details.
 */
const EFFECT_FIELDS: Record<string, Record<string, Check>> = {
  'entities-added': { entity: isString, pks: isStrings },
  'entities-updated': { entity: isString, pks: isStrings, fields: isArrayOf(isStrings) },
  'entity-invalidated': {
    entity: isString,
    pk: isString,
    from: isValue,
    via: isOneOf('response', 'url-params'),
  },
  'collection-changed': {
    collection: isString,
    row: isString,
    kind: isOneOf('push', 'unshift', 'page-merge', 'add', 'replace', 'invalidate'),
    lengthBefore: isNumber,
    lengthAfter: isNumber,
    inserted: isArrayOf((run) => hasFields(run, { index: isSeq, pks: isStrings })),
    duplicates: isStrings,
    removed: isStrings,
    members: isOptional(isStrings),
  },
  'result-stored': { key: isString, endpoint: isString, result: isValue, expiresAt: isNumber },
  'result-error': { key: isString, endpoint: isString, error: isValue },
  'result-invalidated': { keys: isStrings },
  'result-expired': { keys: isStrings },
  'result-suspends': { key: isString, endpoint: isString },
  'result-lost-member': { key: isString, endpoint: isString },
  'replay-result': {
    replayId: isString,
    index: isSeq,
    endpoint: isString,
    ok: isBoolean,
    error: isOptional(isString),
  },
};

const isEffect: Check = (effect) =>
  hasFields(effect, { type: isString }) &&
  hasFields(effect, EFFECT_FIELDS[(effect as { type: string }).type] ?? {});

const isAction: Check = (action) =>
  hasFields(
    action,
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
    },
  );

const isStoreEvent: Check = (value) =>
  hasFields(
    value,
    { seq: isEventSeq, time: isNumber, action: isAction, effects: isArrayOf(isEffect) },
    { effectsOmitted: isBoolean },
  );

const isMutation: Check = (value) =>
  hasFields(
    value,
    { endpoint: isNonEmptyString, args: isValues },
    { response: isValue, time: isNumber },
  );

/**
 * A validator answers false, never throws, even when reading a field throws (a getter or a
 * Proxy in a message that a script of the page dispatched on the window): an exception would
 * escape the message listener.
 */
function neverThrows<T>(check: (value: unknown) => value is T): (value: unknown) => value is T {
  return (value: unknown): value is T => {
    try {
      return check(value);
    } catch {
      return false;
    }
  };
}

/** Accepts only well-formed page → extension messages. */
export const isPageMessage = neverThrows(checkPageMessage);
function checkPageMessage(value: unknown): value is PageMessage {
  if (!isEnvelope(value, 'page')) return false;
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
        hasFields(value, {
          storeId: isNonEmptyString,
          seq: isSeq,
          table: isNonEmptyString,
          rows: isObject,
        }) && withinSize(value)
      );
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
    default:
      return false;
  }
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
  const valid = hasFields(snapshot, {
    entities: (entities) => isObject(entities) && Object.values(entities).every(isObject),
    endpoints: isObject,
    meta: isObject,
    optimistic: isArrayOf(isOptimistic),
  });
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
      return hasFields(value, {
        storeId: isNonEmptyString,
        table: isNonEmptyString,
        pks: (pks) =>
          Array.isArray(pks) && pks.length <= MAX_ROWS_PER_REQUEST && pks.every(isString),
      });
    case 'replay':
      return (
        hasFields(value, {
          storeId: isNonEmptyString,
          replayId: isNonEmptyString,
          mode: (mode) => mode === 'apply' || mode === 'send',
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

type WithoutEnvelope<T> = T extends unknown ? Omit<T, 'tag' | 'v' | 'source'> : never;
export type PageMessageBody = WithoutEnvelope<PageMessage>;
export type ExtensionCommandBody = WithoutEnvelope<ExtensionCommand>;

/** Wraps a message body in the envelope. */
export function pageMessage(body: PageMessageBody): PageMessage {
  return { tag: PROTOCOL_TAG, v: PROTOCOL_VERSION, source: 'page', ...body } as PageMessage;
}
export function extensionCommand(body: ExtensionCommandBody): ExtensionCommand {
  return {
    tag: PROTOCOL_TAG,
    v: PROTOCOL_VERSION,
    source: 'extension',
    ...body,
  } as ExtensionCommand;
}

// ---- recorded sessions ---------------------------------------------------------------------------

export const SESSION_FORMAT = 'restlens-session';
export const SESSION_VERSION = 1;

/** A recorded session: the file the Recorder exports and `replaySession` replays. */
export interface Session {
  format: typeof SESSION_FORMAT;
  version: typeof SESSION_VERSION;
  /** ISO date of the export. */
  createdAt?: string;
  /** Where it was recorded, e.g. the page URL. */
  source?: string;
  mutations: RecordedMutation[];
}

export type SessionCheck = { ok: true; session: Session } | { ok: false; error: string };

/**
 * Checks a parsed session file and says exactly what is wrong with it: another format, a newer
 * version, or the first malformed mutation. (`session.schema.json` describes the same format.)
 */
export function checkSession(value: unknown): SessionCheck {
  if (!isObject(value) || value.format !== SESSION_FORMAT) {
    return { ok: false, error: `not a RestLens session: "format" must be "${SESSION_FORMAT}"` };
  }
  if (typeof value.version !== 'number' || !Number.isInteger(value.version) || value.version < 1) {
    return { ok: false, error: 'the session has no valid "version"' };
  }
  if (value.version > SESSION_VERSION) {
    return {
      ok: false,
      error: `the session is version ${value.version}, made by a newer RestLens; this one reads version ${SESSION_VERSION}`,
    };
  }
  if (!Array.isArray(value.mutations))
    return { ok: false, error: 'the session has no "mutations" list' };
  for (const [index, mutation] of value.mutations.entries()) {
    if (!isRecordedMutation(mutation)) {
      return {
        ok: false,
        error: `mutation ${index} is malformed: it needs an "endpoint" name and an "args" list, with values nested at most ${MAX_VALUE_DEPTH} deep`,
      };
    }
  }
  return { ok: true, session: value as unknown as Session };
}
