import { collectionsHolding } from '../schema/Collection.js';
import { describeValue, SchemaError } from '../schema/describe.js';
import { INVALID, isInvalid } from '../schema/invalid.js';
import { type EntityStatics, isEntity, type NormalizeContext } from '../schema/types.js';
import { schemaOf } from './schemaOf.js';
import type { CollectionChanged, InsertedRun, Trace } from './trace.js';

export type Table = Record<string, unknown>;
export type Tables = Record<string, Table>;
export interface EntityMeta {
  date: number;
  fetchedAt: number;
  expiresAt: number;
}
export type Indexes = Record<string, Record<string, Record<string, string>>>;

/** The parts of the store the normalizer reads and writes. */
export interface NormalizedTables {
  entities: Readonly<Tables>;
  entitiesMeta: Readonly<Record<string, Record<string, EntityMeta>>>;
  indexes: Readonly<Indexes>;
}

export interface NormalizeOptions {
  /** When the response was requested and received; decides which of two versions is newer. */
  meta?: EntityMeta;
  /** Receives what the normalizer did; omit it and nothing is recorded. */
  trace?: Trace;
  /** An optimistic response: created entities may lack a pk. */
  optimistic?: boolean;
  /**
   * Store what `schema.Invalidate` names as a row (its input) instead of marking it INVALID:
   * reading a delete's answer on its own (see readResponse).
   */
  invalidatedAsRows?: boolean;
}

export interface NormalizeResult extends NormalizedTables {
  /** The response with every entity replaced by its pk and every collection by its row. */
  result: unknown;
}

const EMPTY: NormalizedTables = { entities: {}, entitiesMeta: {}, indexes: {} };

/**
 * Normalizes `input` with `schema` into copies of `tables` (copy on first write per table, so the
 * inputs are never changed). Throws a SchemaError when the input does not fit the schema.
 */
export function normalize(
  schema: unknown,
  input: unknown,
  args: readonly unknown[] = [],
  tables: NormalizedTables = EMPTY,
  options: NormalizeOptions = {},
): NormalizeResult {
  if (schemaOf(schema) === undefined) return { result: input, ...tables };
  if (input === undefined || input === null) {
    // An empty answer (an empty 200, a 204) where the schema expects data is an error, not a
    // stored `null` that every reader would then take for the data.
    throw new SchemaError(
      `${describeSchema(schema)} expects data but the response was empty (${describeValue(input)})`,
      input,
    );
  }
  const run = new NormalizeRun(tables, args, options);
  const result = run.visit(schema, input, undefined, undefined);
  options.trace?.normalized(result);
  return { result, entities: run.entities, entitiesMeta: run.entitiesMeta, indexes: run.indexes };
}

/**
 * How deep a response may nest values with schemas (an entity in an entity in …). Deeper, the
 * walk would run out of stack; real responses nest a few levels.
 */
export const MAX_NESTING = 256;

/** How error messages name a schema: its table key when it has one (`Todo`, `[Todo]`). */
function describeSchema(schema: unknown): string {
  const key = (schema as { key?: unknown }).key;
  return typeof key === 'string' ? key : 'the schema';
}

class NormalizeRun implements NormalizeContext {
  entities: Tables;
  entitiesMeta: Record<string, Record<string, EntityMeta>>;
  indexes: Indexes;
  private readonly trace: Trace | undefined;
  readonly optimistic: boolean;
  private readonly invalidatedAsRows: boolean;
  private readonly meta: EntityMeta;
  /** How deep the value being visited is nested in the response. */
  private depth = 0;
  private readonly copied = new Set<string>();
  private readonly copiedMeta = new Set<string>();

  constructor(
    private readonly original: NormalizedTables,
    readonly args: readonly unknown[],
    options: NormalizeOptions,
  ) {
    this.entities = original.entities as Tables;
    this.entitiesMeta = original.entitiesMeta as Record<string, Record<string, EntityMeta>>;
    this.indexes = original.indexes as Indexes;
    this.trace = options.trace;
    this.optimistic = options.optimistic ?? false;
    this.invalidatedAsRows = options.invalidatedAsRows ?? false;
    const now = Date.now();
    this.meta = options.meta ?? { date: now, fetchedAt: now, expiresAt: now };
  }

  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown {
    if (value === undefined || value === null) return value;
    const schemaClass = schemaOf(schema);
    if (!schemaClass) return value;
    if (this.depth === MAX_NESTING) {
      throw new SchemaError(
        `the response nests values deeper than ${MAX_NESTING} levels (at ${describeSchema(schema)}): it is refused, nothing of it is stored`,
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

  visitItems(schema: unknown, items: readonly unknown[], key: string | undefined): unknown[] {
    const out: unknown[] = [];
    // A list of entities tells the trace which items it stored for the first time, so that the
    // list itself can name them (see Trace.listStarted). A list of one (a push) gains nothing.
    let trace: Trace | undefined;
    if (this.trace !== undefined && items.length > 1 && isEntity(schema)) {
      trace = this.trace;
      trace.listStarted(schema.key, out);
    }
    for (const item of items) {
      const value = this.visit(schema, item, items, key);
      if (value === undefined || value === null) continue;
      out.push(value);
      trace?.itemListed(value);
    }
    trace?.listEnded();
    return out;
  }

  getTable(key: string): Table | undefined {
    return this.entities[key];
  }

  /**
   * The table to write `pk` into: copied from the original the first time this run writes it
   * (the pk tells how the table is keyed, see copyTable).
   */
  private writable(key: string, pk: string): Table {
    if (!this.copied.has(key)) {
      if (this.entities === this.original.entities) this.entities = { ...this.entities };
      this.entities[key] = copyTable(this.original.entities[key], pk);
      this.copied.add(key);
    }
    return this.entities[key] as Table;
  }

  private writableMeta(key: string, pk: string): Record<string, EntityMeta> {
    if (!this.copiedMeta.has(key)) {
      if (this.entitiesMeta === this.original.entitiesMeta)
        this.entitiesMeta = { ...this.entitiesMeta };
      this.entitiesMeta[key] = copyTable(this.original.entitiesMeta[key], pk) as Record<
        string,
        EntityMeta
      >;
      this.copiedMeta.add(key);
    }
    return this.entitiesMeta[key] as Record<string, EntityMeta>;
  }

  mergeEntity(entity: EntityStatics, pk: string, row: Record<string, unknown>): void {
    const key = entity.key;
    const existing = this.entities[key]?.[pk] as Record<string, unknown> | undefined;
    const storedMeta = this.entitiesMeta[key]?.[pk];
    let next: Record<string, unknown>;
    let changed: string[] | undefined;
    if (existing === undefined || isInvalid(existing)) {
      next = row;
      this.trace?.entityAdded(key, pk);
    } else {
      // A response older than the stored version fills gaps but never overwrites newer fields.
      const older = storedMeta !== undefined && storedMeta.fetchedAt > this.meta.fetchedAt;
      next = older ? entity.merge(row, existing) : entity.merge(existing, row);
      changed = changedFields(existing, next);
      if (changed.length === 0) next = existing;
      else this.trace?.entityUpdated(key, pk, changed);
    }
    if (next !== existing) {
      this.writable(key, pk)[pk] = next;
      if (entity.indexes) this.index(entity, pk, next);
    }
    if (storedMeta === undefined || storedMeta.fetchedAt <= this.meta.fetchedAt) {
      this.writableMeta(key, pk)[pk] = this.meta;
    }
  }

  private index(entity: EntityStatics, pk: string, row: Record<string, unknown>) {
    if (this.indexes === this.original.indexes) this.indexes = { ...this.indexes };
    const byField = { ...this.indexes[entity.key] };
    for (const field of entity.indexes ?? []) {
      const value = row[field];
      if (value === undefined || value === null) continue;
      byField[field] = { ...byField[field], [String(value)]: pk };
    }
    this.indexes[entity.key] = byField;
  }

  invalidate(entity: EntityStatics, pk: string, input: unknown): void {
    if (this.invalidatedAsRows) {
      if (typeof input === 'object' && input !== null)
        this.mergeEntity(entity, pk, entity.process(input as Record<string, unknown>));
      return;
    }
    const key = entity.key;
    this.writable(key, pk)[pk] = INVALID;
    this.writableMeta(key, pk)[pk] = this.meta;
    this.trace?.entityInvalidated({
      entity: key,
      pk,
      from: input,
      // `delete` falls back to its URL params (the very object passed in) when the answer is empty.
      via: input === this.args[0] ? 'url-params' : 'response',
    });
    for (const [collectionKey, memberOf] of collectionsHolding(key) ?? []) {
      const table = this.entities[collectionKey];
      if (!table) continue;
      const member = memberOf(key, pk);
      for (const rowPk of Object.keys(table)) {
        const members = table[rowPk] as string[];
        const at = members.indexOf(member);
        if (at === -1) continue;
        this.writeCollectionRow(collectionKey, rowPk, without(members, member, at), 'invalidate', [
          member,
        ]);
      }
    }
  }

  writeCollectionRow(
    collectionKey: string,
    rowPk: string,
    members: readonly string[],
    kind: CollectionChanged['kind'],
    incoming: readonly string[],
  ): void {
    const before = this.entities[collectionKey]?.[rowPk] as readonly string[] | undefined;
    // Rows carry meta like entities do, so that a list fetched by an older request than the one
    // the row holds never replaces it (whichever endpoint stored it). Adds still apply.
    const storedMeta = this.entitiesMeta[collectionKey]?.[rowPk];
    const newer = storedMeta === undefined || storedMeta.fetchedAt <= this.meta.fetchedAt;
    if (kind === 'replace' && before !== undefined && !newer) return;
    // An unchanged list keeps its row, so reads of it keep their identity.
    const unchanged = before !== undefined && sameMembers(before, members);
    if (!unchanged) this.writable(collectionKey, rowPk)[rowPk] = members;
    if (kind !== 'invalidate' && newer) this.writableMeta(collectionKey, rowPk)[rowPk] = this.meta;
    // A refetch that changed nothing is not news; an add that only met duplicates is.
    if (this.trace && !(unchanged && kind === 'replace'))
      this.trace.collectionChanged(
        describeCollectionChange(collectionKey, rowPk, kind, before ?? [], members, incoming),
      );
  }
}

/** `members` without `pk`, which first occurs at `at`. */
function without(members: readonly string[], pk: string, at: number): string[] {
  // Rows hold each pk once, so two slices usually do it; the filter covers a repeat.
  return members.indexOf(pk, at + 1) === -1
    ? members.slice(0, at).concat(members.slice(at + 1))
    : members.filter((member) => member !== pk);
}

/**
 * A copy of `table`, about to receive a row under `pk`. Tables keyed by numeric pks are copied at
 * a spread of their own, because V8 copies `{ ...table }` of a 10k-row table in ~0.03 ms only at a
 * spread that has seen few object shapes, and in ~2 ms (row by row) at one that has seen many.
 * Numeric pks live in the object's elements, and all such tables share one shape; tables keyed by
 * other strings (collections, text pks) have a shape per set of keys and would make it many.
 */
function copyTable(table: Readonly<Table> | undefined, pk: string): Table {
  if (table === undefined) return {};
  return isArrayIndex(pk) ? copyTableOfIndexes(table) : copyTableOfNames(table);
}

function copyTableOfIndexes(table: Readonly<Table>): Table {
  return { ...table };
}

function copyTableOfNames(table: Readonly<Table>): Table {
  return { ...table };
}

/** Whether V8 keeps `key` in an object's elements: a canonical integer below 2³² − 1. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((member, index) => member === b[index]);
}

function changedFields(existing: Record<string, unknown>, next: Record<string, unknown>): string[] {
  const changed: string[] = [];
  for (const field of Object.keys(next)) {
    if (!Object.is(existing[field], next[field])) changed.push(field);
  }
  return changed;
}

/**
 * The empty list of a trace event. Traces are only read once made, and whoever keeps them (the
 * devtools' ring) then keeps one shared empty list, not two fresh ones per change.
 */
const NONE = Object.freeze([]) as unknown as string[];
const NO_RUNS = Object.freeze([]) as unknown as InsertedRun[];

/** `incoming`: the pks the change is about (those added; for an invalidation, the one removed). */
function describeCollectionChange(
  key: string,
  pk: string,
  kind: CollectionChanged['kind'],
  before: readonly string[],
  after: readonly string[],
  incoming: readonly string[],
): CollectionChanged {
  // An invalidation removes just the pk it names (rows hold each pk once): no need to compare
  // a long row from both ends to find it.
  const { inserted, removed } =
    kind === 'invalidate'
      ? { inserted: NO_RUNS, removed: incoming.slice() }
      : diffMembers(before, after, kind);
  const change: CollectionChanged = {
    type: 'collection-changed',
    collection: key,
    row: pk,
    kind,
    lengthBefore: before.length,
    lengthAfter: after.length,
    inserted,
    duplicates: kind === 'invalidate' ? NONE : duplicatesOf(incoming, inserted, kind),
    removed,
  };
  if (kind === 'replace') change.members = after as string[];
  return change;
}

/**
 * The incoming pks that added nothing: repeated within the input, or (for adds) already a
 * member.
 */
function duplicatesOf(
  incoming: readonly string[],
  inserted: readonly InsertedRun[],
  kind: CollectionChanged['kind'],
): string[] {
  if (kind !== 'replace') {
    const walked = duplicatesByWalk(incoming, inserted);
    if (walked) return walked;
  }
  const insertedSet = new Set(inserted.flatMap((run) => run.pks));
  const duplicates: string[] = [];
  const seen = new Set<string>();
  for (const member of incoming) {
    if (seen.has(member) || (kind !== 'replace' && !insertedSet.has(member)))
      duplicates.push(member);
    seen.add(member);
  }
  return duplicates;
}

/**
 * The built-in adds insert the new pks in the order they came, as one run: walking both lists
 * side by side finds the duplicates without hashing a page. Undefined when the insert did not
 * keep that order (a custom merge): then sets decide.
 */
function duplicatesByWalk(
  incoming: readonly string[],
  inserted: readonly InsertedRun[],
): string[] | undefined {
  if (inserted.length > 1) return undefined;
  const pks = inserted[0]?.pks ?? NONE;
  let duplicates: string[] | undefined;
  let next = 0;
  for (const member of incoming) {
    if (member === pks[next]) next++;
    else if (duplicates) duplicates.push(member);
    else duplicates = [member];
  }
  return next === pks.length ? (duplicates ?? NONE) : undefined;
}

/**
 * Which pks a row gained (with their new index) and lost. The built-in adds only append (push,
 * page merge) or prepend (unshift) to what was there, so their change is read off one end in
 * O(added). Other changes touch one stretch of the list: comparing from both ends finds it with
 * cheap identity checks, without hashing the members.
 */
function diffMembers(
  before: readonly string[],
  after: readonly string[],
  kind: CollectionChanged['kind'],
) {
  const added = after.length - before.length;
  if (added >= 0 && (kind === 'push' || kind === 'page-merge' || kind === 'unshift')) {
    const start = kind === 'unshift' ? 0 : before.length;
    return { inserted: runs(after.slice(start, start + added), start), removed: NONE };
  }
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const lost = before.slice(head, before.length - tail);
  const gained = after.slice(head, after.length - tail);
  if (lost.length === 0 || gained.length === 0)
    return { inserted: runs(gained, head), removed: lost };
  // Both gained and lost in one stretch (a replaced list): compare as sets.
  const beforeSet = new Set(lost);
  const afterSet = new Set(gained);
  const inserted: InsertedRun[] = [];
  let run: InsertedRun | undefined;
  for (const [offset, member] of gained.entries()) {
    if (beforeSet.has(member)) {
      run = undefined;
    } else if (run) {
      run.pks.push(member);
    } else {
      run = { index: head + offset, pks: [member] };
      inserted.push(run);
    }
  }
  return { inserted, removed: lost.filter((member) => !afterSet.has(member)) };
}

/** `pks`, inserted together at `index`, as runs: none when there are none. */
function runs(pks: string[], index: number): InsertedRun[] {
  return pks.length === 0 ? NO_RUNS : [{ index, pks }];
}
