import { schemaOf } from '../../normalize/schemaOf.js';
import type { Table } from '../../normalize/tables.js';
import type { DenormalizeContext, EntityStatics } from '../../schema/types.js';

/** What points at rows and tables: a stored result (by its key), or an entity's row. */
export type Referrer = { kind: 'result'; key: string } | { kind: 'row'; table: string; pk: string };

/** What a referrer points at: a row (an entity's, or a collection's), or a whole table (no pk). */
export interface Target {
  table: string;
  pk?: string;
}

/** A referrer and what it points at now. */
interface Pointing {
  referrer: Referrer;
  targets: readonly Target[];
}

/**
 * What points at what in a store, as the devtools need it to say which results a delete reached:
 * each stored result's direct references (entity rows, collection rows, whole tables) and each
 * entity row's (through the fields its class gives schemas). It is kept in both directions, so
 * that the referrers of a row are one lookup by its table and pk: the very strings of the store
 * and its change-sets, never text made from them. Each referrer is one object for as long as it
 * is indexed, so a walk can tell the ones it met by identity.
 */
export class ReferenceIndex {
  private readonly byResult = new Map<string, Pointing>();
  private readonly byRow = new Map<string, Map<string, Pointing>>();
  /** Who points at each row, by table then pk, and at each whole table. */
  private readonly rowReferrers = new Map<string, Map<string, Set<Referrer>>>();
  private readonly tableReferrers = new Map<string, Set<Referrer>>();

  /** Sets what the result of `key` points at, in place of what it pointed at before. */
  setResult(key: string, targets: readonly Target[]): void {
    const pointing = this.byResult.get(key);
    if (pointing === undefined && targets.length === 0) return;
    const referrer = pointing?.referrer ?? { kind: 'result', key };
    if (this.retarget(pointing, referrer, targets)) this.byResult.set(key, { referrer, targets });
    else this.byResult.delete(key);
  }

  deleteResult(key: string): void {
    this.setResult(key, NO_TARGETS);
  }

  /** Sets what the entity row `pk` of `table` points at, in place of what it did before. */
  setRow(table: string, pk: string, targets: readonly Target[]): void {
    const rows = this.byRow.get(table);
    const pointing = rows?.get(pk);
    if (pointing === undefined && targets.length === 0) return;
    const referrer = pointing?.referrer ?? { kind: 'row', table, pk };
    if (this.retarget(pointing, referrer, targets))
      mapIn(this.byRow, table).set(pk, { referrer, targets });
    else rows?.delete(pk);
  }

  deleteRow(table: string, pk: string): void {
    this.setRow(table, pk, NO_TARGETS);
  }

  clear(): void {
    this.byResult.clear();
    this.byRow.clear();
    this.rowReferrers.clear();
    this.tableReferrers.clear();
  }

  /** What points at the row `pk` of `table`. */
  referrersOfRow(table: string, pk: string): ReadonlySet<Referrer> {
    return this.rowReferrers.get(table)?.get(pk) ?? NONE;
  }

  /** What points at the whole of `table` (`schema.All`). */
  referrersOfTable(table: string): ReadonlySet<Referrer> {
    return this.tableReferrers.get(table) ?? NONE;
  }

  /**
   * Moves `referrer` from the referrers of what it pointed at to those of `targets`; returns
   * whether it points at anything now.
   */
  private retarget(
    pointing: Pointing | undefined,
    referrer: Referrer,
    targets: readonly Target[],
  ): boolean {
    // A row written again usually points where it did (a refetch, a deleted entity restored).
    if (pointing !== undefined && sameTargets(pointing.targets, targets)) return true;
    for (const target of pointing?.targets ?? NO_TARGETS) {
      const referrers = this.referrersAt(target);
      referrers.delete(referrer);
      if (referrers.size === 0) this.forget(target);
    }
    for (const target of targets) this.referrersAt(target).add(referrer);
    return targets.length > 0;
  }

  /** The referrers of a target, made empty when it has none yet. */
  private referrersAt({ table, pk }: Target): Set<Referrer> {
    const [map, key] =
      pk === undefined ? [this.tableReferrers, table] : [mapIn(this.rowReferrers, table), pk];
    let referrers = map.get(key);
    if (referrers === undefined) {
      referrers = new Set();
      map.set(key, referrers);
    }
    return referrers;
  }

  private forget({ table, pk }: Target): void {
    if (pk === undefined) this.tableReferrers.delete(table);
    else this.rowReferrers.get(table)?.delete(pk);
  }
}

const NONE: ReadonlySet<Referrer> = new Set();
const NO_TARGETS: readonly Target[] = [];

function mapIn<V>(maps: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = maps.get(key);
  if (map === undefined) {
    map = new Map();
    maps.set(key, map);
  }
  return map;
}

function sameTargets(before: readonly Target[], after: readonly Target[]): boolean {
  return (
    before.length === after.length &&
    before.every(({ table, pk }, index) => table === after[index]?.table && pk === after[index]?.pk)
  );
}

/**
 * What a normalized value points at directly, as its schema reads it: the schema's own
 * denormalize walks the value, and this context notes each row or table it would read instead
 * of building anything (so a list's members are not entered, nor an entity's fields).
 */
export function referencesOf(schema: unknown, value: unknown, args: readonly unknown[]): Target[] {
  const collector = new ReferenceCollector(args);
  collector.unvisit(schema, value);
  return collector.nodes;
}

/** What an entity row points at through the fields its class gives schemas. */
export function rowReferencesOf(entity: EntityStatics, row: Record<string, unknown>): Target[] {
  const collector = new ReferenceCollector([]);
  for (const field of Object.keys(entity.schema)) {
    if (Object.hasOwn(row, field)) collector.unvisit(entity.schema[field], row[field]);
  }
  return collector.nodes;
}

class ReferenceCollector implements DenormalizeContext {
  readonly nodes: Target[] = [];

  constructor(readonly args: readonly unknown[]) {}

  unvisit(schema: unknown, input: unknown): unknown {
    if (input === undefined || input === null) return input;
    return schemaOf(schema)?.denormalize(input, this) ?? input;
  }

  unvisitItems(schema: unknown, items: Iterable<unknown>): unknown[] {
    for (const item of items) this.unvisit(schema, item);
    return [];
  }

  readRow(table: string, pk: string): undefined {
    this.nodes.push({ table, pk });
    return undefined;
  }

  readList(table: string, pk: string): undefined {
    return this.readRow(table, pk);
  }

  readTable(table: string): Table | undefined {
    this.nodes.push({ table });
    return undefined;
  }

  entity(entity: EntityStatics, pk: string): undefined {
    this.nodes.push({ table: entity.key, pk });
    return undefined;
  }

  /** An entity held as an object points at what its fields point at. */
  entityFromObject(entity: EntityStatics, object: Record<string, unknown>): object {
    for (const field in entity.schema)
      if (Object.hasOwn(object, field)) this.unvisit(entity.schema[field], object[field]);
    return object;
  }
}
