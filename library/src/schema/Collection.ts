import type { InsertKind } from '../normalize/changeKinds.js';
import { MemberList } from '../normalize/memberList.js';
import { Recomputed } from './definitions.js';
import { describeValue, SchemaError } from './describe.js';
import { ListSchema } from './List.js';
import { argMatches, isOrderArgument, parseRowArgs, serializeRowArgs } from './rowArgs.js';
import {
  type CollectionTable,
  type DenormalizeContext,
  isEntity,
  isUnion,
  type NormalizeContext,
  type PolymorphicInterface,
  type QueryContext,
  type SchemaClass,
} from './types.js';
import { ValuesSchema } from './Values.js';

/** Whether a stored collection row (its filtering arguments, as strings) receives an add. */
export type CollectionFilter = (rowArgs: Readonly<Record<string, string>>) => boolean;

/** Builds the filter for one add from that call's arguments. */
export interface CreateCollectionFilter {
  (...args: readonly unknown[]): CollectionFilter;
  /**
   * When present, the adds of a call belong to exactly one row: the one these arguments identify.
   * That row is created when it is not stored yet. Pagination uses it to drop the cursor.
   */
  rowArgs?: (...args: readonly unknown[]) => readonly unknown[];
}

/** Combines a row's members with incoming pks. The result must not hold a pk twice. */
export type CollectionMerge = ((
  existing: readonly string[],
  incoming: readonly string[],
) => string[]) & {
  /**
   * The built-in merges say what they do: `push` appends the pks the row lacks, `unshift`
   * prepends them. The store then adds to the row without going through a copy of it, and the
   * change-set labels the members so. Leave it out for any other merge.
   */
  insertKind?: 'push' | 'unshift';
};

/** Options of `schema.Collection`: which arguments make a row, and which of them filter. */
export interface CollectionOptions<
  Args extends readonly unknown[] = [urlParams: Record<string, any>, body?: Record<string, any>],
> {
  /** Which arguments identify a row; the first argument by default (the body never counts). */
  argsKey?(...args: any): Record<string, unknown> | undefined;
  /**
   * For a collection nested in a value (an entity's field): the row of that parent's list, e.g.
   * `(parent) => ({ userId: parent.id })`, so that each parent has its own list and a `push`
   * with those arguments reaches it. Without it, a nested list is keyed by the call's arguments.
   */
  nestKey?(parent: any, key: string): Record<string, unknown> | undefined;
  /** Argument names that do not filter, e.g. `orderBy`; a predicate, a RegExp or a list. */
  nonFilterArgumentKeys?: ((key: string) => boolean) | RegExp | readonly string[];
  /**
   * The whole filter instead (data-client's option): from an add's arguments, whether a stored
   * row, given its filtering arguments as strings, receives it. Ignored beside
   * `nonFilterArgumentKeys`, as in data-client.
   */
  createCollectionFilter?(...args: Args): CollectionFilter;
}

/** Appends the incoming pks that are not already present, keeping the first of any repeats. */
function appendNew(existing: readonly string[], incoming: readonly string[]): string[] {
  const out = existing.slice();
  // Hashes the incoming pks rather than the (usually longer) list, and strikes what it holds.
  const fresh = new Set(incoming);
  for (const pk of existing) if (fresh.delete(pk) && fresh.size === 0) break;
  for (const pk of fresh) out.push(pk);
  return out;
}

/**
 * A collection's `push`, and the merge of a page (`paginatedMerge`): incoming members go at the
 * end, each once, and members already there stay put.
 */
export const pushMerge: CollectionMerge = Object.assign(
  (existing: readonly string[], incoming: readonly string[]) => appendNew(existing, incoming),
  { insertKind: 'push' as const },
);

/** A collection's `unshift`: incoming members go at the start, members already there stay put. */
export const unshiftMerge: CollectionMerge = Object.assign(
  (existing: readonly string[], incoming: readonly string[]) => {
    const fresh = appendNew([], incoming).filter((pk) => !existing.includes(pk));
    return fresh.concat(existing);
  },
  { insertKind: 'unshift' as const },
);

/**
 * Appends a page: only pks not already in the list, each once. `pushMerge` itself: the change-set
 * calls it a `page-merge` when it fills the one row of a paginated add (see `paginatedFilter`).
 */
export const paginatedMerge: CollectionMerge = pushMerge;

/** A page belongs to the list stored under the same arguments without the cursor. */
export function paginatedFilter(
  removeCursor: (...args: readonly unknown[]) => readonly unknown[],
): CreateCollectionFilter {
  return Object.assign(() => () => false, { rowArgs: removeCursor });
}

/** A collection's table: its key from its items' schema, and the entity type they are. */
function tableOf(schema: unknown): CollectionTable {
  if (isEntity(schema)) return { key: `[${schema.key}]`, entity: schema.key };
  if (isUnion(schema)) return { key: `[${schema.key}]`, entity: undefined };
  throw new Error(
    process.env.NODE_ENV !== 'production'
      ? `schema.Collection holds entities of one Entity class or a schema.Union, not ${describeValue(schema)}`
      : 'schema.Collection holds entities of one Entity class or a schema.Union',
  );
}

/**
 * The members a row keeps of a normalized list: entity references. An item of a type a union
 * names no member for stays a plain object, which has no pk to find, move or remove it by.
 */
export function entityRefs(normalized: readonly unknown[]): string[] {
  return normalized.filter((item): item is string => typeof item === 'string');
}

/**
 * The list schema of a collection's rows. A `schema.Values` (which data-client also takes) or a
 * bare entity is refused by name: it would otherwise fail later as a list of `undefined`.
 */
function listSchema<S extends CollectionSchema>(schema: S): ListSchema<MemberOf<S>> {
  if (schema instanceof ListSchema) return schema;
  if (Array.isArray(schema)) return new ListSchema(schema[0]);
  // The message names what was given: development builds only, so that production builds leave
  // ValuesSchema (and the describing) out unless the app uses it.
  if (process.env.NODE_ENV !== 'production') throw new TypeError(listSchemaRefusal(schema));
  throw new TypeError('schema.Collection takes a list schema');
}

/** Why `listSchema` refuses what it was given, naming it. */
function listSchemaRefusal(schema: unknown): string {
  const member = schema instanceof ValuesSchema ? schema.schema : schema;
  const name = isEntity(member) ? member.key : 'Todo';
  const given =
    schema instanceof ValuesSchema
      ? 'a schema.Values: RestLens keeps collections as ordered lists'
      : isEntity(schema)
        ? schema.key
        : describeValue(schema);
  return `schema.Collection takes a list schema ([${name}] or new schema.Array(${name})), not ${given}`;
}

/** What a list schema (`[Todo]` or `new schema.Array(Todo)`) holds. */
export type MemberOf<S> = S extends readonly (infer M)[]
  ? M
  : S extends { readonly schema: infer M }
    ? M
    : unknown;

/** The list schema of a collection: `[Todo]`, or a schema class such as `schema.Array`. */
export type CollectionSchema = readonly unknown[] | PolymorphicInterface;

/**
 * An ordered list of entities stored once per set of filtering arguments (its row). A fetch of
 * the list replaces the row; `push`, `unshift` and `addWith(...)` add to stored rows.
 *
 * `S` is the list schema it was made from (`[Todo]`); `Args`, the arguments of the endpoints
 * that read it, is there for subclasses written as `Collection<S, Args>`.
 */
export class Collection<
  S extends CollectionSchema = any,
  _Args extends readonly unknown[] = [urlParams: Record<string, any>, body?: Record<string, any>],
> implements SchemaClass
{
  readonly schema: ListSchema<MemberOf<S>>;
  /** The table, from the list schema's definition: computed again after a `define()`. */
  private readonly tableOf = new Recomputed(() => tableOf(this.schema.schema));
  private readonly argsKey: (...args: readonly unknown[]) => Record<string, unknown> | undefined;
  private readonly nestKey: CollectionOptions['nestKey'];
  private readonly adders = new Map<'push' | 'unshift', unknown>();
  /** Typed for any arguments, so that a Collection is one whatever `_Args` it was declared with. */
  readonly options: CollectionOptions<readonly any[]>;

  constructor(schema: S, options: CollectionOptions<_Args> = {}) {
    this.options = options;
    this.schema = listSchema(schema);
    // Refuses a list of anything but entities at once, not at the first response.
    this.tableOf.get();
    this.nestKey = options.nestKey;
    this.argsKey =
      options.argsKey ??
      ((params) =>
        typeof params === 'object' && params !== null
          ? (params as Record<string, unknown>)
          : undefined);
    const nonFilter = options.nonFilterArgumentKeys;
    if (nonFilter !== undefined) {
      this.nonFilterArgumentKeys =
        typeof nonFilter === 'function'
          ? nonFilter
          : nonFilter instanceof RegExp
            ? (key) => nonFilter.test(key)
            : (key) => (nonFilter as readonly string[]).includes(key);
    } else if (options.createCollectionFilter) {
      this.createCollectionFilter = options.createCollectionFilter.bind(this) as (
        ...args: readonly unknown[]
      ) => CollectionFilter;
    }
  }

  /** The table key, e.g. `[Todo]` (`[Post;Comment]` for a union's members). */
  get key(): string {
    return this.tableOf.get().key;
  }

  /** The table the rows are written to. */
  get table(): CollectionTable {
    return this.tableOf.get();
  }

  /**
   * Whether adds find their rows with the default filter (no `nonFilterArgumentKeys`, no
   * `createCollectionFilter`, neither as options nor overridden by a subclass): those rows are
   * looked up in the tables' index (RowsByFilter); any other filter is tested on every row.
   */
  usesDefaultFilter(): boolean {
    return (
      this.nonFilterArgumentKeys === Collection.prototype.nonFilterArgumentKeys &&
      this.createCollectionFilter === Collection.prototype.createCollectionFilter
    );
  }

  /** Appends to every stored row whose filtering arguments match the call's. */
  get push(): CollectionAdder<S, 'single'> {
    return this.adder('push', pushMerge);
  }

  /** Prepends to every stored row whose filtering arguments match the call's. */
  get unshift(): CollectionAdder<S, 'single'> {
    return this.adder('unshift', unshiftMerge);
  }

  /** `push` and `unshift` are made when first read: each adder is a Collection too. */
  private adder(name: 'push' | 'unshift', merge: CollectionMerge): CollectionAdder<S, 'single'> {
    let adder = this.adders.get(name) as CollectionAdder<S, 'single'> | undefined;
    if (!adder) {
      adder = new CollectionAdder(this, merge);
      this.adders.set(name, adder);
    }
    return adder;
  }

  /** True for argument names that do not change which members the list holds. */
  nonFilterArgumentKeys(key: string): boolean {
    return isOrderArgument(key);
  }

  /** The row these arguments identify. */
  pk(args: readonly unknown[]): string {
    return serializeRowArgs(this.argsKey(...args));
  }

  /** The row a list normalized at this place belongs to: its parent's (nestKey) or the call's. */
  private rowOf(parent: unknown, key: string | undefined, args: readonly unknown[]): string {
    return this.nestKey && parent !== undefined
      ? serializeRowArgs(this.nestKey(parent, key ?? ''))
      : this.pk(args);
  }

  /** A row receives an add when each of its filtering arguments equals the URL params' or body's. */
  createCollectionFilter(...args: readonly unknown[]): CollectionFilter {
    return (rowArgs) => {
      for (const key in rowArgs) {
        const value = rowArgs[key] as string;
        if (
          !this.nonFilterArgumentKeys(key) &&
          !argMatches(args[0], key, value) &&
          !argMatches(args[1], key, value)
        )
          return false;
      }
      return true;
    };
  }

  /** A schema that adds its input to stored rows with `merge`, chosen by `createFilter`. */
  addWith(
    merge: CollectionMerge,
    createFilter?: CreateCollectionFilter,
  ): CollectionAdder<S, 'list'> {
    return new CollectionAdder(this, merge, createFilter);
  }

  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): unknown {
    const members = entityRefs(this.schema.normalize(input, parent, key, ctx));
    const rowPk = this.rowOf(parent, key, ctx.args);
    // A refetch that lists the same members keeps the stored row, without building another.
    const stored = ctx.getRow(this.key, rowPk) as MemberList | undefined;
    const row = stored?.holdsExactly(members) ? stored : MemberList.from(members);
    ctx.writeCollectionRow(this.table, rowPk, row, 'replace', members);
    return rowPk;
  }

  /** A row, by its key; a list as a response holds it (read on its own), as its items. */
  denormalize(rowPk: unknown, ctx: DenormalizeContext): unknown {
    if (Array.isArray(rowPk)) return this.schema.denormalize(rowPk, ctx);
    if (typeof rowPk !== 'string') return rowPk;
    return ctx.readList(this.key, rowPk, this.schema);
  }

  queryKey(args: readonly unknown[], ctx: QueryContext): string | undefined {
    const rowPk = this.pk(args);
    return ctx.getRow(this.key, rowPk) !== undefined ? rowPk : undefined;
  }
}

/**
 * The schema of `collection.push`, `.unshift` and `.addWith(...)`. `Shape` says how its result
 * reads: one entity for `push(object)`, a list for pages.
 */
export class CollectionAdder<
  S extends CollectionSchema = any,
  _Shape extends 'single' | 'list' = 'single' | 'list',
> extends Collection<S> {
  /** Type-only: lets `Denormalize` tell single adds from lists. */
  declare readonly shape?: _Shape;

  constructor(
    readonly collection: Collection<S>,
    readonly merge: CollectionMerge,
    readonly createFilter?: CreateCollectionFilter,
  ) {
    // The collection's list schema is a ListSchema of its members: a valid `S` for the base.
    super(collection.schema as unknown as S, collection.options);
  }

  /** The collection's own adders: an adder adds to the same rows. */
  override get push(): CollectionAdder<S, 'single'> {
    return this.collection.push;
  }

  override get unshift(): CollectionAdder<S, 'single'> {
    return this.collection.unshift;
  }

  /** Rows are the collection's, whatever a subclass of it says identifies them. */
  override pk(args: readonly unknown[]): string {
    return this.collection.pk(args);
  }

  override nonFilterArgumentKeys(key: string): boolean {
    return this.collection.nonFilterArgumentKeys(key);
  }

  override createCollectionFilter(...args: readonly unknown[]): CollectionFilter {
    return this.collection.createCollectionFilter(...args);
  }

  /**
   * Returns the added pk (one object in) or pks (a list in); for a row-targeting add (pages) the
   * row, so the result reads as the whole merged list.
   */
  override normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): unknown {
    if (typeof input !== 'object' || input === null) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `adding to ${this.collection.key} expects an object or a list of objects but received ${describeValue(input)}`
          : `adding to ${this.collection.key} expects objects`,
        input,
      );
    }
    const single = !Array.isArray(input);
    const incoming = entityRefs(
      this.collection.schema.normalize(single ? [input] : input, parent, key, ctx),
    );
    const kind = this.insertKind();
    const table = this.collection.table;
    const add = (rowPk: string) => {
      const existing =
        (ctx.getRow(table.key, rowPk) as MemberList | undefined) ?? MemberList.empty();
      ctx.writeCollectionRow(table, rowPk, this.merged(existing, incoming), kind, incoming);
    };
    const rowArgs = this.createFilter?.rowArgs;
    if (rowArgs) {
      const rowPk = this.collection.pk(rowArgs(...ctx.args));
      add(rowPk);
      return rowPk;
    }
    for (const rowPk of this.rowsReached(ctx, ctx.args)) add(rowPk);
    return single ? incoming[0] : incoming;
  }

  /**
   * The stored rows an add with these arguments reaches: looked up for the default filter,
   * tested one by one otherwise.
   */
  protected rowsReached(ctx: NormalizeContext, args: readonly unknown[]): readonly string[] {
    const { key } = this.collection.table;
    if (this.createFilter === undefined && this.collection.usesDefaultFilter())
      return ctx.rowsMatching(key, args);
    const filter = (this.createFilter ?? this.createCollectionFilter.bind(this))(...args);
    return ctx.rowKeys(key).filter((rowPk) => filter(parseRowArgs(rowPk)));
  }

  /** What the change-set calls this add: a page fills the one row of its paginated add. */
  protected insertKind(): InsertKind {
    const { insertKind = 'add' } = this.merge;
    return insertKind === 'push' && this.createFilter?.rowArgs ? 'page-merge' : insertKind;
  }

  /** A row's members with `incoming` merged in: the built-in merges add without a copy. */
  protected merged(existing: MemberList, incoming: readonly string[]): MemberList {
    switch (this.merge.insertKind) {
      case 'push':
        return existing.append(incoming);
      case 'unshift':
        return existing.prepend(incoming);
      default:
        return MemberList.from(this.merge(existing.toArray(), incoming));
    }
  }

  /** An add is not a query: its result is never found from the tables alone. */
  override queryKey(): undefined {
    return undefined;
  }

  override denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (this.createFilter?.rowArgs) return this.collection.denormalize(input, ctx);
    if (Array.isArray(input)) return this.collection.schema.denormalize(input, ctx);
    return ctx.unvisit(this.collection.schema.schema, input);
  }
}
