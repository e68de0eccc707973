/**
 * What the normalizer reports while it works, in the user's terms. The shapes are those of the
 * devtools protocol's effects, so the devtools pass them on as they are.
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

/**
 * Collects what normalizing did, in order. Entities are grouped per type (a response of 500
 * todos is one `entities-added` with 500 pks, not 500 objects), because whoever keeps traces
 * (the devtools' ring of recent events) then keeps a few arrays per change, which the garbage
 * collector barely notices. Rows are not kept: the store holds them.
 */
export class Trace {
  readonly events: TraceEvent[] = [];
  /**
   * The groups still open to more pks. A response holds a few entity types, so a short list
   * searched by identity of the (interned) type name beats a Map, which every traced change
   * would allocate; it is made at the first entity.
   */
  private open: (EntitiesAdded | EntitiesUpdated)[] | undefined;
  /** The innermost list of entities being normalized (see listStarted). */
  private listing: Listing | undefined;

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

  // A group starts as a list of one (`[pk]`, not `[]` then a push, which would reserve room for
  // 17): most changes touch one entity of a type, and traces may be kept for a while.
  private addToGroup(entity: string, pk: string): void {
    const group = this.openGroup('entities-added', entity) as EntitiesAdded | undefined;
    if (group) group.pks.push(pk);
    else this.opened({ type: 'entities-added', entity, pks: [pk] });
  }

  entityUpdated(entity: string, pk: string, fields: string[]): void {
    const group = this.openGroup('entities-updated', entity) as EntitiesUpdated | undefined;
    if (group) {
      group.pks.push(pk);
      group.fields.push(fields);
    } else {
      this.opened({ type: 'entities-updated', entity, pks: [pk], fields: [fields] });
    }
  }

  entityInvalidated(event: Omit<EntityInvalidated, 'type'>): void {
    // Adds of this type before the invalidation are reported before it.
    for (let listing = this.listing; listing !== undefined; listing = listing.outer) {
      if (listing.entity !== event.entity) continue;
      this.addPending(listing);
      this.endRun(listing, listing.out.length);
      listing.group = undefined;
    }
    this.events.push({ type: 'entity-invalidated', ...event });
    // Later adds and updates of this type go after the invalidation, so that applying the
    // events in order ends where the store did (an entity deleted, then stored again).
    this.open = this.open?.filter((group) => group.entity !== event.entity);
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
      if (listing.group === undefined) {
        listing.group = { type: 'entities-added', entity: listing.entity, pks: NO_PKS };
        this.events.push(listing.group);
      }
      return;
    }
    this.addPending(listing);
    this.endRun(listing, listing.out.length - 1);
  }

  listEnded(): void {
    const listing = this.listing as Listing;
    this.addPending(listing);
    if (listing.runStart === 0 && listing.group?.pks.length === 0) {
      listing.group.pks = listing.out as string[];
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
    const group = listing.group;
    if (listing.runStart === -1 || group === undefined) return;
    const run = listing.out.slice(listing.runStart, end) as string[];
    group.pks = group.pks.length === 0 ? run : group.pks.concat(run);
    listing.runStart = -1;
  }

  /** A plain loop: this runs once per entity normalized, where a callback would be made each time. */
  private openGroup(type: TraceEvent['type'], entity: string) {
    if (this.open === undefined) return undefined;
    for (const group of this.open) if (group.type === type && group.entity === entity) return group;
    return undefined;
  }

  private opened(group: EntitiesAdded | EntitiesUpdated) {
    this.open ??= [];
    this.open.push(group);
    this.events.push(group);
  }

  collectionChanged(event: CollectionChanged): void {
    for (const run of event.inserted) run.pks = this.keptOnce(run.pks);
    this.events.push(event);
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
   * closed: later adds of its type start a new one, so the shared list never changes.
   */
  private keptOnce(pks: string[]): string[] {
    if (pks.length === 0) return pks;
    for (const event of this.events) {
      if (event.type !== 'entities-added' || !sameList(event.pks, pks)) continue;
      event.pks = pks;
      const open = this.open?.indexOf(event) ?? -1;
      if (open !== -1) this.open?.splice(open, 1);
      return pks;
    }
    return pks;
  }
}

/** The placeholder pks of a list's group until its first run is taken. */
const NO_PKS = Object.freeze([]) as unknown as string[];

/** A list of entities being normalized, as the trace follows it (see Trace.listStarted). */
class Listing {
  /** The latest add of the list's type, not yet known to be an item's or a nested entity's. */
  pending: string | undefined = undefined;
  /** Where the current run of items stored for the first time starts in `out`; -1 for none. */
  runStart = -1;
  /** The list's group of added entities, made at its first new item. */
  group: EntitiesAdded | undefined = undefined;

  constructor(
    readonly entity: string,
    readonly out: readonly unknown[],
    readonly outer: Listing | undefined,
  ) {}
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
