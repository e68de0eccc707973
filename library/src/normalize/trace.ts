/**
 * What the normalizer reports while it works, in the user's terms. `Trace.events` gives it in the
 * shapes of the devtools protocol's effects; whoever keeps a trace keeps it packed (`kept()`).
 */
export type InsertKind = 'push' | 'unshift' | 'page-merge' | 'add';

/** Entities of one type stored for the first time (or again after they were invalidated). */
export interface EntitiesAdded {
  type: 'entities-added';
  /** The entity type, e.g. `Todo`. */
  entity: string;
  pks: string[];
}
/** Stored entities of one type whose fields changed. */
export interface EntitiesUpdated {
  type: 'entities-updated';
  entity: string;
  pks: string[];
  /** `fields[i]`: the fields of `pks[i]` whose stored value changed. */
  fields: string[][];
}
export interface EntityInvalidated {
  type: 'entity-invalidated';
  entity: string;
  pk: string;
  /** The input the pk was computed from (e.g. the URL params when a delete answered nothing). */
  from: unknown;
  /** Whether that input is the call's URL params (a response that named nothing) or the response. */
  via: 'response' | 'url-params';
}
export interface CollectionChanged {
  type: 'collection-changed';
  /** The collection's table key, e.g. `[Todo]`. */
  collection: string;
  /** The row: serialized filtering arguments, e.g. `{"userId":"1"}`. */
  row: string;
  /** `replace` when a fetch of the whole list overwrote it. */
  kind: InsertKind | 'replace' | 'invalidate';
  lengthBefore: number;
  lengthAfter: number;
  /** The pks that went in, as runs of neighbours (one run for a push or a page). */
  inserted: InsertedRun[];
  duplicates: string[];
  removed: string[];
  /** The whole list, when it was replaced. */
  members?: string[];
}
/** Pks inserted next to each other, the first at `index` of the new list. */
export interface InsertedRun {
  index: number;
  pks: string[];
}
export type TraceEvent = EntitiesAdded | EntitiesUpdated | EntityInvalidated | CollectionChanged;

declare const packedTrace: unique symbol;
/**
 * A trace as it is kept: its events flat in one array of exactly their size (see Trace). Read it
 * with `unpackTrace`.
 */
export type PackedTrace = readonly unknown[] & { readonly [packedTrace]: true };

/**
 * The fields of each event, flat, after its type (`type, ...fields`):
 * - `entities-added`: entity, pks;
 * - `entities-updated`: entity, pks, fields;
 * - `entity-invalidated`: entity, pk, from, via;
 * - `collection-changed`: collection, row, kind, lengthBefore, lengthAfter, at, pks, duplicates,
 *   removed, members. With one run inserted, `at` is its index and `pks` its pks; otherwise `at`
 *   is -1 and `pks` the runs.
 *
 * A list of one pk is the pk itself (`pks` of a group, of a run, and the fields of a group's
 * one update): most changes touch one entity of a type.
 */
const FIELD_COUNT = {
  'entities-added': 2,
  'entities-updated': 3,
  'entity-invalidated': 4,
  'collection-changed': 10,
} as const satisfies Record<TraceEvent['type'], number>;

/** How far a group's pks and fields are from its event's start (the trace grows them in place). */
const GROUP_PKS = 2;
const GROUP_FIELDS = 3;

type OnePkOrMany = string | string[];

/** The trace of a change that normalized nothing. */
export const EMPTY_TRACE = Object.freeze([]) as unknown as PackedTrace;

/**
 * Collects what normalizing did, in order, packed: the events' fields follow each other in one
 * array, entities are grouped per type (a response of 500 todos is one `entities-added` with 500
 * pks), and a list of one pk is the pk. Whoever keeps traces (the devtools' ring of recent
 * changes) then keeps one array per change, where the protocol's shapes were seven objects and
 * arrays for a push, and the garbage collector moved each of them while the app worked. Rows are
 * not kept: the store holds them.
 */
export class Trace {
  private readonly packed: unknown[] = [];
  /**
   * Where the groups still open to more pks start. A response holds a few entity types, so a
   * short list searched by the (interned) type name beats a Map, which every traced change would
   * allocate; it is made at the first entity.
   */
  private open: number[] | undefined;
  /**
   * Where the groups start whose lists this trace grows one pk at a time (those `open` made and
   * no list shares): a list grown by pushes reserves up to half its length again, and `kept`
   * keeps copies of exactly their length instead.
   */
  private grown: number[] | undefined;
  /** The innermost list of entities being normalized (see listStarted). */
  private listing: Listing | undefined;
  private invalidated = false;

  /** The events, in the protocol's shapes (made now). */
  get events(): TraceEvent[] {
    return unpackTrace(this.packed as unknown as PackedTrace);
  }

  /** Whether an entity was invalidated. */
  get invalidates(): boolean {
    return this.invalidated;
  }

  /**
   * The trace to keep: one array of exactly its size (the one recorded into reserves more), and
   * so is each list of pks it grew.
   */
  kept(): PackedTrace {
    if (this.packed.length === 0) return EMPTY_TRACE;
    const kept = this.packed.slice();
    for (const group of this.grown ?? []) {
      kept[group + GROUP_PKS] = exactCopy(kept[group + GROUP_PKS]);
      if (kept[group] === 'entities-updated')
        kept[group + GROUP_FIELDS] = exactCopy(kept[group + GROUP_FIELDS]);
    }
    return kept as unknown as PackedTrace;
  }

  entityAdded(entity: string, pk: string): void {
    const listing = this.listing;
    if (listing !== undefined && listing.entity === entity) {
      // Maybe the item itself (whose add comes last, after those of its nested entities): that
      // is known when it is listed. An earlier one was nested in the item.
      this.addPending(listing);
      listing.pending = pk;
      return;
    }
    this.addToGroup(entity, pk);
  }

  private addToGroup(entity: string, pk: string): void {
    const group = this.openGroup('entities-added', entity);
    if (group === -1) this.opened('entities-added', entity, pk);
    else this.packed[group + GROUP_PKS] = withOneMore(this.packed[group + GROUP_PKS], pk);
  }

  entityUpdated(entity: string, pk: string, fields: string[]): void {
    const group = this.openGroup('entities-updated', entity);
    if (group === -1) {
      this.opened('entities-updated', entity, pk, fields);
      return;
    }
    const packed = this.packed;
    const pks = packed[group + GROUP_PKS] as OnePkOrMany;
    if (typeof pks === 'string') {
      packed[group + GROUP_PKS] = [pks, pk];
      packed[group + GROUP_FIELDS] = [packed[group + GROUP_FIELDS], fields];
    } else {
      pks.push(pk);
      (packed[group + GROUP_FIELDS] as string[][]).push(fields);
    }
  }

  entityInvalidated(event: Omit<EntityInvalidated, 'type'>): void {
    const { entity } = event;
    // Adds of this type before the invalidation are reported before it.
    for (let listing = this.listing; listing !== undefined; listing = listing.outer) {
      if (listing.entity !== entity) continue;
      this.addPending(listing);
      this.endRun(listing, listing.out.length);
      listing.group = -1;
    }
    this.packed.push('entity-invalidated', entity, event.pk, event.from, event.via);
    this.invalidated = true;
    // Later adds and updates of this type go after the invalidation, so that applying the
    // events in order ends where the store did (an entity deleted, then stored again).
    this.open = this.open?.filter((group) => this.packed[group + 1] !== entity);
  }

  /**
   * A list of `entity` items is being normalized into `out`. Its items stored for the first time
   * are then named by the list: runs of them are taken from `out` in one copy, and when every
   * item was new, the group of added entities is `out` itself, which is also the response's
   * result or the collection's new pks. Recording each pk on its own was most of the trace's
   * cost: a response of 500 new todos normalized 6% slower for it.
   */
  listStarted(entity: string, out: readonly unknown[]): void {
    this.listing = new Listing(entity, out, this.listing);
  }

  /** The current list's latest item normalized to `value` (never null), the last of `out`. */
  itemListed(value: unknown): void {
    const listing = this.listing as Listing;
    if (listing.pending === value) {
      listing.pending = undefined;
      if (listing.runStart !== -1) return;
      listing.runStart = listing.out.length - 1;
      if (listing.group === -1) {
        listing.group = this.packed.length;
        this.packed.push('entities-added', listing.entity, NO_PKS);
      }
      return;
    }
    this.addPending(listing);
    this.endRun(listing, listing.out.length - 1);
  }

  listEnded(): void {
    const listing = this.listing as Listing;
    this.addPending(listing);
    // Every item was new: the group is the list.
    if (listing.runStart === 0 && this.packed[listing.group + GROUP_PKS] === NO_PKS) {
      this.packed[listing.group + GROUP_PKS] = listing.out;
    } else {
      this.endRun(listing, listing.out.length);
    }
    this.listing = listing.outer;
  }

  /** The list's pending add, if any, was not its item's: it is reported on its own. */
  private addPending(listing: Listing) {
    if (listing.pending !== undefined) this.addToGroup(listing.entity, listing.pending);
    listing.pending = undefined;
  }

  /** Adds the run of new items before `end` to the list's group. */
  private endRun(listing: Listing, end: number) {
    if (listing.runStart === -1 || listing.group === -1) return;
    const run = listing.out.slice(listing.runStart, end) as string[];
    const at = listing.group + GROUP_PKS;
    const pks = this.packed[at] as string[];
    this.packed[at] = pks.length === 0 ? run : pks.concat(run);
    listing.runStart = -1;
  }

  /** A plain loop: this runs once per entity normalized, where a callback would be made each time. */
  private openGroup(type: 'entities-added' | 'entities-updated', entity: string): number {
    if (this.open === undefined) return -1;
    for (const group of this.open)
      if (this.packed[group] === type && this.packed[group + 1] === entity) return group;
    return -1;
  }

  private opened(
    type: 'entities-added' | 'entities-updated',
    entity: string,
    pk: string,
    fields?: string[],
  ) {
    this.open ??= [];
    this.open.push(this.packed.length);
    this.grown ??= [];
    this.grown.push(this.packed.length);
    if (fields === undefined) this.packed.push(type, entity, pk);
    else this.packed.push(type, entity, pk, fields);
  }

  collectionChanged(event: CollectionChanged): void {
    const { inserted } = event;
    const run = inserted.length === 1 ? (inserted[0] as InsertedRun) : undefined;
    for (const other of inserted) other.pks = this.keptOnce(other.pks);
    this.packed.push(
      'collection-changed',
      event.collection,
      event.row,
      event.kind,
      event.lengthBefore,
      event.lengthAfter,
      run === undefined ? -1 : run.index,
      run === undefined ? inserted : onePkOrMany(run.pks),
      event.duplicates,
      event.removed,
      event.members,
    );
  }

  /** Normalizing ended with `result`: the response with entities replaced by their pks. */
  normalized(result: unknown): void {
    if (Array.isArray(result)) this.keptOnce(result as string[]);
  }

  /**
   * `pks`, held once: the new entities of a page or a push are the pks its list gained, and those
   * of a list response are the response's result, which the store keeps. When a group of added
   * entities names exactly `pks`, group and list share one array, so that whoever keeps the
   * trace keeps one copy (a page of 1000 is then 8 KB kept, not 16). A group still open is
   * closed: later adds of its type start a new one, so the shared list never changes. (A list of
   * one is its pk in both.)
   */
  private keptOnce(pks: string[]): string[] {
    if (pks.length < 2) return pks;
    const packed = this.packed;
    for (let event = 0; event < packed.length; event += fieldCount(packed[event]) + 1) {
      if (packed[event] !== 'entities-added' || !sameList(packed[event + GROUP_PKS], pks)) continue;
      packed[event + GROUP_PKS] = pks;
      withoutGroup(this.open, event);
      withoutGroup(this.grown, event);
      return pks;
    }
    return pks;
  }
}

/** A list as a copy of exactly its length (a pk is kept as it is). */
function exactCopy(list: unknown): unknown {
  return Array.isArray(list) ? list.slice() : list;
}

/** `groups` without `group`, if it was there. */
function withoutGroup(groups: number[] | undefined, group: number): void {
  const at = groups?.indexOf(group) ?? -1;
  if (at !== -1) groups?.splice(at, 1);
}

/** The events of a packed trace, in the protocol's shapes. */
export function unpackTrace(packed: PackedTrace): TraceEvent[] {
  const events: TraceEvent[] = [];
  for (let at = 0; at < packed.length; at += fieldCount(packed[at]) + 1) {
    const type = packed[at] as TraceEvent['type'];
    const entity = packed[at + 1] as string;
    switch (type) {
      case 'entities-added':
        events.push({ type, entity, pks: manyPks(packed[at + GROUP_PKS]) });
        break;
      case 'entities-updated': {
        const pks = packed[at + GROUP_PKS] as OnePkOrMany;
        const fields = packed[at + GROUP_FIELDS];
        events.push(
          typeof pks === 'string'
            ? { type, entity, pks: [pks], fields: [fields as string[]] }
            : { type, entity, pks, fields: fields as string[][] },
        );
        break;
      }
      case 'entity-invalidated': {
        // Read in the order `entityInvalidated` writes them.
        const [pk, from, via] = packed.slice(at + 2, at + 5);
        events.push({
          type,
          entity,
          pk: pk as string,
          from,
          via: via as EntityInvalidated['via'],
        });
        break;
      }
      case 'collection-changed': {
        // Read in the order `collectionChanged` writes them.
        const [row, kind, lengthBefore, lengthAfter, runAt, runPks, duplicates, removed, members] =
          packed.slice(at + 2, at + 11);
        const event: CollectionChanged = {
          type,
          collection: entity,
          row: row as string,
          kind: kind as CollectionChanged['kind'],
          lengthBefore: lengthBefore as number,
          lengthAfter: lengthAfter as number,
          inserted:
            runAt === -1
              ? (runPks as InsertedRun[])
              : [{ index: runAt as number, pks: manyPks(runPks) }],
          duplicates: duplicates as string[],
          removed: removed as string[],
        };
        if (members !== undefined) event.members = members as string[];
        events.push(event);
        break;
      }
    }
  }
  return events;
}

function fieldCount(type: unknown): number {
  return FIELD_COUNT[type as TraceEvent['type']];
}

function onePkOrMany(pks: string[]): OnePkOrMany {
  return pks.length === 1 ? (pks[0] as string) : pks;
}

function manyPks(pks: unknown): string[] {
  return typeof pks === 'string' ? [pks] : (pks as string[]);
}

/** `pks` and `pk`: the list grows in place once it is one (a list of one is its pk). */
function withOneMore(pks: unknown, pk: string): OnePkOrMany {
  if (typeof pks === 'string') return [pks, pk];
  (pks as string[]).push(pk);
  return pks as string[];
}

/** The placeholder pks of a list's group until its first run is taken. */
const NO_PKS = Object.freeze([]) as unknown as string[];

/** A list of entities being normalized, as the trace follows it (see Trace.listStarted). */
class Listing {
  /** The latest add of the list's type, not yet known to be an item's or a nested entity's. */
  pending: string | undefined = undefined;
  /** Where the current run of items stored for the first time starts in `out`; -1 for none. */
  runStart = -1;
  /** Where the list's group of added entities starts in the trace, from its first new item. */
  group = -1;

  constructor(
    readonly entity: string,
    readonly out: readonly unknown[],
    readonly outer: Listing | undefined,
  ) {}
}

function sameList(a: unknown, b: readonly string[]): boolean {
  if (a === b) return true;
  if (typeof a === 'string' || (a as string[]).length !== b.length) return false;
  const list = a as string[];
  for (let index = 0; index < list.length; index++) if (list[index] !== b[index]) return false;
  return true;
}
