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
 */

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

// ---- page → extension --------------------------------------------------------------------------

/**
 * A store announcing itself. Its own greeting is the one window message a store posts, and
 * transfers the port it posts everything else on; a hello `answering` a connect comes on that
 * port.
 */
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
/** A batch of store events, page to panel. */
export interface EventsMessage extends Envelope {
  source: 'page';
  kind: 'events';
  storeId: string;
  /** The JSON text of a `StoreEvent[]`, oldest first; `parseEvents` reads and checks it. */
  data: string;
  /** History from before the snapshot just sent: for the timeline, already in the snapshot. */
  history?: boolean;
}
/** A chunk of a store's snapshot, page to panel, in answer to a `connect` or `snapshot`. */
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

/**
 * After a snapshot's chunks, the lists it counted, a part at a time: the pks of an entity table,
 * or the members of a collection row, in order. A list's parts come one after the other, and
 * every part of a snapshot before any event that follows it.
 */
export interface MembersMessage extends Envelope {
  source: 'page';
  kind: 'members';
  storeId: string;
  /** The seq of the snapshot the list is part of. */
  seq: number;
  /** The entity type, or the collection (`[Todo]`) of `row`. */
  table: string;
  /** The collection row the members are of; absent for an entity table's pks. */
  row?: string;
  /** The JSON text of this part's pks (`string[]`); `parseMembers` reads and checks it. */
  data: string;
}

/** What every answer to a read (`rows`, `results`) says about when it was read. */
interface ReadAnswer {
  storeId: string;
  /**
   * The seq the current state was read at: the last event posted before this message (events
   * still waiting for their batch follow it). For a read `asOf` a past seq, the latest seq.
   */
  seq: number;
  /** The past seq the read was asked for; absent for the current state. */
  asOf?: number;
  /**
   * Set when `asOf` is no longer in the page's ring (nor the current seq): the state of that
   * time is gone, and nothing was read.
   */
  leftRing?: true;
}
/** The answer to a `rows` command. */
export interface RowsMessage extends Envelope, ReadAnswer {
  source: 'page';
  kind: 'rows';
  /** The table asked for: an entity type. */
  table: string;
  /** By pk; `null` for a pk the store does not hold (held at `asOf`, when asked for). */
  rows: Record<string, Encoded>;
}
/** A stored result as a `results` answer gives it: its normalized value and its meta. */
export interface StoredResult {
  result: Encoded;
  meta: Encoded;
}
/** The answer to a `results` command. */
export interface ResultsMessage extends Envelope, ReadAnswer {
  source: 'page';
  kind: 'results';
  /** By result key; `null` for a key the store holds nothing for. */
  results: Record<string, StoredResult | null>;
}
/** How a result is forced to show, until a refetch undoes it. */
export type ForcedState = 'loading' | 'error';
/** The answer to a `readers` command: what the page's components read now. */
export interface ReadersMessage extends Envelope {
  source: 'page';
  kind: 'readers';
  storeId: string;
  /** By result key: how many mounted components read it (keys no component reads are absent). */
  readers: Record<string, number>;
  /** By result key: the results the panel forced to show loading or an error. */
  forced: Record<string, ForcedState>;
  /** The keys of the results whose read is in flight now. */
  fetching: string[];
  /**
   * By result key: the results polled now (`useLive`, `useSubscription`, `controller.subscribe`),
   * each with the frequency it is fetched again at, in ms. Absent from pages of earlier
   * versions, made before polling: their answer is still taken.
   */
  polling?: Record<string, number>;
  /**
   * By result key: the display name of each mounted component reading it ('' when the page
   * could not tell it). Absent from pages of earlier versions.
   */
  names?: Record<string, string[]>;
  /** In answer to a command that named an entity row: the components whose data shows it. */
  rowReaders?: { table: string; pk: string; names: string[] };
}
/** One field of a stored entity that contains a searched text. */
export interface SearchMatch {
  entity: string;
  pk: string;
  field: string;
  /** The field's value (its JSON when it is not a text), cut around the match when long. */
  value: string;
}
/** The answer to a `search` command: the entities whose fields contain the text. */
export interface SearchMessage extends Envelope {
  source: 'page';
  kind: 'search';
  storeId: string;
  /** The seq the store was searched at. */
  seq: number;
  /** The text searched for, as the command gave it. */
  text: string;
  matches: SearchMatch[];
  /** Set when more fields matched than an answer lists. */
  more: boolean;
}
/** Said when the page could not run a panel's command: what was wrong, in words. */
export interface CommandErrorMessage extends Envelope {
  source: 'page';
  kind: 'command-error';
  storeId: string;
  /** The kind of the command that failed. */
  command: string;
  error: string;
}
/** Every message a page's store sends to the panel. */
export type PageMessage =
  | HelloMessage
  | EventsMessage
  | SnapshotMessage
  | MembersMessage
  | RowsMessage
  | ResultsMessage
  | ReadersMessage
  | SearchMessage
  | CommandErrorMessage;

// ---- extension → page --------------------------------------------------------------------------

/** A panel connects: each store (or the one named) greets it and sends its snapshot. */
export interface ConnectCommand extends Envelope {
  source: 'extension';
  kind: 'connect';
  /** Omitted: every store on the page answers. */
  storeId?: string;
  /** The last seq the panel holds; 0 for none. */
  lastSeq: number;
}
/** The panel closed: stores stop sending events. */
export interface DisconnectCommand extends Envelope {
  source: 'extension';
  kind: 'disconnect';
}
/** A command to one store: send a snapshot, expire every result, or reset. */
export interface StoreCommand extends Envelope {
  source: 'extension';
  kind: 'snapshot' | 'expireAll' | 'reset';
  storeId: string;
}
/** Invalidate one stored result, by its key. */
export interface InvalidateCommand extends Envelope {
  source: 'extension';
  kind: 'invalidate';
  storeId: string;
  key: string;
}
/** Replay recorded mutations in the page's store. */
export interface ReplayCommand extends Envelope {
  source: 'extension';
  kind: 'replay';
  storeId: string;
  replayId: string;
  mode: 'apply' | 'send';
  mutations: RecordedMutation[];
}
/**
 * Asks for some entities' rows (those a panel view shows): as stored now, or as they were just
 * after the event `asOf` (read-only time travel, for any seq still in the page's ring).
 */
export interface RowsCommand extends Envelope {
  source: 'extension';
  kind: 'rows';
  storeId: string;
  table: string;
  /** At most MAX_ROWS_PER_REQUEST. */
  pks: string[];
  asOf?: number;
}
/** Asks for stored results by key, now or as of a past seq (see RowsCommand). */
export interface ResultsCommand extends Envelope {
  source: 'extension';
  kind: 'results';
  storeId: string;
  /** At most MAX_ROWS_PER_REQUEST. */
  keys: string[];
  asOf?: number;
}
/**
 * The inspector's commands on one stored result: fetch it again; mark it stale; make its readers
 * show their loading state (Suspense fallback) or an error (error boundary) until a refetch.
 */
export interface ResultCommand extends Envelope {
  source: 'extension';
  kind: 'refetch' | 'expire' | 'force-loading' | 'force-error';
  storeId: string;
  key: string;
}
/** Writes one field of a stored entity, through the store's write path (a devtools edit). */
export interface EditCommand extends Envelope {
  source: 'extension';
  kind: 'edit';
  storeId: string;
  entity: string;
  pk: string;
  field: string;
  /** Plain JSON, stored as it is. */
  value: Encoded;
}
/**
 * The name of the endpoint an edit of an entity of `type` runs through: the timeline shows its
 * events as devtools edits, and a replay finds it by this name.
 */
export const editEndpointName = (type: string) => `RestLens.edit(${type})`;
/** Whether an endpoint name is that of a devtools edit. */
export const isEditEndpoint = (name: string | undefined) =>
  (name?.startsWith('RestLens.edit(') ?? false) && name?.endsWith(')') === true;

/** Asks how many mounted components read each result (answered with a `readers` message). */
export interface ReadersCommand extends Envelope {
  source: 'extension';
  kind: 'readers';
  storeId: string;
  /** An entity row whose readers to name too (the Entities view's selected entity). */
  row?: { table: string; pk: string };
}
/** The longest text a `search` command may ask for. */
export const MAX_SEARCH_LENGTH = 200;
/** Searches the stored entities' fields for a text (answered with a `search` message). */
export interface SearchCommand extends Envelope {
  source: 'extension';
  kind: 'search';
  storeId: string;
  /** At most MAX_SEARCH_LENGTH characters; matched ignoring case. */
  text: string;
}
/** Every command the panel sends to a page's stores. */
export type ExtensionCommand =
  | ResultCommand
  | EditCommand
  | ReadersCommand
  | SearchCommand
  | ConnectCommand
  | RowsCommand
  | ResultsCommand
  | DisconnectCommand
  | StoreCommand
  | InvalidateCommand
  | ReplayCommand;

/**
 * The snapshot, once its chunks are joined and parsed: what a panel's first views need. It
 * counts each entity table's pks (`tableSizes`) and each collection row's members
 * (`collectionSizes`); the lists follow in `members` messages. Entity rows are never in it (a
 * panel asks for the rows it shows, `rows`). Pages of earlier versions sent the lists in the
 * snapshot (collection rows with their members in `entities`, each table's pks in `pks`), or
 * entity tables with their rows in `entities` (and `entitiesMeta` and `indexes`, which no panel
 * reads): a panel still takes them.
 */
export interface SnapshotState {
  /** Empty from this version on; see above. */
  entities: Record<string, Record<string, Encoded>>;
  /** Entity tables by type: how many pks each holds (they follow the snapshot). */
  tableSizes?: Record<string, number>;
  /** Collection tables (`[Todo]`) by key, then row key: how many members (they follow). */
  collectionSizes?: Record<string, Record<string, number>>;
  /** From earlier pages: entity tables by type, the pks the store holds. */
  pks?: Record<string, string[]>;
  /** Stored results by key, normalized. */
  endpoints: Record<string, Encoded>;
  meta: Record<string, Encoded>;
  entitiesMeta?: Record<string, Record<string, Encoded>>;
  indexes?: Encoded;
  optimistic: { key: string; endpoint: string; fetchedAt: number }[];
}

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
