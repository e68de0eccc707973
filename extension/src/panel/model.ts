import {
  applyCollectionChange,
  applyResultEffect,
  INVALID,
  isInvalidRow,
  mergeChanges,
  type ResultMeta,
} from '../../../library/src/devtools/protocol/applyEffects.js';
import type {
  CollectionChanged,
  Effect,
  StoreEvent,
} from '../../../library/src/devtools/protocol/effects.js';
import {
  type Encoded,
  type ForcedState,
  type ReadersMessage,
  type RowsMessage,
  type SearchMessage,
  type SnapshotMessage,
  type SnapshotState,
  TIMELINE_LENGTH,
} from '../../../library/src/devtools/protocol/messages.js';
import { parseSnapshot } from '../../../library/src/devtools/protocol/validate.js';
import { copyDict, type Dict, dict, withEntry } from './dict.js';
import { DistinctValues } from './distinctValues.js';
import { type MapDraft, PersistentMap, TableDrafts } from './tables.js';

/** A collection row's id in the panel: its collection key and its row key. */
export const collectionRowId = (collection: string, row: string) => `${collection} ${row}`;

/**
 * A row the panel knows the store holds but has not fetched: events name the entities they
 * touch without their rows, so a row is fetched when a view shows it. Compared by identity; a
 * symbol cannot be mistaken for anything the page sends.
 */
export const UNLOADED: unique symbol = Symbol('unloaded');
export type Row = Encoded | typeof UNLOADED;

/** A collection row's latest change, and the seq of the event that rolled it back, if one did. */
export interface LastChange {
  seq: number;
  effect: CollectionChanged;
  /** Set when the change was an optimistic one the server refused: it was undone at this seq. */
  rolledBackAt?: number;
}

/**
 * The panel's copy of one page store, kept current from a snapshot plus event effects. Every
 * record keyed by the page's names is a Dict (no prototype: any name is a plain key), or, where
 * it can hold thousands of keys (entity and collection tables, results), a PersistentMap: a batch
 * of events makes new versions of what it changes and shares the rest, so a table that did not
 * change keeps its identity (the views keep what they made of it).
 */
export interface StoreView {
  id: string;
  name: string;
  libraryVersion: string;
  /** Set on a copy of the store as it was at a past seq (time travel): it is read-only. */
  asOf?: number;
  /** The last event applied to the copy (or the seq of the snapshot it came from). */
  lastSeq: number;
  /** Whether a snapshot has arrived: until then the copy is empty. */
  ready: boolean;
  /**
   * The seq the page is asked to resync from, while its answer has not come (0: everything, a
   * snapshot).
   */
  resyncAfter?: number;
  /** Snapshot chunks being put together, by index. */
  pendingSnapshot?: { seq: number; count: number; parts: ReadonlyMap<number, string> };
  /** What the last snapshot counted and has not sent yet (see Loading). */
  loading?: Loading;
  /** Entity tables by type: every pk the store holds, with its row or UNLOADED. */
  entities: Dict<PersistentMap<Row>>;
  /**
   * Per type, the pks whose row changed after it was fetched. The old row keeps showing until
   * the fresh one comes, so an update never blanks what the user is reading.
   */
  stale: Dict<ReadonlySet<string>>;
  /** Collection tables (`[Todo]`) by row key (`{"userId":"1"}`): the members' pks in order. */
  collections: Dict<PersistentMap<string[]>>;
  endpoints: PersistentMap<Encoded>;
  meta: PersistentMap<ResultMeta>;
  optimistic: SnapshotState['optimistic'];
  /** The timeline, oldest first, bounded. */
  events: StoreEvent[];
  /** The distinct action kinds (`type`) and endpoints of the timeline's events: its filter menus. */
  actionValues: ActionValues;
  /** Each stored result's endpoint name, kept as events come (see ResultNames). */
  resultNames: ResultNames;
  /** The latest change of each collection row, by `collection + ' ' + row`. */
  lastChanges: PersistentMap<LastChange>;
  /** How many mounted components read each result now (the page's latest count). */
  readers: Dict<number>;
  /** By result key: the component of each mounted reader ('' unknown; the page's latest word). */
  readerNames: Dict<readonly string[]>;
  /** The components showing the entity row the panel last asked about. */
  rowReaders?: ReadersMessage['rowReaders'];
  /** The latest answer to a search of the entities' values. */
  search?: Pick<SearchMessage, 'text' | 'matches' | 'more'>;
  /** The results the panel forced to show loading or an error, until a refetch. */
  forced: Dict<ForcedState>;
  /** The results whose read is in flight (the page's latest word). */
  fetching: ReadonlySet<string>;
  /** The results the page polls, with the frequency (ms) of each (the page's latest word). */
  polling: Dict<number>;
  /** The page's word on the last command of this panel it could not run. */
  commandError?: { command: string; error: string };
}

/**
 * The lists a snapshot counted that are still coming (`members` messages follow it): until then
 * the copy holds the first part of each, and the views say so.
 */
export interface Loading {
  /** The snapshot's seq: parts of another snapshot are not this one's. */
  seq: number;
  /** By entity type: how many pks are still to come. */
  pks: Dict<number>;
  /** By collection, then row key: how many members are still to come. */
  members: Dict<Dict<number>>;
}

/** One part of a list that follows a snapshot (a `members` message, parsed). */
export interface ListPart {
  seq: number;
  table: string;
  /** The collection row; absent for an entity table's pks. */
  row?: string;
  pks: readonly string[];
}

/** The distinct values of the action fields the Timeline filters on. */
export interface ActionValues {
  type: DistinctValues;
  endpoint: DistinctValues;
}

/** The read that first stored a result: its endpoint, and the seq of its event. */
interface ResultName {
  endpoint: string;
  seq: number;
}

/**
 * Each stored result's endpoint name: the read that first stored it (a `result-stored` or
 * `result-error` effect the store kept), not whichever wrote it last (a next page merged into a
 * list is still the list's read); a mutation's answer is never kept as a result, so it names
 * none. Taken from every event as it comes, history included, so a name outlives the event that
 * gave it on the timeline; a store reset forgets the names before it.
 */
export interface ResultNames {
  byKey: PersistentMap<ResultName>;
  /** The seq of the latest store reset (0: none): an event up to it names nothing. */
  resetAt: number;
}

export const MAX_TIMELINE = TIMELINE_LENGTH;
/** An entity row an Invalidate removed, as the store holds it (and the page encodes it). */
export const INVALID_ROW: Encoded = INVALID;
export { isInvalidRow };

/** Whether the page must be asked for this row: the copy lacks it, or holds an old one. */
export function needsRow(view: StoreView, table: string, pk: string): boolean {
  const row = view.entities[table]?.get(pk);
  return row === UNLOADED || (row !== undefined && view.stale[table]?.has(pk) === true);
}

export function emptyStoreView(id: string, name = '', libraryVersion = ''): StoreView {
  return {
    id,
    name,
    libraryVersion,
    lastSeq: 0,
    ready: false,
    entities: dict(),
    stale: dict(),
    collections: dict(),
    endpoints: PersistentMap.empty(),
    meta: PersistentMap.empty(),
    optimistic: [],
    events: [],
    actionValues: { type: DistinctValues.none, endpoint: DistinctValues.none },
    resultNames: { byKey: PersistentMap.empty(), resetAt: 0 },
    lastChanges: PersistentMap.empty(),
    readers: dict(),
    readerNames: dict(),
    forced: dict(),
    fetching: new Set(),
    polling: dict(),
  };
}

/**
 * Takes the page's count of readers (and forced, in-flight and polled results), copied into
 * Dicts. A page made before polling says nothing of it: nothing shows as polled.
 */
export function applyReaders(view: StoreView, message: ReadersMessage): StoreView {
  return {
    ...view,
    readers: dict(Object.entries(message.readers)),
    readerNames: dict(Object.entries(message.names ?? {})),
    // An answer that names no row keeps the one asked about last.
    rowReaders: message.rowReaders ?? view.rowReaders,
    forced: dict(Object.entries(message.forced)),
    fetching: new Set(message.fetching),
    polling: dict(Object.entries(message.polling ?? {})),
  };
}

/** Collection tables are keyed like `[Todo]`; everything else in `entities` is an entity type. */
export function isCollectionKey(key: string): boolean {
  return key.startsWith('[') && key.endsWith(']');
}

/**
 * Adds a snapshot chunk; once all have come, the copy is replaced by the snapshot. Only the
 * chunks that came are kept (by index): the count is the page's word, and sizes nothing.
 */
export function applySnapshotChunk(view: StoreView, message: SnapshotMessage): StoreView {
  const pending =
    view.pendingSnapshot &&
    view.pendingSnapshot.seq === message.seq &&
    view.pendingSnapshot.count === message.count
      ? view.pendingSnapshot
      : { seq: message.seq, count: message.count, parts: new Map<number, string>() };
  const parts = new Map(pending.parts).set(message.index, message.data);
  if (parts.size < pending.count) return { ...view, pendingSnapshot: { ...pending, parts } };
  // A text that is not a snapshot is dropped like a chunk that never came: the copy stays.
  const text = Array.from({ length: parts.size }, (_, index) => parts.get(index)).join('');
  const snapshot = parseSnapshot(text);
  if (!snapshot) return { ...view, pendingSnapshot: undefined };
  // The page's snapshots are current when sent, never behind what the copy has applied, unless
  // the panel asked for one after a conflict (its copy may then be ahead of the store). One
  // behind the copy otherwise is another conflict: not taken, and a snapshot is asked for.
  if (view.ready && message.seq < view.lastSeq && view.resyncAfter !== 0)
    return { ...view, pendingSnapshot: undefined, resyncAfter: 0 };
  return {
    ...view,
    ...copyOfSnapshot(snapshot, message.seq),
    pendingSnapshot: undefined,
    ready: true,
    lastSeq: message.seq,
    resyncAfter: undefined,
    // The store is at this seq: an event the timeline holds past it is not the store's (a
    // script of the page posted it), nor is a seq the copy took from such a script.
    ...timelineUpTo(view, message.seq),
  };
}

/** The timeline without its events past `seq`, and what they gave the menus and names. */
function timelineUpTo(
  view: StoreView,
  seq: number,
): Pick<StoreView, 'events' | 'actionValues' | 'resultNames'> {
  const { events, actionValues, resultNames } = view;
  if ((events.at(-1)?.seq ?? 0) <= seq) return { events, actionValues, resultNames };
  const kept = events.filter((event) => event.seq <= seq);
  return {
    events: kept,
    actionValues: countedActionValues(view.actionValues, [], events.slice(kept.length)),
    resultNames: resultNamesUpTo(view, seq, kept),
  };
}

const isPk = (member: unknown): member is string => typeof member === 'string';

/**
 * The copy a snapshot makes. The store keeps entities and collections in one table; the copy
 * keeps them apart, as only entity rows are fetched on demand. The snapshot counts each entity
 * table's pks and each collection row's members, which follow it (`loading`); entity rows start
 * UNLOADED. Pages of earlier versions sent the lists in the snapshot (`pks`, and collection
 * rows in `entities`; a list cut by the encoder ends with a marker, not a pk), or entity tables
 * with their rows (taken as they are).
 */
function copyOfSnapshot(snapshot: SnapshotState, seq: number): Partial<StoreView> {
  const entities: StoreView['entities'] = dict();
  const collections: StoreView['collections'] = dict();
  const loading: Loading = { seq, pks: dict(), members: dict() };
  for (const [key, size] of Object.entries(snapshot.tableSizes ?? {})) {
    entities[key] = PersistentMap.empty();
    if (size > 0) loading.pks[key] = size;
  }
  for (const [key, rows] of Object.entries(snapshot.collectionSizes ?? {})) {
    collections[key] = PersistentMap.from(Object.keys(rows).map((row) => [row, []]));
    const coming = Object.entries(rows).filter(([, size]) => size > 0);
    if (coming.length > 0) loading.members[key] = dict(coming);
  }
  for (const [key, pks] of Object.entries(snapshot.pks ?? {}))
    entities[key] = PersistentMap.from(pks.map((pk) => [pk, UNLOADED]));
  for (const [key, table] of Object.entries(snapshot.entities)) {
    if (!isCollectionKey(key)) entities[key] = PersistentMap.from(Object.entries(table));
    else
      collections[key] = PersistentMap.from(
        Object.entries(table).map(([row, members]) => [
          row,
          Array.isArray(members) ? members.filter(isPk) : [],
        ]),
      );
  }
  const coming = Object.keys(loading.pks).length + Object.keys(loading.members).length;
  return {
    entities,
    stale: dict(),
    collections,
    endpoints: PersistentMap.from(Object.entries(snapshot.endpoints)),
    meta: PersistentMap.from(Object.entries(snapshot.meta as Dict<ResultMeta>)),
    optimistic: snapshot.optimistic,
    loading: coming > 0 ? loading : undefined,
  };
}

/**
 * Takes parts of the lists the last snapshot counted, in the order they came: an entity table's
 * pks join it UNLOADED, a collection row's members go after those that came before.
 *
 * The page sends exactly what it counted, so a part the copy does not expect — when no list is
 * coming, of another snapshot, of a list the snapshot did not count, or past its count — was
 * posted by a script of the page under the store's id (alongside the page's own, or with a
 * forged snapshot in between): what came of the lists cannot be told from it. Like two events
 * with one seq, it is a conflict, and a fresh snapshot settles it (`resyncAfter` 0).
 */
export function applyListParts(view: StoreView, parts: readonly ListPart[]): StoreView {
  const { loading } = view;
  if (parts.length === 0) return view;
  const conflict: StoreView = { ...view, resyncAfter: 0 };
  if (loading === undefined) return conflict;
  const pks = copyDict(loading.pks);
  const members = new CopyOnWrite(loading.members, copyDict);
  const entities = new TableDrafts(view.entities);
  const collections = new TableDrafts(view.collections);
  const editedRows = new Set<string[]>();
  for (const part of parts) {
    if (part.seq !== loading.seq) return conflict;
    if (part.row === undefined) {
      const left = pks[part.table];
      if (left === undefined || part.pks.length > left) return conflict;
      const rows = entities.edit(part.table);
      // A row answered before its pk came stays.
      for (const pk of part.pks) if (rows.get(pk) === undefined) rows.set(pk, UNLOADED);
      if (left > part.pks.length) pks[part.table] = left - part.pks.length;
      else delete pks[part.table];
      continue;
    }
    const left = members.tables[part.table]?.[part.row];
    if (left === undefined || part.pks.length > left) return conflict;
    const table = collections.edit(part.table);
    let list = table.get(part.row) ?? [];
    if (!editedRows.has(list)) {
      list = list.slice();
      editedRows.add(list);
      table.set(part.row, list);
    }
    // A loop, not a spread: a part comes from the page, which decides how long it is.
    for (const pk of part.pks) list.push(pk);
    const rowsLeft = members.edit(part.table);
    if (left > part.pks.length) rowsLeft[part.row] = left - part.pks.length;
    else delete rowsLeft[part.row];
  }
  // A collection's entry goes once none of its rows is coming.
  const stillComing = dict(
    Object.entries(members.tables).filter(([, rows]) => Object.keys(rows).length > 0),
  );
  const coming = Object.keys(pks).length + Object.keys(stillComing).length;
  return {
    ...view,
    entities: entities.finish(),
    collections: collections.finish(),
    loading: coming > 0 ? { seq: loading.seq, pks, members: stillComing } : undefined,
  };
}

/**
 * The seq to ask a resync from: what the copy holds, or 0 (a fresh snapshot) while a snapshot's
 * lists are still coming, as only a snapshot sends them again.
 */
export function resyncPoint(view: StoreView, after: number): number {
  return view.loading === undefined ? after : 0;
}

/** How many members of a collection row the copy lacks: those still coming after a snapshot. */
export function membersComing(
  view: Pick<StoreView, 'loading'>,
  collection: string,
  row: string,
): number {
  return view.loading?.members[collection]?.[row] ?? 0;
}

/** How many pks of an entity table the copy lacks: those still coming after a snapshot. */
export function pksComing(view: Pick<StoreView, 'loading'>, table: string): number {
  return view.loading?.pks[table] ?? 0;
}

/**
 * Takes the rows the page answered with. The page posts every event up to the answer's seq
 * before it, so the rows are at least as new as the copy: they are current (not stale). A pk
 * the store no longer holds comes as `null`: it leaves the copy.
 */
export function applyRows(view: StoreView, message: RowsMessage): StoreView {
  // Before the snapshot the copy is empty, and the snapshot brings every row.
  if (!view.ready) return view;
  const stale = new Set(view.stale[message.table]);
  const table = view.entities[message.table] ?? PersistentMap.empty<Row>();
  const rows = table.withMutations((draft) => {
    for (const [pk, row] of Object.entries(message.rows)) {
      stale.delete(pk);
      if (row === null) draft.delete(pk);
      else draft.set(pk, row);
    }
  });
  return {
    ...view,
    entities: withEntry(view.entities, message.table, rows),
    stale: withEntry<ReadonlySet<string>>(view.stale, message.table, stale),
  };
}

/** For an event that rolled an optimistic one back: the event that had applied it. */
export function optimisticOrigin(
  events: readonly StoreEvent[],
  rollback: StoreEvent,
): StoreEvent | undefined {
  return rollback.action.optimistic === 'rolled-back' ? appliedBy(events, rollback) : undefined;
}

/** For the answer that committed or rolled back an optimistic update: the event that applied it. */
export function appliedBy(
  events: readonly StoreEvent[],
  settled: StoreEvent,
): StoreEvent | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const earlier = events[index] as StoreEvent;
    if (earlier.seq >= settled.seq) continue;
    if (earlier.action.optimistic === 'applied' && earlier.action.key === settled.action.key)
      return earlier;
  }
  return undefined;
}

/** The events of one `events` message, once parsed. */
export interface EventBatch {
  storeId: string;
  events: readonly StoreEvent[];
  /** History from before the snapshot: for the timeline only. */
  history?: boolean;
}

interface ApplyResult {
  view: StoreView;
  /**
   * Set when the panel must ask for what follows this seq: events were missing. 0 asks for
   * everything (a snapshot): two different events came with one seq, and which one is the
   * store's cannot be told.
   */
  gapAfter?: number;
  /** The events whose effects were applied, in order: each live event once (the Recorder's input). */
  applied: StoreEvent[];
}

/** Whether two events with one seq are the same (the page sent one again, or a copy of it). */
const sameEvent = (a: StoreEvent, b: StoreEvent) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Applies live events to the copy, in order, each adding it to the timeline; history (events
 * from before a snapshot) only fills the timeline, where the copy already is. The timeline keeps
 * the first event of each seq: an event past the next seq is left out (the resync sends it
 * again, with the ones before it), and another event with a seq the timeline holds is a
 * conflict: a script of the page may post what it likes, so the disputed events leave the
 * timeline, and the page's answer to the resync (a snapshot and its history) settles them.
 */
export function applyEvents(view: StoreView, batch: EventBatch): ApplyResult {
  let events = view.events.slice();
  let lastSeq = view.lastSeq;
  let gapAfter: number | undefined;
  let draft: Draft | undefined;
  let names = new ResultNamesDraft(view.resultNames);
  const applied: StoreEvent[] = [];
  // The events that joined and left the timeline: the filter menus count them.
  const added: StoreEvent[] = [];
  let removed: StoreEvent[] = [];
  // Whether an event went before the timeline's last (history fills holes anywhere).
  let unordered = false;
  // The timeline by seq, made when first needed: most batches only add the next events.
  let bySeq: Map<number, StoreEvent> | undefined;
  const held = () => {
    bySeq ??= new Map(events.map((known) => [known.seq, known]));
    return bySeq;
  };
  const hold = (event: StoreEvent) => {
    if (event.seq < (events.at(-1)?.seq ?? 0)) unordered = true;
    events.push(event);
    bySeq?.set(event.seq, event);
    added.push(event);
    names.take(event);
  };
  for (const event of batch.events) {
    if (batch.history) {
      if (event.seq <= lastSeq && !held().has(event.seq)) hold(event);
      continue;
    }
    if (event.seq <= lastSeq) {
      const known = held().get(event.seq);
      if (known !== undefined && sameEvent(known, event)) continue;
      removed = events.filter((kept) => kept.seq >= event.seq);
      events = events.filter((kept) => kept.seq < event.seq);
      // What the disputed events named goes with them (a reset among them too).
      names = new ResultNamesDraft(resultNamesOf(events));
      gapAfter = 0;
      break;
    }
    if (!view.ready || event.seq !== lastSeq + 1) {
      gapAfter = lastSeq;
      break;
    }
    draft ??= new Draft(view);
    draft.apply(event);
    const undone = optimisticOrigin(events, event);
    if (undone) draft.rollBack(undone, event.seq);
    lastSeq = event.seq;
    applied.push(event);
    hold(event);
  }
  if (added.length === 0 && removed.length === 0)
    return { view: { ...view, ...draft?.result(), lastSeq }, gapAfter, applied };
  // Sorted before trimming, so the newest are kept.
  if (unordered) events.sort((a, b) => a.seq - b.seq);
  const over = events.length - MAX_TIMELINE;
  if (over > 0) {
    removed = removed.concat(events.slice(0, over));
    events = events.slice(over);
  }
  return {
    view: {
      ...view,
      ...draft?.result(),
      lastSeq,
      events,
      actionValues: countedActionValues(view.actionValues, added, removed),
      resultNames: names.finish(),
    },
    gapAfter,
    applied,
  };
}

/** The filter menus' values with `added` joined to the timeline and `removed` gone from it. */
function countedActionValues(
  values: ActionValues,
  added: readonly StoreEvent[],
  removed: readonly StoreEvent[],
): ActionValues {
  if (added.length === 0 && removed.length === 0) return values;
  const counted = (field: keyof ActionValues) =>
    values[field].counted(
      added.map((event) => event.action[field]),
      removed.map((event) => event.action[field]),
    );
  return { type: counted('type'), endpoint: counted('endpoint') };
}

/** The filter menus' values of a timeline of these events. */
export function actionValuesOf(events: readonly StoreEvent[]): ActionValues {
  return countedActionValues(
    { type: DistinctValues.none, endpoint: DistinctValues.none },
    events,
    [],
  );
}

/** The result names while events are taken (see ResultNames). */
class ResultNamesDraft {
  private readonly byKey: MapDraft<ResultName>;
  private resetAt: number;

  constructor(private readonly base: ResultNames) {
    this.byKey = base.byKey.draft();
    this.resetAt = base.resetAt;
  }

  /** Takes the results an event's reads stored, and a reset. */
  take(event: StoreEvent): void {
    for (const effect of event.effects) {
      // Nothing up to a reset names a result (nor what follows it in the reset's own event).
      if (event.seq <= this.resetAt) return;
      if (effect.type === 'store-reset') this.forgetUpTo(event.seq);
      else if ((effect.type === 'result-stored' || effect.type === 'result-error') && effect.kept) {
        const named = this.byKey.get(effect.key);
        // History can come after later events: the earliest read names the result.
        if (named === undefined || named.seq > event.seq)
          this.byKey.set(effect.key, { endpoint: effect.endpoint, seq: event.seq });
      }
    }
  }

  finish(): ResultNames {
    const byKey = this.byKey.finish();
    return byKey === this.base.byKey && this.resetAt === this.base.resetAt
      ? this.base
      : { byKey, resetAt: this.resetAt };
  }

  private forgetUpTo(seq: number): void {
    this.resetAt = seq;
    for (const key of this.byKey.keys())
      if ((this.byKey.get(key)?.seq ?? 0) <= seq) this.byKey.delete(key);
  }
}

/** The result names these events give (on the names `from`, none by default). */
function resultNamesOf(
  events: readonly StoreEvent[],
  from: ResultNames = { byKey: PersistentMap.empty(), resetAt: 0 },
): ResultNames {
  const names = new ResultNamesDraft(from);
  for (const event of events) names.take(event);
  return names.finish();
}

/**
 * The result names as of `seq`, `events` being the timeline up to it: those given up to it.
 * Names before the latest reset are forgotten: when it is past `seq`, the events tell them.
 */
export function resultNamesUpTo(
  view: Pick<StoreView, 'resultNames'>,
  seq: number,
  events: readonly StoreEvent[],
): ResultNames {
  const { byKey, resetAt } = view.resultNames;
  if (resetAt > seq) return resultNamesOf(events);
  return {
    resetAt,
    byKey: byKey.withMutations((draft) => {
      for (const key of draft.keys()) if ((draft.get(key)?.seq ?? 0) > seq) draft.delete(key);
    }),
  };
}

/** The endpoint that read a stored result, when the copy knows it (see ResultNames). */
export function endpointOf(view: Pick<StoreView, 'resultNames'>, key: string): string | undefined {
  return view.resultNames.byKey.get(key)?.endpoint;
}

/**
 * Small records (a few sets, counts) by name, each copied on its first write: a batch copies
 * each one it touches once, however many times it writes into it.
 */
class CopyOnWrite<Stored, Editable extends Stored> {
  private copied: Dict<Stored> | undefined;
  private readonly edited = new Map<string, Editable>();

  constructor(
    private readonly base: Dict<Stored>,
    private readonly copy: (table: Stored | undefined) => Editable,
  ) {}

  /** The records as edited: the very record it started from while none was. */
  get tables(): Dict<Stored> {
    return this.copied ?? this.base;
  }

  edit(name: string): Editable {
    let table = this.edited.get(name);
    if (!table) {
      table = this.copy(this.base[name]);
      this.edited.set(name, table);
      this.copied ??= copyDict(this.base);
      this.copied[name] = table;
    }
    return table;
  }
}

const copySet = (set: ReadonlySet<string> | undefined) => new Set(set);

/** The parts of the copy that effects change, written in place while a batch is applied. */
class Draft {
  private entities: TableDrafts<Row>;
  private stale: CopyOnWrite<ReadonlySet<string>, Set<string>>;
  private collections: TableDrafts<string[]>;
  /** The stored results: their values (`endpoints`) and metas. */
  private results: { values: MapDraft<Encoded>; metas: MapDraft<ResultMeta> };
  private optimistic: StoreView['optimistic'];
  private lastChanges: MapDraft<LastChange>;
  /** The collection rows' lists this batch made: no older copy holds them. */
  private readonly madeRows = new Set<string[]>();

  constructor(view: StoreView) {
    this.entities = new TableDrafts(view.entities);
    this.stale = new CopyOnWrite(view.stale, copySet);
    this.collections = new TableDrafts(view.collections);
    this.results = { values: view.endpoints.draft(), metas: view.meta.draft() };
    this.optimistic = view.optimistic;
    this.lastChanges = view.lastChanges.draft();
  }

  /** The parts of the copy the batch made (the drafts are not usable after it). */
  result(): Partial<StoreView> {
    return {
      entities: this.entities.finish(),
      stale: this.stale.tables,
      collections: this.collections.finish(),
      endpoints: this.results.values.finish(),
      meta: this.results.metas.finish(),
      optimistic: this.optimistic,
      lastChanges: this.lastChanges.finish(),
    };
  }

  /** Copies a table's stale set only when it holds the pk: most writes find it empty. */
  private unstale(entity: string, pk: string): void {
    if (this.stale.tables[entity]?.has(pk)) this.stale.edit(entity).delete(pk);
  }

  /**
   * An optimistic event was rolled back at `seq`: the rows whose latest change it made say so
   * (the snapshot that follows a rollback brings their members back).
   */
  rollBack(applied: StoreEvent, seq: number): void {
    for (const effect of applied.effects) {
      if (effect.type !== 'collection-changed') continue;
      const id = collectionRowId(effect.collection, effect.row);
      const latest = this.lastChanges.get(id);
      if (latest?.seq === applied.seq) this.lastChanges.set(id, { ...latest, rolledBackAt: seq });
    }
  }

  /**
   * A row's list after a change: changed in place when this batch made the list (no older copy
   * of the store holds it), so a burst of writes into one long list copies it once a batch.
   */
  private changedRow(members: string[], change: CollectionChanged): string[] {
    const changed = applyCollectionChange(members, change, this.madeRows.has(members));
    // A replaced row's list is the event's own, which the timeline shows as it came.
    if (changed !== change.members) this.madeRows.add(changed);
    return changed;
  }

  apply(event: StoreEvent): void {
    for (const effect of event.effects) this.applyEffect(event, effect);
  }

  private applyEffect(event: StoreEvent, effect: Effect): void {
    switch (effect.type) {
      case 'entities-added': {
        // The row the event carries is shown at once; one it does not carry is fetched when a
        // view shows it.
        const rows = this.entities.edit(effect.entity);
        effect.pks.forEach((pk, index) => {
          rows.set(pk, effect.rows?.[index] ?? UNLOADED);
          this.unstale(effect.entity, pk);
        });
        break;
      }
      case 'entities-updated': {
        // A fetched row stays shown, marked stale, until its fresh version comes.
        const rows = this.entities.edit(effect.entity);
        for (const { pk } of effect.updates) {
          const row = rows.get(pk);
          if (row === undefined) rows.set(pk, UNLOADED);
          else if (row !== UNLOADED) this.stale.edit(effect.entity).add(pk);
        }
        break;
      }
      case 'entity-invalidated':
        this.entities.edit(effect.entity).set(effect.pk, INVALID_ROW);
        this.unstale(effect.entity, effect.pk);
        break;
      case 'collection-changed': {
        const rows = this.collections.edit(effect.collection);
        // A change that brings the whole list (a list load) needs no lookup of the row before.
        const before = effect.members === undefined ? (rows.get(effect.row) ?? []) : effect.members;
        rows.set(effect.row, this.changedRow(before, effect));
        // One event can change a row several times (a batch delete removes each entity in
        // turn): the row's latest change is that event's changes together.
        const id = collectionRowId(effect.collection, effect.row);
        const earlier = this.lastChanges.get(id);
        this.lastChanges.set(id, {
          seq: event.seq,
          effect: earlier?.seq === event.seq ? mergeChanges([earlier.effect, effect]) : effect,
        });
        break;
      }
      case 'result-stored':
      case 'result-error':
      case 'result-invalidated':
      case 'result-expired':
        applyResultEffect(this.results, effect, event.time);
        break;
      case 'store-reset':
        this.entities = new TableDrafts(dict());
        this.stale = new CopyOnWrite(dict(), copySet);
        this.collections = new TableDrafts(dict());
        this.results = {
          values: PersistentMap.empty<Encoded>().draft(),
          metas: PersistentMap.empty<ResultMeta>().draft(),
        };
        this.optimistic = [];
        this.lastChanges = PersistentMap.empty<LastChange>().draft();
        break;
      default:
        break;
    }
  }
}
