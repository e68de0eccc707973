import { describeValue, SchemaError } from '../schema/describe.js';
import { Entity } from '../schema/Entity.js';
import { INVALID, isInvalid } from '../schema/invalid.js';
import { OPTIMISTIC_PK_PREFIX } from '../schema/optimisticPk.js';
import { RowsByFilter } from '../schema/rowArgs.js';
import type { CollectionTable, EntityStatics, NormalizeContext } from '../schema/types.js';
import { unionRef } from '../schema/unionRef.js';
import type { ChangeRecorder, CollectionChange, FieldChange } from './changes.js';
import { collectionChangeOf } from './collectionChange.js';
import { writeIndexes } from './entityIndexes.js';
import { MemberList } from './memberList.js';
import { freezeInDevelopment, ownValue } from './ownValues.js';
import type { MapDraft } from './persistentMap.js';
import {
  type Holders,
  holdingRows,
  memberEntity,
  noteHolding,
  type RowRef,
} from './rowsHolding.js';
import { sameData } from './sameData.js';
import { schemaOf } from './schemaOf.js';
import {
  type EntityMeta,
  emptyTables,
  type NormalizedTables,
  requestedBefore,
  TablesDraft,
} from './tables.js';

/** Options of `normalize`. */
export interface NormalizeOptions {
  /** When the response was requested and received; decides which of two versions is newer. */
  meta?: EntityMeta;
  /** Receives what normalizing did (the change-set); omit it and nothing is recorded. */
  changes?: ChangeRecorder;
  /** An optimistic response: created entities may lack a pk. */
  optimistic?: boolean;
}

/** What `normalize` gives: the tables after the response, and the response in normalized form. */
export interface NormalizeResult extends NormalizedTables {
  /** The response with every entity replaced by its pk and every collection by its row. */
  result: unknown;
}

/**
 * How deep a response may nest values with schemas (an entity in an entity in …). Deeper, the
 * walk would run out of stack; real responses nest a few levels.
 */
export const MAX_NESTING = 256;

/**
 * Normalizes `input` with `schema` into new versions of `tables` (which are never changed: each
 * table written shares all it did not change with the one before). Throws a SchemaError when the
 * input does not fit the schema.
 */
export function normalize(
  schema: unknown,
  input: unknown,
  args: readonly unknown[] = [],
  tables: NormalizedTables = emptyTables(),
  options: NormalizeOptions = {},
): NormalizeResult {
  if (schemaOf(schema) === undefined)
    return { result: freezeInDevelopment(ownValue(input)), ...tables };
  if (input === undefined || input === null) {
    // An empty answer (an empty 200, a 204) where the schema expects data is an error, not a
    // stored `null` that every reader would then take for the data.
    throw new SchemaError(
      process.env.NODE_ENV !== 'production'
        ? `${describeSchema(schema)} expects data but the response was empty (${describeValue(input)})`
        : `${describeSchema(schema)}: the response was empty`,
      input,
    );
  }
  const run = new NormalizeRun(tables, args, options);
  const result = run.visit(schema, input, undefined, undefined);
  return { result: freezeInDevelopment(result), ...run.finish() };
}

/** How error messages name a schema: its table key when it has one (`Todo`, `[Todo]`). */
function describeSchema(schema: unknown): string {
  const key = (schema as { key?: unknown }).key;
  return typeof key === 'string' ? key : 'the schema';
}

class NormalizeRun implements NormalizeContext {
  /** Keeps the class's hidden class alive between writes (docs/architecture.md, "Hidden classes"). */
  static readonly spare = new NormalizeRun(emptyTables(), [], {});
  private readonly entities: TablesDraft<unknown>;
  private readonly entitiesMeta: TablesDraft<EntityMeta>;
  private readonly indexes: TablesDraft<string>;
  private readonly rowsHolding: TablesDraft<Holders>;
  private readonly rowsByFilter: MapDraft<RowsByFilter>;
  private readonly changes: ChangeRecorder | undefined;
  readonly optimistic: boolean;
  private readonly meta: EntityMeta;
  /** How deep the value being visited is nested in the response. */
  private depth = 0;
  /**
   * The entity input objects being visited, outermost first (see enterEntity). A few at most:
   * searching them costs less than remembering every input object of the response.
   */
  private readonly entered: object[] = [];
  /**
   * The entities (as union references: type and pk) this response brought but that a delete
   * stored after its request was sent keeps deleted; the lists it writes leave them out. Made at
   * the first such entity: most responses meet none.
   */
  private keptDeleted: Set<string> | undefined;
  /** How many entities of this response were given a placeholder pk. */
  private placeholders = 0;

  constructor(
    tables: NormalizedTables,
    readonly args: readonly unknown[],
    options: NormalizeOptions,
  ) {
    this.entities = new TablesDraft(tables.entities);
    // An entity type's meta and list memberships are keyed by its rows' pks: their tables share
    // the rows' index of keys, so a pk is looked up once for the three.
    const rowsOf = (table: string) => this.entities.tableOf(table);
    this.entitiesMeta = new TablesDraft(tables.entitiesMeta, rowsOf);
    this.indexes = new TablesDraft(tables.indexes);
    this.rowsHolding = new TablesDraft(tables.rowsHolding, rowsOf);
    this.rowsByFilter = tables.rowsByFilter.draft();
    this.changes = options.changes;
    this.optimistic = options.optimistic ?? false;
    const now = Date.now();
    this.meta = options.meta ?? { date: now, fetchedAt: now, expiresAt: now };
  }

  placeholderPk(): string {
    const { requestId } = this.meta;
    const count = ++this.placeholders;
    return requestId === undefined
      ? `${OPTIMISTIC_PK_PREFIX}${count}`
      : `${OPTIMISTIC_PK_PREFIX}${requestId}-${count}`;
  }

  finish(): NormalizedTables {
    return {
      entities: this.entities.finish(),
      entitiesMeta: this.entitiesMeta.finish(),
      indexes: this.indexes.finish(),
      rowsHolding: this.rowsHolding.finish(),
      rowsByFilter: this.rowsByFilter.finish(),
    };
  }

  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown {
    if (value === undefined || value === null) return value;
    const schemaClass = schemaOf(schema);
    if (!schemaClass) return ownValue(value);
    if (this.depth === MAX_NESTING) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `the response nests values deeper than ${MAX_NESTING} levels (at ${describeSchema(schema)}): it is refused, nothing of it is stored`
          : `the response nests deeper than ${MAX_NESTING} levels`,
        value,
      );
    }
    this.depth++;
    try {
      return schemaClass.normalize(value, parent, key, this);
    } finally {
      this.depth--;
    }
  }

  visitItems(
    schema: unknown,
    items: readonly unknown[],
    parent: unknown,
    key: string | undefined,
    keepNull = false,
  ): unknown[] {
    const out: unknown[] = [];
    for (const item of items) {
      if (item === null && keepNull) {
        out.push(null);
        continue;
      }
      const value = this.visit(schema, item, parent, key);
      if (value !== undefined && value !== null) out.push(value);
    }
    return out;
  }

  enterEntity(input: object): boolean {
    if (this.entered.includes(input)) return false;
    this.entered.push(input);
    return true;
  }

  leaveEntity(): void {
    this.entered.pop();
  }

  getRow(table: string, pk: string): unknown {
    return this.entities.get(table, pk);
  }

  rowKeys(table: string): readonly string[] {
    return this.entities.keys(table);
  }

  rowsMatching(collection: string, args: readonly unknown[]): readonly string[] {
    return this.rowsByFilter.get(collection)?.matching(args) ?? [];
  }

  rowsWithMember(collection: CollectionTable, member: string): readonly string[] {
    const named = memberEntity(collection, member);
    if (named === undefined) return [];
    const rows: string[] = [];
    for (const holder of holdingRows(this.rowsHolding.get(named[0], named[1])))
      if (holder.collection === collection.key) rows.push(holder.row);
    return rows;
  }

  mergeEntity(entity: EntityStatics, pk: string, row: Record<string, unknown>): void {
    const key = entity.key;
    const existing = this.entities.get(key, pk) as Record<string, unknown> | undefined;
    const storedMeta = this.entitiesMeta.get(key, pk);
    let next: Record<string, unknown>;
    if (existing === undefined || isInvalid(existing)) {
      // An answer to a request sent before the entity's delete was stored describes it as it was
      // before the delete: it does not bring the entity back. A request sent later may (the
      // server made it again).
      if (existing !== undefined && storedMeta && requestedBefore(this.meta, storedMeta)) {
        this.keptDeleted ??= new Set();
        this.keptDeleted.add(unionRef(key, pk));
        return;
      }
      next = row;
      this.changes?.entityAdded(key, pk);
    } else if (mergesByDefault(entity) && !bringsChanges(existing, row)) {
      // What the default merge makes of a row that brings nothing new is the stored row: kept as
      // it is, without building a copy of it (a refetch, an author repeated down a list).
      next = existing;
    } else {
      // By default a response older than the stored version fills gaps but never overwrites
      // newer fields; an entity class may decide otherwise (`useIncoming`, `shouldReorder`).
      next =
        storedMeta === undefined
          ? entity.merge(existing, row)
          : entity.mergeWithStore(storedMeta, this.meta, existing, row);
      const fields = changedFields(existing, next);
      if (fields.length === 0) next = existing;
      else this.changes?.entityUpdated(key, pk, fields);
    }
    if (next !== existing) {
      this.entities.set(key, pk, freezeInDevelopment(next));
      if (entity.indexes) writeIndexes(this.indexes, entity, pk, next, existing);
    }
    const meta =
      storedMeta === undefined
        ? this.meta
        : entity.mergeMetaWithStore(storedMeta, this.meta, existing ?? {}, row);
    if (meta !== storedMeta) this.entitiesMeta.set(key, pk, meta);
  }

  invalidate(entity: EntityStatics, pk: string, input: unknown): void {
    const key = entity.key;
    const last = this.entities.get(key, pk);
    this.changes?.entityInvalidated(key, {
      pk,
      from: input,
      // `delete` falls back to its URL params (the very object passed in) when the answer is empty.
      via: input === this.args[0] ? 'url-params' : 'response',
      last: isInvalid(last) ? undefined : last,
    });
    this.entities.set(key, pk, INVALID);
    this.entitiesMeta.set(key, pk, deletedMeta(this.meta));
    for (const holder of holdingRows(this.rowsHolding.get(key, pk))) {
      const member = holder.union ? unionRef(key, pk) : pk;
      const members = this.entities.get(holder.collection, holder.row) as MemberList | undefined;
      if (!members?.has(member)) continue;
      const table = { key: holder.collection, entity: holder.union ? undefined : key };
      this.writeCollectionRow(table, holder.row, members.remove(member), 'invalidate', [member]);
    }
  }

  writeCollectionRow(
    table: CollectionTable,
    rowPk: string,
    members: MemberList,
    kind: CollectionChange['kind'],
    incoming: readonly string[],
  ): void {
    if (this.keptDeleted !== undefined && kind !== 'invalidate') {
      const deleted = this.keptDeleted;
      const kept = (member: string) =>
        !deleted.has(table.entity === undefined ? member : unionRef(table.entity, member));
      members = MemberList.from(members.toArray().filter(kept));
      incoming = incoming.filter(kept);
    }
    const collectionKey = table.key;
    const before = this.entities.get(collectionKey, rowPk) as MemberList | undefined;
    // Rows carry meta like entities do, so that a list fetched by an older request than the one
    // the row holds never replaces it (whichever endpoint stored it). Adds still apply.
    const storedMeta = this.entitiesMeta.get(collectionKey, rowPk);
    const newer = storedMeta === undefined || !requestedBefore(this.meta, storedMeta);
    if (kind === 'replace' && before !== undefined && !newer) return;
    if (kind !== 'invalidate' && newer) this.entitiesMeta.set(collectionKey, rowPk, this.meta);
    // An unchanged list keeps its row, so reads of it keep their identity. A refetch that changed
    // nothing is not news; an add that only met duplicates is.
    if (before !== undefined && (members === before || sameMembers(before, members))) {
      if (this.changes && kind !== 'replace')
        this.changes.collectionChanged(
          collectionChangeOf(collectionKey, rowPk, kind, before, members, incoming),
        );
      return;
    }
    const change = collectionChangeOf(collectionKey, rowPk, kind, before, members, incoming);
    this.entities.set(collectionKey, rowPk, members);
    if (before === undefined) {
      const rows = this.rowsByFilter.get(collectionKey) ?? RowsByFilter.empty;
      this.rowsByFilter.set(collectionKey, rows.with(rowPk));
    }
    const row: RowRef = {
      collection: collectionKey,
      row: rowPk,
      union: table.entity === undefined,
    };
    for (const run of change.inserted)
      for (const member of run.pks) noteHolding(this.rowsHolding, table, member, row, true);
    for (const member of change.removed) noteHolding(this.rowsHolding, table, member, row, false);
    this.changes?.collectionChanged(change);
  }
}

/**
 * The meta of the rows a response deletes: a delete is as new as the moment it is stored, not
 * as the request that asked for it (see EntityMeta.sequence).
 */
function deletedMeta(meta: EntityMeta): EntityMeta {
  return { ...meta, fetchedAt: meta.date, requestId: meta.sequence };
}

function sameMembers(a: MemberList, b: MemberList): boolean {
  if (a.length !== b.length) return false;
  const other = b[Symbol.iterator]();
  for (const member of a) if (other.next().value !== member) return false;
  return true;
}

/** Whether an entity class merges rows by Entity's own rules (none of them overridden). */
function mergesByDefault(entity: EntityStatics): boolean {
  return (
    entity.merge === Entity.merge &&
    entity.mergeWithStore === Entity.mergeWithStore &&
    entity.useIncoming === Entity.useIncoming &&
    entity.shouldReorder === Entity.shouldReorder
  );
}

/** Whether `incoming` holds a field the stored row lacks or holds other data in. */
function bringsChanges(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
  for (const field in incoming) {
    if (!Object.hasOwn(incoming, field)) continue;
    if (!Object.hasOwn(existing, field) || !sameData(existing[field], incoming[field])) return true;
  }
  return false;
}

function changedFields(
  existing: Record<string, unknown>,
  next: Record<string, unknown>,
): FieldChange[] {
  const changed: FieldChange[] = [];
  for (const field of Object.keys(next)) {
    // Own values only: a row's `__proto__` field is data, and a missing one is not the prototype.
    const before = Object.hasOwn(existing, field) ? existing[field] : undefined;
    if (!sameData(before, next[field])) changed.push({ field, before, after: next[field] });
  }
  return changed;
}
