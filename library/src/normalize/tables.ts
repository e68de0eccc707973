import type { RowsByFilter } from '../schema/rowArgs.js';
import { MapDraft, PersistentMap } from './persistentMap.js';
import type { Holders } from './rowsHolding.js';

/** One table: rows by pk (or collection rows by their serialized arguments). */
export type Table<V = unknown> = PersistentMap<V>;

/** Tables by key: the entity key (`Todo`) or the collection key (`[Todo]`). */
export type Tables<V = unknown> = PersistentMap<Table<V>>;

/** When a row was written, and until when it is fresh. */
export interface EntityMeta {
  date: number;
  fetchedAt: number;
  expiresAt: number;
  /**
   * The request's number in its store's sequence (see `Controller`): unique to the request, and
   * larger for a request started later, in the same millisecond too. Absent for a response
   * written outside that sequence (`controller.resolve` given its own `fetchedAt`, `normalize`).
   */
  requestId?: number;
  /**
   * The write's number in the same sequence, drawn when it was stored. A delete's row carries it
   * as its `requestId` (and its `date` as `fetchedAt`): the answer to a request sent before the
   * delete was stored is older than the delete.
   */
  sequence?: number;
}

/**
 * Whether the request behind `incoming` started before the one behind `stored`: by their places
 * in the store's sequence when both have one, by the clock otherwise.
 */
export function requestedBefore(incoming: EntityMeta, stored: EntityMeta): boolean {
  return incoming.requestId !== undefined && stored.requestId !== undefined
    ? incoming.requestId < stored.requestId
    : incoming.fetchedAt < stored.fetchedAt;
}

/** The store's tables: entity and collection rows, their meta, and the indexes kept with them. */
export interface NormalizedTables {
  /**
   * Entity rows by entity key, then pk (`INVALID` for one a delete removed); collection rows
   * (`MemberList`s) by collection key, then their serialized filtering arguments.
   */
  entities: Tables;
  /** When each row was written, by the same keys. */
  entitiesMeta: Tables<EntityMeta>;
  /** Pks by the value of an indexed field (`static indexes`): entity key, then `indexKey`. */
  indexes: Tables<string>;
  /**
   * The collection rows holding each entity, by entity key then pk: a delete removes the entity
   * from exactly these rows.
   */
  rowsHolding: Tables<Holders>;
  /** Each collection's rows by their filtering arguments, by collection key: what an add reaches. */
  rowsByFilter: PersistentMap<RowsByFilter>;
}

/** Tables holding nothing: where a store starts. */
export function emptyTables(): NormalizedTables {
  return {
    entities: PersistentMap.empty(),
    entitiesMeta: PersistentMap.empty(),
    indexes: PersistentMap.empty(),
    rowsHolding: PersistentMap.empty(),
    rowsByFilter: PersistentMap.empty(),
  };
}

/** The key of an indexed field's value in its entity's index table. */
export function indexKey(field: string, value: unknown): string {
  return JSON.stringify([field, String(value)]);
}

/**
 * Writes to a set of tables in one batch: each table written gets a draft of its own (see
 * PersistentMap), and `finish()` puts the finished tables into a new set. Reads see the writes
 * made so far.
 */
export class TablesDraft<V> {
  /** Keeps the class's hidden class alive between writes (docs/architecture.md, "Hidden classes"). */
  static readonly spare = new TablesDraft(PersistentMap.empty());
  /**
   * Each table used so far as it stands now: its draft once written, else the table it started
   * from (a table a response only reads, a refetch that changes no row, is looked up in the base
   * once, not once per row).
   */
  private readonly current = new Map<string, MapDraft<V> | PersistentMap<V>>();
  /** Whether a table was written: `finish()` then makes a new set of tables. */
  private written = false;

  constructor(
    private readonly base: Tables<V>,
    /**
     * For a table this draft starts: the table whose index of keys it shares (see
     * `PersistentMap.empty`), e.g. an entity type's meta shares its rows' pks.
     */
    private readonly siblingOf?: (
      table: string,
    ) => PersistentMap<unknown> | MapDraft<unknown> | undefined,
  ) {}

  get(table: string, key: string): V | undefined {
    return this.tableOf(table)?.get(key);
  }

  set(table: string, key: string, value: V | undefined): void {
    this.draftOf(table).set(key, value);
  }

  private draftOf(table: string): MapDraft<V> {
    const rows = this.tableOf(table);
    if (rows instanceof MapDraft) return rows;
    const draft = (rows ?? PersistentMap.empty<V>(this.siblingOf?.(table))).draft();
    this.current.set(table, draft);
    this.written = true;
    return draft;
  }

  /** A table as it stands now: its draft, once written, or the table it started from. */
  tableOf(table: string): MapDraft<V> | PersistentMap<V> | undefined {
    let rows = this.current.get(table);
    if (rows === undefined) {
      rows = this.base.get(table);
      if (rows !== undefined) this.current.set(table, rows);
    }
    return rows;
  }

  /** The keys a table holds now (a list: writes made while going through it are safe). */
  keys(table: string): string[] {
    return [...(this.tableOf(table)?.keys() ?? [])];
  }

  finish(): Tables<V> {
    if (!this.written) return this.base;
    return this.base.withMutations((tables) => {
      for (const [table, rows] of this.current)
        if (rows instanceof MapDraft) tables.set(table, rows.finish());
    });
  }
}
