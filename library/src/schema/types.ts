import type { CollectionChangeKind } from '../normalize/changeKinds.js';
import type { MemberList } from '../normalize/memberList.js';
import type { EntityMeta, Table } from '../normalize/tables.js';
import type { Invalid } from './invalid.js';
import type { UnionSchema } from './Union.js';

/** What a schema's `normalize` is given: the arguments of the call and access to the tables. */
export interface NormalizeContext {
  /** The endpoint call's arguments, e.g. `[urlParams, body]`. */
  readonly args: readonly unknown[];
  /** True while normalizing an optimistic response: created entities may lack a pk. */
  readonly optimistic: boolean;
  /**
   * A pk for an entity of an optimistic response that has none yet: unique in the store (it
   * names the request), and the same each time the response is applied again.
   */
  placeholderPk(): string;
  /** Normalizes a nested value with its schema. */
  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown;
  /**
   * Normalizes each item of a list with `schema`, each seeing the list's `parent` and `key`;
   * null and undefined results are left out, or with `keepNull` null items kept in their places.
   */
  visitItems(
    schema: unknown,
    items: readonly unknown[],
    parent: unknown,
    key: string | undefined,
    keepNull?: boolean,
  ): unknown[];
  /**
   * Enters an entity's input object, to visit its fields; false, entering nothing, when it is
   * being visited already further out: a cycle of the input (a read written back), which is
   * stored where it was met first. Each `true` is followed by one `leaveEntity()`.
   */
  enterEntity(input: object): boolean;
  leaveEntity(): void;
  /** A row as it stands now, including this call's earlier writes. */
  getRow(table: string, pk: string): unknown;
  /** The keys of a table's rows as they stand now (e.g. a collection's rows). */
  rowKeys(table: string): readonly string[];
  /**
   * The rows of a collection that an add with these arguments reaches under the default filter
   * (see RowsByFilter), found without going through every row.
   */
  rowsMatching(collection: string, args: readonly unknown[]): readonly string[];
  /**
   * The rows of a collection that hold `member` (a pk, or a union reference), found through the
   * tables' index of the rows holding each entity, without going through the collection's rows.
   */
  rowsWithMember(collection: CollectionTable, member: string): readonly string[];
  /** Stores an entity row, merging it with what the table holds. */
  mergeEntity(entity: EntityStatics, pk: string, row: Record<string, unknown>): void;
  /** Marks an entity INVALID and removes it from every collection. */
  invalidate(entity: EntityStatics, pk: string, input: unknown): void;
  /**
   * Writes a collection row; `incoming` is what the change is about, for the change-set (the
   * pks added; for an invalidation or a removal, the one removed).
   */
  writeCollectionRow(
    collection: CollectionTable,
    rowPk: string,
    members: MemberList,
    kind: CollectionChangeKind,
    incoming: readonly string[],
  ): void;
}

/** A collection's table, as the normalizer writes its rows. */
export interface CollectionTable {
  /** The table key, e.g. `[Todo]`. */
  readonly key: string;
  /**
   * The entity type of its members, whose pks the rows list; undefined for a collection of a
   * schema.Union's members, whose rows list union references naming each member's type.
   */
  readonly entity: string | undefined;
}

/** What a schema's `denormalize` is given. */
export interface DenormalizeContext {
  readonly args: readonly unknown[];
  /**
   * Denormalizes a nested value with its schema. `parent` and `key` say where it sits, as
   * normalize gives them to `process` (the object holding it, and its field): a response read on
   * its own processes its entities with them.
   */
  unvisit(schema: unknown, input: unknown, parent?: unknown, key?: string): unknown;
  /**
   * Denormalizes each item of a list with `schema`, each where the list sits; items that are
   * missing, null or INVALID are left out, or with `keepNull` null items kept in their places.
   */
  unvisitItems(schema: unknown, items: Iterable<unknown>, keepNull?: boolean): unknown[];
  /** Reads a table row and records it as a dependency of the value being built. */
  readRow(key: string, pk: string): unknown;
  /**
   * Reads a collection's row and the list `listSchema` makes of its members (undefined when the
   * row is not stored). A row read through two results (a user's nested todos and the top-level
   * list of the same arguments) is one list, the same array in both, while its members are
   * unchanged.
   */
  readList(key: string, pk: string, listSchema: SchemaClass): unknown;
  /**
   * Reads a whole table (`schema.All`) and records it as a dependency: the value changes with
   * any row added to, changed in or removed from it.
   */
  readTable(key: string): Table | undefined;
  /**
   * Builds (or reuses) the instance of an entity; INVALID or undefined when it cannot, the pk
   * itself when entities nest too deep to follow.
   */
  entity(entity: EntityStatics, pk: string): object | Invalid | string | undefined;
  /**
   * The instance of an entity given as an object rather than by its pk: in a response read on
   * its own (what `controller.fetch` resolves to), or stored before a `define()` gave its field a
   * schema. INVALID when the class refuses it.
   */
  entityFromObject(entity: EntityStatics, object: Record<string, unknown>): object | Invalid;
}

/** Read-only access to the tables, for schemas that can find their result from the args alone. */
export interface QueryContext {
  getRow(table: string, pk: string): unknown;
  /** Whether the store holds a table (of an entity type it has seen). */
  hasTable(table: string): boolean;
  /** The pk of the entity whose indexed `field` (`static indexes`) has this value. */
  findByIndex(entity: string, field: string, value: unknown): string | undefined;
  /**
   * What a nested schema (a member of an object schema) finds from these arguments: its
   * `queryKey`'s result, undefined when it has none.
   */
  find(schema: unknown, args: readonly unknown[]): unknown;
}

/** The protocol every schema class follows. Plain arrays and objects are wrapped in one. */
export interface SchemaClass {
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): unknown;
  denormalize(input: unknown, ctx: DenormalizeContext): unknown;
  /** The normalized result these args would have, when it can be found without a fetch. */
  queryKey?(args: readonly unknown[], ctx: QueryContext): unknown;
}

/** A schema class that wraps another schema (`schema.Array`, `schema.Values`, `schema.Union`). */
export interface PolymorphicInterface extends SchemaClass {
  readonly schema: unknown;
}

/** The static side of an Entity class, as the normalizer sees it. */
export interface EntityStatics extends SchemaClass {
  readonly key: string;
  readonly schema: Readonly<Record<string, unknown>>;
  readonly indexes?: readonly string[];
  /** The field the devtools name an entity by (see Entity.label). */
  readonly label?: string;
  /** Turns a response object into the row to store. */
  process(
    input: Record<string, unknown>,
    parent?: unknown,
    key?: string,
    args?: readonly unknown[],
  ): Record<string, unknown>;
  pk(
    value: Record<string, unknown>,
    parent?: unknown,
    key?: string,
    args?: readonly unknown[],
  ): string | undefined;
  merge(
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): Record<string, unknown>;
  /** Whether a response's row is merged into the stored one at all. */
  useIncoming(
    existingMeta: EntityMeta,
    incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): boolean;
  /** Whether the incoming row is the older one, which only fills the stored row's gaps. */
  shouldReorder(
    existingMeta: EntityMeta,
    incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): boolean;
  /** The row to store when a response brings one for a stored entity. */
  mergeWithStore(
    existingMeta: EntityMeta,
    incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): Record<string, unknown>;
  /** The meta to keep with that row. */
  mergeMetaWithStore(
    existingMeta: EntityMeta,
    incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): EntityMeta;
  fromJS(props?: Record<string, unknown>): object;
  /** The instance of a stored row, or undefined when the row is not valid for this class. */
  createIfValid(row: Record<string, unknown>): object | undefined;
  /** A reason the processed row cannot be stored or shown, undefined when it can. */
  validate(processed: Record<string, unknown>): string | undefined;
  /** How a list given where the entity's object belongs is read (see Entity). */
  readonly automaticValidation?: 'warn' | 'silent';
  /** An instance holding only the declared defaults. */
  readonly defaults: Readonly<Record<string, unknown>>;
}

export function isSchemaClass(value: unknown): value is SchemaClass {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as SchemaClass).normalize === 'function' &&
    typeof (value as SchemaClass).denormalize === 'function'
  );
}

export function isEntity(value: unknown): value is EntityStatics {
  return (
    typeof value === 'function' && typeof (value as unknown as EntityStatics).fromJS === 'function'
  );
}

/**
 * Whether a schema is a `schema.Union`, told by its `memberOf` rather than by `instanceof`: the
 * code that handles a union among other schemas then does not put the Union class in the bundle
 * of an app that never makes one.
 */
export function isUnion(value: unknown): value is UnionSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as UnionSchema).memberOf === 'function'
  );
}
