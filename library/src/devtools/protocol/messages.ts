/**
 * The page ⇄ extension messages: their envelope, kinds, limits and builders. The extension
 * imports nothing from the library but this folder. Every message is a plain JSON-safe object.
 *
 * How they travel: a store greets with a window message, `hello`, that transfers one end of a
 * MessageChannel (`event.ports[0]`); everything else the store says comes on that port, and the
 * content script takes nothing else from the window (a script of the page can post window
 * messages under any store id, not on a port only the store holds). The first `hello` of a store
 * id binds it to its port: a later one with another port is not that store. Commands
 * (extension → page) come as window messages: data that asks the store for nothing a script of
 * the page could not do itself.
 *
 * What crosses on every store change is kept small, because it is paid for on the page's thread
 * (the page encodes it, the browser clones it into the content script, which checks it):
 * - events travel as JSON text, one string per batch, so the clone is a copy of one string and
 *   the content script checks only the envelope; the panel parses and checks the events;
 * - effects name the entities a change touched without carrying their rows: the panel asks for
 *   the rows it shows (`rows`); a snapshot counts each entity table's pks and each collection
 *   row's members, and sends the lists after it (`members`), never the rows;
 * - messages stay around 64 KB (the content script relays each in one task of the page).
 *
 * Each message is described once (`check.ts`): its type is inferred from the description, and
 * the validators (`validate.ts`) check what arrives against it.
 */

import {
  anyValue,
  array,
  boolean,
  both,
  documented,
  type Infer,
  integer,
  literal,
  named,
  nullable,
  number,
  object,
  optional,
  record,
  refine,
  string,
  variants,
} from './check.js';
import { jsonWithin, mayFitJson, nestedWithin } from './jsonLimits.js';

export const PROTOCOL_TAG = 'restlens';
/**
 * 3: effects are the change-set's items (entity updates carry each field's before and after).
 * 4: a store's messages after its `hello` come on the port the hello transferred.
 */
export const PROTOCOL_VERSION = 4;
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
/**
 * How many events a panel's timeline keeps; so the most history a page sends when a panel
 * connects (the newest of its ring): describing older ones would be work for nothing.
 */
export const TIMELINE_LENGTH = 10_000;
/** The most rows (or results) one `rows` (or `results`) command may ask for. */
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
 * the size cap left out.
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
 * The largest page message, as JSON: its data (at most MAX_MESSAGE_LENGTH) and a few short
 * fields. The content script forwards a message whole, fields the protocol does not know
 * included, and the port writes it as JSON: a field sharing one object among many places would
 * make that write never end.
 */
const MAX_PAGE_MESSAGE_LENGTH = 2 * MAX_MESSAGE_LENGTH;

/** A carried value (args, a response, a result …): any JSON, nested at most MAX_VALUE_DEPTH deep. */
export const encoded = nestedWithin<Encoded>(MAX_VALUE_DEPTH, {
  meaning:
    'any JSON value (values JSON cannot carry are objects tagged with "@t": undefined, number, bigint, date, map, set, instance, error, object, …)',
});
/** A list of carried values, itself a carried value (its depth counts the list). */
export const encodedList = nestedWithin<Encoded[]>(MAX_VALUE_DEPTH, { list: true });
/** Names the panel shows as they are (a store's name, the library version, a component). */
export const shortText = string({ max: 1023 });
/** A name something is found by (a table, an endpoint): short, and not empty. */
const nonEmptyName = string({ nonEmpty: true, max: 1023 });
const storeId = named('a store id (a non-empty string of at most 1023 characters)', nonEmptyName);
/** A seq, or a count: a whole number from 0. */
export const seq = integer({ min: 0 });

/** One recorded mutation, as replay takes it. */
export type RecordedMutation = Infer<typeof recordedMutation>;
export const recordedMutation = object({
  endpoint: documented(nonEmptyName, "The endpoint's name, e.g. Todo.getList.push"),
  args: documented(encodedList, "The call's arguments (URL params, then the body), encoded"),
  response: optional(documented(encoded, 'The recorded answer, written by apply replays')),
  time: optional(documented(number(), 'When it ran (ms since the epoch)')),
});

const pageEnvelope = {
  tag: literal(PROTOCOL_TAG),
  v: literal(PROTOCOL_VERSION),
  source: literal('page'),
};
const extensionEnvelope = {
  tag: literal(PROTOCOL_TAG),
  v: literal(PROTOCOL_VERSION),
  source: literal('extension'),
};

// ---- page → extension --------------------------------------------------------------------------

/**
 * A store announcing itself. Its own greeting is the one window message a store posts, and
 * transfers the port it posts everything else on; a hello `answering` a connect comes on that
 * port.
 */
export type HelloMessage = Infer<typeof helloMessage>;
const helloMessage = object({
  ...pageEnvelope,
  kind: literal('hello'),
  storeId,
  storeName: shortText,
  libraryVersion: shortText,
  /** The latest seq the store has produced. */
  seq,
  /** Sent in answer to a `connect` (a snapshot follows), not as the store's own greeting. */
  answering: optional(boolean()),
});

/** A batch of store events, page to panel. */
export type EventsMessage = Infer<typeof eventsMessage>;
const eventsMessage = object({
  ...pageEnvelope,
  kind: literal('events'),
  storeId,
  /**
   * The JSON text of a `StoreEvent[]`, oldest first; `parseEvents` reads and checks it (the
   * content script relays the text without parsing it).
   */
  data: string({ max: MAX_MESSAGE_LENGTH }),
  /** History from before the snapshot just sent: for the timeline, already in the snapshot. */
  history: optional(boolean()),
});

/** A chunk of a store's snapshot, page to panel, in answer to a `connect` or `snapshot`. */
export type SnapshotMessage = Infer<typeof snapshotMessage>;
const snapshotMessage = refine(
  object({
    ...pageEnvelope,
    kind: literal('snapshot'),
    storeId,
    /** The seq the snapshot is current at. */
    seq,
    index: seq,
    count: integer({ min: 0, max: MAX_SNAPSHOT_CHUNKS }),
    /** This chunk of the snapshot's JSON text. */
    data: string({ max: SNAPSHOT_CHUNK_LENGTH }),
  }),
  'a chunk whose index is below its count',
  (chunk) => chunk.index < chunk.count,
);

/**
 * After a snapshot's chunks, the lists it counted, a part at a time: the pks of an entity table,
 * or the members of a collection row, in order. A list's parts come one after the other, and
 * every part of a snapshot before any event that follows it.
 */
export type MembersMessage = Infer<typeof membersMessage>;
const membersMessage = object({
  ...pageEnvelope,
  kind: literal('members'),
  storeId,
  /** The seq of the snapshot the list is part of. */
  seq,
  /** The entity type, or the collection (`[Todo]`) of `row`. */
  table: nonEmptyName,
  /** The collection row the members are of; absent for an entity table's pks. */
  row: optional(string()),
  /** The JSON text of this part's pks (`string[]`); `parseMembers` reads and checks it. */
  data: string({ max: MAX_MESSAGE_LENGTH }),
});

/** What every answer to a read (`rows`, `results`) says about when it was read. */
const readAnswer = {
  storeId,
  /**
   * The seq the current state was read at: the last event posted before this message (events
   * still waiting for their batch follow it). For a read `asOf` a past seq, the latest seq.
   */
  seq,
  /** The past seq the read was asked for; absent for the current state. */
  asOf: optional(seq),
  /**
   * Set when `asOf` is no longer in the page's ring (nor the current seq): the state of that
   * time is gone, and nothing was read.
   */
  leftRing: optional(literal(true)),
};

/** The answer to a `rows` command. */
export type RowsMessage = Infer<typeof rowsMessage>;
const rowsMessage = both(
  jsonWithin(MAX_MESSAGE_LENGTH),
  object({
    ...pageEnvelope,
    kind: literal('rows'),
    ...readAnswer,
    /** The table asked for: an entity type. */
    table: nonEmptyName,
    /** By pk; `null` for a pk the store does not hold (held at `asOf`, when asked for). */
    rows: record(anyValue<Encoded>()),
  }),
);

/** A stored result as a `results` answer gives it: its normalized value and its meta. */
export type StoredResult = Infer<typeof storedResult>;
const storedResult = object({ result: encoded, meta: encoded });

/** The answer to a `results` command (measured first: the values' depth is walked). */
export type ResultsMessage = Infer<typeof resultsMessage>;
const resultsMessage = both(
  jsonWithin(MAX_MESSAGE_LENGTH),
  object({
    ...pageEnvelope,
    kind: literal('results'),
    ...readAnswer,
    /** By result key; `null` for a key the store holds nothing for. */
    results: record(nullable(storedResult)),
  }),
);

/** How a result is forced to show, until a refetch undoes it. */
export type ForcedState = Infer<typeof forcedState>;
const forcedState = literal('loading', 'error');

/** The answer to a `readers` command: what the page's components read now. */
export type ReadersMessage = Infer<typeof readersMessage>;
const readersMessage = both(
  jsonWithin(MAX_MESSAGE_LENGTH),
  object({
    ...pageEnvelope,
    kind: literal('readers'),
    storeId,
    /** By result key: how many mounted components read it (keys no component reads are absent). */
    readers: record(seq),
    /** By result key: the results the panel forced to show loading or an error. */
    forced: record(forcedState),
    /** The keys of the results whose read is in flight now. */
    fetching: array(string()),
    /**
     * By result key: the results polled now (`useLive`, `useSubscription`,
     * `controller.subscribe`), each with the frequency it is fetched again at, in ms. Absent from
     * pages of earlier versions, made before polling: their answer is still taken.
     */
    polling: optional(record(number({ finite: true, above: 0 }))),
    /**
     * By result key: the display name of each mounted component reading it ('' when the page
     * could not tell it). Absent from pages of earlier versions.
     */
    names: optional(record(array(shortText))),
    /** In answer to a command that named an entity row: the components whose data shows it. */
    rowReaders: optional(object({ table: string(), pk: string(), names: array(shortText) })),
  }),
);

/** One field of a stored entity that contains a searched text. */
export type SearchMatch = Infer<typeof searchMatch>;
const searchMatch = object({
  entity: string(),
  pk: string(),
  field: string(),
  /** The field's value (its JSON when it is not a text), cut around the match when long. */
  value: string(),
});

/** The answer to a `search` command: the entities whose fields contain the text. */
export type SearchMessage = Infer<typeof searchMessage>;
const searchMessage = both(
  jsonWithin(MAX_MESSAGE_LENGTH),
  object({
    ...pageEnvelope,
    kind: literal('search'),
    storeId,
    /** The seq the store was searched at. */
    seq,
    /** The text searched for, as the command gave it. */
    text: string(),
    matches: array(searchMatch),
    /** Set when more fields matched than an answer lists. */
    more: boolean(),
  }),
);

/** Said when the page could not run a panel's command: what was wrong, in words. */
export type CommandErrorMessage = Infer<typeof commandErrorMessage>;
const commandErrorMessage = object({
  ...pageEnvelope,
  kind: literal('command-error'),
  storeId,
  /** The kind of the command that failed. */
  command: nonEmptyName,
  error: shortText,
});

/** Every message a page's store sends to the panel. */
export type PageMessage = Infer<typeof pageMessages>;
const pageMessages = variants('kind', {
  hello: helloMessage,
  events: eventsMessage,
  snapshot: snapshotMessage,
  members: membersMessage,
  rows: rowsMessage,
  results: resultsMessage,
  readers: readersMessage,
  search: searchMessage,
  'command-error': commandErrorMessage,
});
/**
 * A page message: the envelope read first (a window carries every script's messages), then its
 * size bounded before any part of it is walked.
 */
export const pageMessageCheck = both(
  object(pageEnvelope),
  both(mayFitJson(MAX_PAGE_MESSAGE_LENGTH), pageMessages),
);

// ---- extension → page --------------------------------------------------------------------------

/** A panel connects: each store (or the one named) greets it and sends its snapshot. */
export type ConnectCommand = Infer<typeof connectCommand>;
const connectCommand = object({
  ...extensionEnvelope,
  kind: literal('connect'),
  /** Omitted: every store on the page answers. */
  storeId: optional(storeId),
  /** The last seq the panel holds; 0 for none. */
  lastSeq: seq,
});

/** The panel closed: stores stop sending events. */
export type DisconnectCommand = Infer<typeof disconnectCommand>;
const disconnectCommand = object({ ...extensionEnvelope, kind: literal('disconnect') });

/** A command to one store: send a snapshot, expire every result, or reset. */
export type StoreCommand = Infer<typeof storeCommand>;
const storeCommand = object({
  ...extensionEnvelope,
  kind: literal('snapshot', 'expireAll', 'reset'),
  storeId,
});

const resultKey = named('a result key (a string)', string());

/** Invalidate one stored result, by its key. */
export type InvalidateCommand = Infer<typeof invalidateCommand>;
const invalidateCommand = object({
  ...extensionEnvelope,
  kind: literal('invalidate'),
  storeId,
  key: resultKey,
});

/** Replay recorded mutations in the page's store. */
export type ReplayCommand = Infer<typeof replayCommand>;
const replayCommand = both(
  jsonWithin(MAX_MESSAGE_LENGTH),
  object({
    ...extensionEnvelope,
    kind: literal('replay'),
    storeId,
    replayId: nonEmptyName,
    mode: literal('apply', 'send'),
    /**
     * As the panel sends them. The page checks each as it replays it, so that a malformed one
     * fails alone (`isRecordedMutation`).
     */
    mutations: array(anyValue<RecordedMutation>()),
  }),
);

/** A list of keys one read may ask for (pks, result keys). */
const keyList = array(string(), { max: MAX_ROWS_PER_REQUEST });

/**
 * Asks for some entities' rows (those a panel view shows): as stored now, or as they were just
 * after the event `asOf` (read-only time travel, for any seq still in the page's ring).
 */
export type RowsCommand = Infer<typeof rowsCommand>;
const rowsCommand = object({
  ...extensionEnvelope,
  kind: literal('rows'),
  storeId,
  table: nonEmptyName,
  /** At most MAX_ROWS_PER_REQUEST. */
  pks: keyList,
  asOf: optional(seq),
});

/** Asks for stored results by key, now or as of a past seq (see RowsCommand). */
export type ResultsCommand = Infer<typeof resultsCommand>;
const resultsCommand = object({
  ...extensionEnvelope,
  kind: literal('results'),
  storeId,
  /** At most MAX_ROWS_PER_REQUEST. */
  keys: keyList,
  asOf: optional(seq),
});

/**
 * The inspector's commands on one stored result: fetch it again; mark it stale; make its readers
 * show their loading state (Suspense fallback) or an error (error boundary) until a refetch.
 */
export type ResultCommand = Infer<typeof resultCommand>;
const resultCommand = object({
  ...extensionEnvelope,
  kind: literal('refetch', 'expire', 'force-loading', 'force-error'),
  storeId,
  key: resultKey,
});

/** Writes one field of a stored entity, through the store's write path (a devtools edit). */
export type EditCommand = Infer<typeof editCommand>;
const editCommand = object({
  ...extensionEnvelope,
  kind: literal('edit'),
  storeId,
  entity: named('an entity type (a non-empty string)', nonEmptyName),
  pk: named('a pk (a string)', string()),
  field: named('a field name (a non-empty string)', nonEmptyName),
  /** Plain JSON, stored as it is (measured first: its depth is walked). */
  value: named(
    `a JSON value (at most ${MAX_VALUE_DEPTH} levels deep)`,
    both(jsonWithin(MAX_MESSAGE_LENGTH), encoded),
  ),
});
/**
 * The name of the endpoint an edit of an entity of `type` runs through: the timeline shows its
 * events as devtools edits, and a replay finds it by this name.
 */
export const editEndpointName = (type: string) => `RestLens.edit(${type})`;
/** Whether an endpoint name is that of a devtools edit. */
export const isEditEndpoint = (name: string | undefined) =>
  (name?.startsWith('RestLens.edit(') ?? false) && name?.endsWith(')') === true;

/** Asks how many mounted components read each result (answered with a `readers` message). */
export type ReadersCommand = Infer<typeof readersCommand>;
const readersCommand = object({
  ...extensionEnvelope,
  kind: literal('readers'),
  storeId,
  /** An entity row whose readers to name too (the Entities view's selected entity). */
  row: optional(
    named('an entity row ({ table, pk }: strings)', object({ table: nonEmptyName, pk: string() })),
  ),
});

/** The longest text a `search` command may ask for. */
export const MAX_SEARCH_LENGTH = 200;
/** Searches the stored entities' fields for a text (answered with a `search` message). */
export type SearchCommand = Infer<typeof searchCommand>;
const searchCommand = object({
  ...extensionEnvelope,
  kind: literal('search'),
  storeId,
  /** Matched ignoring case. */
  text: named(
    `a text of at most ${MAX_SEARCH_LENGTH} characters`,
    string({ max: MAX_SEARCH_LENGTH }),
  ),
});

/** Every command the panel sends to a page's stores. */
export type ExtensionCommand = Infer<typeof extensionCommands>;
const extensionCommands = variants('kind', {
  connect: connectCommand,
  disconnect: disconnectCommand,
  snapshot: storeCommand,
  expireAll: storeCommand,
  reset: storeCommand,
  invalidate: invalidateCommand,
  replay: replayCommand,
  rows: rowsCommand,
  results: resultsCommand,
  refetch: resultCommand,
  expire: resultCommand,
  'force-loading': resultCommand,
  'force-error': resultCommand,
  edit: editCommand,
  readers: readersCommand,
  search: searchCommand,
});
/** The envelope of a command: its tag, version and source. */
export const extensionEnvelopeCheck = object(extensionEnvelope);
/** A command: the envelope read first (a window carries every script's messages), then its kind. */
export const extensionCommandCheck = both(extensionEnvelopeCheck, extensionCommands);

/**
 * The snapshot, once its chunks are joined and parsed: what a panel's first views need. It
 * counts each entity table's pks (`tableSizes`) and each collection row's members
 * (`collectionSizes`); the lists follow in `members` messages. Entity rows are never in it (a
 * panel asks for the rows it shows, `rows`). Pages of earlier versions sent the lists in the
 * snapshot (collection rows with their members in `entities`, each table's pks in `pks`), or
 * entity tables with their rows in `entities` (and `entitiesMeta` and `indexes`, which no panel
 * reads): a panel still takes them. The tables the panel walks must be objects; their rows and
 * results it only shows.
 */
export type SnapshotState = Infer<typeof snapshotState>;
export const snapshotState = object({
  /** Empty from this version on; see above. */
  entities: record(record(anyValue<Encoded>())),
  /** Entity tables by type: how many pks each holds (they follow the snapshot). */
  tableSizes: optional(record(seq)),
  /** Collection tables (`[Todo]`) by key, then row key: how many members (they follow). */
  collectionSizes: optional(record(record(seq))),
  /** From earlier pages: entity tables by type, the pks the store holds. */
  pks: optional(record(array(string()))),
  /** Stored results by key, normalized. */
  endpoints: record(anyValue<Encoded>()),
  meta: record(anyValue<Encoded>()),
  entitiesMeta: optional(anyValue<Record<string, Record<string, Encoded>>>()),
  indexes: optional(anyValue<Encoded>()),
  optimistic: array(object({ key: string(), endpoint: string(), fetchedAt: number() })),
});

type WithoutEnvelope<T> = T extends unknown ? Omit<T, 'tag' | 'v' | 'source'> : never;
/** A page message without its envelope (tag, version, source), as `pageMessage` takes it. */
export type PageMessageBody = WithoutEnvelope<PageMessage>;
/** A command without its envelope, as `extensionCommand` takes it. */
export type ExtensionCommandBody = WithoutEnvelope<ExtensionCommand>;

/** Wraps a message body in the envelope. */
export function pageMessage(body: PageMessageBody): PageMessage {
  return { tag: PROTOCOL_TAG, v: PROTOCOL_VERSION, source: 'page', ...body } as PageMessage;
}
/** Wraps a command body in the envelope. */
export function extensionCommand(body: ExtensionCommandBody): ExtensionCommand {
  return {
    tag: PROTOCOL_TAG,
    v: PROTOCOL_VERSION,
    source: 'extension',
    ...body,
  } as ExtensionCommand;
}
