import { definitionsVersion } from '../schema/definitions.js';
import { denormalizeFields, Entity } from '../schema/Entity.js';
import { INVALID, type Invalid, isInvalid } from '../schema/invalid.js';
import type { DenormalizeContext, EntityStatics, SchemaClass } from '../schema/types.js';
import { PersistentMap } from './persistentMap.js';
import { sameData } from './sameData.js';
import { schemaOf } from './schemaOf.js';
import type { Table, Tables } from './tables.js';

/**
 * One table row a denormalized value was built from; with a `null` pk, a whole table (`row` is
 * the table), for values that list every row of it (`schema.All`).
 */
export interface Dependency {
  table: string;
  pk: string | null;
  row: unknown;
}

interface Entry {
  value: unknown;
  /**
   * The entity class an instance was built as: classes that share a key (a summary and its full
   * entity) read one row as different instances, or one as INVALID (see createIfValid).
   */
  entity?: EntityStatics;
  /** The list schema a collection row's list was built by (see TrackedDenormalizeRun.readList). */
  builtBy?: SchemaClass;
  dependencies: Dependency[];
  /**
   * The tables a result was last confirmed against: a quick hit when they are unchanged. Kept
   * for whole results only, so entity entries never hold on to old tables.
   */
  checkedAgainst?: Tables;
}

function stillValid(entry: Entry, entities: Tables): boolean {
  if (entry.checkedAgainst === entities) return true;
  // Dependencies come in runs of one table (a list's rows): look each table up once per run.
  let tableKey: string | undefined;
  let table: Table | undefined;
  for (const dependency of entry.dependencies) {
    if (dependency.table !== tableKey) {
      tableKey = dependency.table;
      table = entities.get(tableKey);
    }
    const current = dependency.pk === null ? table : table?.get(dependency.pk);
    if (current !== dependency.row) return false;
  }
  if (entry.checkedAgainst) entry.checkedAgainst = entities;
  return true;
}

/**
 * Remembers denormalized values so that reading again gives the same objects: the same result
 * over unchanged rows is the same object (`===`), a changed entity changes only the values built
 * from it, and one entity read through two results is one instance.
 */
export class MemoCache {
  /** Entity instances by the row they were built from. */
  private entities = new WeakMap<object, Entry>();
  /** Whole results by schema, then by the normalized input (objects weakly, primitives by value). */
  private results = new WeakMap<
    object,
    { byObject: WeakMap<object, Entry>; byValue: Map<unknown, Entry> }
  >();
  /**
   * The version of the schema definitions the remembered values were built with: a `define()`
   * since then may have changed how any of them reads, entity instances too (a field's schema
   * may be the one defined), so all are built again.
   */
  private definitions = definitionsVersion();
  /**
   * Results found from the tables as objects (an object schema's `queryKey`), by schema, then by
   * result key: the object found last is given again while it holds the same, so its reading
   * stays the same object too.
   */
  private found = new WeakMap<object, Map<string, object>>();

  /** The rows the remembered reading of `input` was built from; undefined if it was never read. */
  dependenciesOf(schema: unknown, input: unknown): readonly Dependency[] | undefined {
    const schemaClass = schemaOf(schema);
    if (schemaClass === undefined || input === undefined || input === null) return undefined;
    return this.resultsFor(schemaClass, input).get(input as object)?.dependencies;
  }

  /**
   * `result`, or the one `schema` found before under `key` when it holds the same (see `found`).
   */
  sameAsBefore(schema: object, key: string, result: unknown): unknown {
    if (typeof result !== 'object' || result === null) return result;
    let byKey = this.found.get(schema);
    if (byKey === undefined) {
      byKey = new Map();
      this.found.set(schema, byKey);
    }
    const before = byKey.get(key);
    if (before !== undefined && sameData(before, result)) return before;
    byKey.set(key, result);
    return result;
  }

  denormalize(
    schema: unknown,
    input: unknown,
    entities: Tables,
    args: readonly unknown[] = [],
  ): unknown {
    const schemaClass = schemaOf(schema);
    if (schemaClass === undefined || input === undefined || input === null) return input;
    if (this.definitions !== definitionsVersion()) this.forget();
    const byInput = this.resultsFor(schemaClass, input);
    const cached = byInput.get(input as object);
    if (cached && stillValid(cached, entities)) return cached.value;
    const run = new TrackedDenormalizeRun(entities, args, this.entities);
    const { value, dependencies } = run.collect(() => run.unvisit(schemaClass, input));
    byInput.set(input as object, { value, dependencies, checkedAgainst: entities });
    return value;
  }

  private forget(): void {
    this.entities = new WeakMap();
    this.results = new WeakMap();
    this.definitions = definitionsVersion();
  }

  private resultsFor(schema: object, input: unknown): Map<unknown, Entry> | WeakMap<object, Entry> {
    let byKind = this.results.get(schema);
    if (!byKind) {
      byKind = { byObject: new WeakMap(), byValue: new Map() };
      this.results.set(schema, byKind);
    }
    return typeof input === 'object' ? byKind.byObject : byKind.byValue;
  }
}

/** Denormalizes without remembering anything between calls. */
export function denormalize(
  schema: unknown,
  input: unknown,
  entities: Tables,
  args: readonly unknown[] = [],
) {
  const schemaClass = schemaOf(schema);
  if (schemaClass === undefined || input === undefined || input === null) return input;
  return new DenormalizeRun(entities, args).unvisit(schemaClass, input);
}

type Row = Record<string, unknown>;

/** How deep entities nest in one read before relations are left as pks (see tooDeep). */
export const MAX_READ_DEPTH = 128;

/**
 * A field whose schema is a plain function or class (`createdAt: Date`,
 * `time: Temporal.Instant.from`, `price: Number`) is stored as it came (JSON) and turned into that
 * type when read: constructors are called with `new`, other functions called with the value.
 */
function deserialize(type: Function, value: unknown): unknown {
  return isConstructor(type)
    ? new (type as new (value: unknown) => unknown)(value)
    : (type as (value: unknown) => unknown)(value);
}

/** Built-ins that convert a value when called (`new Number(5)` would be a wrapper object). */
const CONVERTING_BUILTINS = new Set<Function>([Number, String, Boolean, BigInt, Symbol]);
const constructors = new WeakMap<Function, boolean>();

/**
 * Classes (`class Money {…}`) and built-in constructors (`Date`, `URL`, `Map`) need `new`;
 * functions and built-in methods (`Temporal.Instant.from`, which has no prototype) are called.
 */
function isConstructor(type: Function): boolean {
  let known = constructors.get(type);
  if (known === undefined) {
    const source = Function.prototype.toString.call(type);
    known =
      source.startsWith('class') ||
      (Object.hasOwn(type, 'prototype') &&
        source.endsWith('{ [native code] }') &&
        !CONVERTING_BUILTINS.has(type));
    constructors.set(type, known);
  }
  return known;
}

/** What a run keeps of one entity class: its table, and the instances built from its rows. */
interface EntityReads {
  rows: Table | undefined;
  /**
   * Instances by pk, each from the moment it is made (before its fields are filled), so that a
   * cycle leading back to it gets the instance being built; INVALID for a row the class refused.
   * A table is unchanged for the whole run, so a pk stands for its row.
   */
  built: Map<string, object | Invalid>;
}

/**
 * One denormalization: each entity is built once per run (one instance however often it is
 * referenced) and a cycle gets back the instance being built.
 */
class DenormalizeRun implements DenormalizeContext {
  /** Keeps the class's hidden class alive between reads (docs/architecture.md, "Hidden classes"). */
  static readonly spare = new DenormalizeRun(PersistentMap.empty(), []);
  /**
   * By entity class rather than by key: classes that share a key (a summary and its full entity)
   * read one row as different instances, or one as INVALID (see createIfValid).
   */
  private readonly reads = new Map<EntityStatics, EntityReads>();
  /** How many entities are being built, one inside the other (see tooDeep). */
  private depth = 0;

  /** The table read last: rows are read in runs of one table (a list's entities). */
  private recentTable: string | undefined;
  private recentRows: Table | undefined;

  constructor(
    protected readonly entities: Tables,
    readonly args: readonly unknown[],
  ) {}

  /** A row as the tables hold it. */
  protected row(table: string, pk: string): unknown {
    if (table !== this.recentTable) {
      this.recentTable = table;
      this.recentRows = this.entities.get(table);
    }
    return this.recentRows?.get(pk);
  }

  /** The table of `entity` and what this run built from it. */
  protected readsOf(entity: EntityStatics): EntityReads {
    let reads = this.reads.get(entity);
    if (reads === undefined) {
      reads = { rows: this.entities.get(entity.key), built: new Map() };
      this.reads.set(entity, reads);
    }
    return reads;
  }

  unvisit(schema: unknown, input: unknown): unknown {
    if (input === undefined || input === null) return input;
    const schemaClass = schemaOf(schema);
    if (schemaClass) return schemaClass.denormalize(input, this);
    return typeof schema === 'function' ? deserialize(schema, input) : input;
  }

  unvisitItems(schema: unknown, items: Iterable<unknown>, keepNull = false): unknown[] {
    // The items' schema is resolved once for the list, not once an item.
    const schemaClass = schemaOf(schema);
    const out: unknown[] = [];
    for (const item of items) {
      if (item === undefined || item === null) {
        if (item === null && keepNull) out.push(null);
        continue;
      }
      const value = schemaClass ? schemaClass.denormalize(item, this) : this.unvisit(schema, item);
      if (value !== undefined && value !== null && !isInvalid(value)) out.push(value);
    }
    return out;
  }

  readRow(table: string, pk: string): unknown {
    return this.row(table, pk);
  }

  readList(table: string, pk: string, listSchema: SchemaClass): unknown {
    const members = this.readRow(table, pk);
    return members === undefined ? undefined : listSchema.denormalize(members, this);
  }

  readTable(table: string): Table | undefined {
    return this.entities.get(table);
  }

  entity(entity: EntityStatics, pk: string): object | Invalid | string | undefined {
    if (this.tooDeep()) return pk;
    const reads = this.readsOf(entity);
    const existing = reads.built.get(pk);
    if (existing !== undefined) return existing;
    const row = reads.rows?.get(pk) as Row | undefined;
    if (row === undefined) return undefined;
    if (isInvalid(row)) return INVALID;
    return this.build(entity, pk, row, reads);
  }

  entityFromObject(entity: EntityStatics, object: Row): object | Invalid {
    const instance = entity.createIfValid(object);
    return instance === undefined ? INVALID : denormalizeFields(entity, instance, object, this);
  }

  /**
   * Whether entities are nested MAX_READ_DEPTH deep here: a chain of entities stored by many
   * responses (each one linking the next) could otherwise take a read past the stack's end.
   * Past it, a relation is left as its pk.
   */
  protected tooDeep(): boolean {
    return this.depth >= MAX_READ_DEPTH;
  }

  /**
   * An instance with its nested fields filled in; INVALID when the class refuses the row or a
   * required field is INVALID.
   */
  protected build(
    entity: EntityStatics,
    pk: string,
    row: Row,
    reads: EntityReads,
  ): object | Invalid {
    const instance = entity.createIfValid(row);
    if (instance === undefined) {
      reads.built.set(pk, INVALID);
      return INVALID;
    }
    reads.built.set(pk, instance);
    this.depth++;
    try {
      const value = denormalizeFields(entity, instance, row, this);
      if (value !== instance) reads.built.set(pk, value);
      return value;
    } finally {
      this.depth--;
    }
  }
}

/**
 * A run for a MemoCache: it records which rows every value was built from, and reuses the
 * instances of earlier runs whose rows are unchanged.
 */
class TrackedDenormalizeRun extends DenormalizeRun {
  /** Keeps the class's hidden class alive between reads (see DenormalizeRun.spare). */
  static override readonly spare = new TrackedDenormalizeRun(
    PersistentMap.empty(),
    [],
    new WeakMap(),
  );
  /** The dependencies of the values being built, innermost last. */
  private readonly frames: Dependency[][] = [];

  constructor(
    entities: Tables,
    args: readonly unknown[],
    private readonly entityCache: WeakMap<object, Entry>,
  ) {
    super(entities, args);
  }

  collect<T>(build: () => T): { value: T; dependencies: Dependency[] } {
    const dependencies: Dependency[] = [];
    this.frames.push(dependencies);
    try {
      return { value: build(), dependencies };
    } finally {
      this.frames.pop();
      const parent = this.frames[this.frames.length - 1];
      if (parent) for (const dependency of dependencies) parent.push(dependency);
    }
  }

  override readRow(table: string, pk: string): unknown {
    const row = this.row(table, pk);
    this.frames[this.frames.length - 1]?.push({ table, pk, row });
    return row;
  }

  /**
   * The list of a collection row, reused by every read of that row while the rows it was built
   * from are unchanged (a member list is a new object whenever the row changes).
   */
  override readList(table: string, pk: string, listSchema: SchemaClass): unknown {
    const members = this.readRow(table, pk);
    if (typeof members !== 'object' || members === null) return members;
    const cached = this.entityCache.get(members);
    if (cached?.builtBy === listSchema && stillValid(cached, this.entities)) {
      const parent = this.frames[this.frames.length - 1];
      if (parent) for (const dependency of cached.dependencies) parent.push(dependency);
      return cached.value;
    }
    const { value, dependencies } = this.collect(() => listSchema.denormalize(members, this));
    this.entityCache.set(members, { value, dependencies, builtBy: listSchema });
    return value;
  }

  override readTable(table: string): Table | undefined {
    const rows = this.entities.get(table);
    this.frames[this.frames.length - 1]?.push({ table, pk: null, row: rows });
    return rows;
  }

  override entity(entity: EntityStatics, pk: string): object | Invalid | string | undefined {
    if (this.tooDeep()) return pk;
    const reads = this.readsOf(entity);
    const row = reads.rows?.get(pk) as Row | undefined;
    const rowDependency: Dependency = { table: entity.key, pk, row };
    const parent = this.frames[this.frames.length - 1];
    parent?.push(rowDependency);
    if (row === undefined) return undefined;
    if (isInvalid(row)) return INVALID;
    const cached = this.entityCache.get(row);
    if (cached?.entity === entity && stillValid(cached, this.entities)) {
      if (parent) for (const dependency of cached.dependencies) parent.push(dependency);
      return cached.value as object | Invalid;
    }
    // Being built further up: a cycle led back to it.
    const inProgress = reads.built.get(pk);
    if (inProgress !== undefined) return inProgress;
    // The instance depends on its own row and on every row its fields read.
    const dependencies: Dependency[] = [rowDependency];
    this.frames.push(dependencies);
    let value: object | Invalid;
    try {
      value = this.build(entity, pk, row, reads);
    } finally {
      this.frames.pop();
      // Finished instances are remembered in the entity cache, with the rows they were built from.
      reads.built.delete(pk);
    }
    // The parent holds the row already; it also depends on what the fields read.
    if (parent) for (let i = 1; i < dependencies.length; i++) parent.push(dependencies[i]!);
    this.entityCache.set(row, { value, dependencies, entity });
    return value;
  }
}

/**
 * A response read on its own, whatever the store holds: its entities are built from the objects
 * it carries (processed by their class, as normalize processes them), a list or a page is what
 * the response listed, and the entity a delete names reads as that entity (undefined when the
 * answer was a bare pk). One walk of the response, as data-client builds what its `fetch`
 * resolves to: `controller.fetch` resolves to this.
 */
export function readResponse(
  schema: unknown,
  response: unknown,
  args: readonly unknown[],
): unknown {
  const schemaClass = schemaOf(schema);
  if (schemaClass === undefined || response === undefined || response === null) return response;
  return new ResponseReadRun(args).unvisit(schemaClass, response);
}

class ResponseReadRun extends DenormalizeRun {
  /** Keeps the class's hidden class alive between reads (see DenormalizeRun.spare). */
  static override readonly spare = new ResponseReadRun([]);
  /**
   * The response's objects whose fields are being read, innermost last: an object met inside
   * itself (a cycle, as in a read written back) is the instance being built.
   */
  private readonly reading: { object: object; instance: object }[] = [];
  /**
   * Where the value being read sits, innermost last: what normalize gave `process` as the parent
   * and key. A list's items sit where the list does; a response that is itself the list is its
   * items' parent.
   */
  private readonly places: { parent: unknown; key: string | undefined }[] = [
    { parent: undefined, key: undefined },
  ];

  constructor(args: readonly unknown[]) {
    super(PersistentMap.empty(), args);
  }

  override unvisit(schema: unknown, input: unknown, parent?: unknown, key?: string): unknown {
    const here = this.places[this.places.length - 1]!;
    const place =
      parent !== undefined || key !== undefined
        ? { parent, key }
        : Array.isArray(input) && here.parent === undefined
          ? { parent: input, key: here.key }
          : here;
    if (place === here) return super.unvisit(schema, input);
    this.places.push(place);
    try {
      return super.unvisit(schema, input);
    } finally {
      this.places.pop();
    }
  }

  override entityFromObject(entity: EntityStatics, object: Row): object | Invalid {
    for (let i = this.reading.length - 1; i >= 0; i--)
      if (this.reading[i]!.object === object) return this.reading[i]!.instance;
    const { parent, key } = this.places[this.places.length - 1]!;
    // The default `process` makes a copy to store; a read only reads the row, so it takes the object.
    const row =
      entity.process === Entity.process ? object : entity.process(object, parent, key, this.args);
    const instance = entity.createIfValid(row);
    if (instance === undefined) return INVALID;
    this.reading.push({ object, instance });
    try {
      return denormalizeFields(entity, instance, row, this);
    } finally {
      this.reading.pop();
    }
  }
}
