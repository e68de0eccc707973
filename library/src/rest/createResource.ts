import type { EndpointOptions } from '../endpoint/Endpoint.js';
import { plainBody } from '../endpoint/plainBody.js';
import { linkResource } from '../endpoint/registry.js';
import { AbortOptimistic, type SnapshotInterface } from '../endpoint/types.js';
import { Collection, type CollectionOptions } from '../schema/Collection.js';
import type { Denormalize } from '../schema/denormalizeTypes.js';
import { describeValue, getOwn, setOwn } from '../schema/describe.js';
import type { EntityClass } from '../schema/Entity.js';
import { pkOf } from '../schema/Entity.js';
import { Invalidate } from '../schema/Invalidate.js';
import { isUnion } from '../schema/types.js';
import type { UnionSchema } from '../schema/Union.js';
import { findCollection } from './collections.js';
import { shortenPath } from './paths.js';
import { RestEndpoint } from './RestEndpoint.js';
import type {
  AnyQuery,
  EndpointExtraOptions,
  ExtendOptions,
  GetEndpoint,
  RestEndpointOptions,
} from './types.js';

/** A resource's schema: one entity class, or a `schema.Union` of several. */
export type ResourceSchema = EntityClass | UnionSchema<any>;

/** The options that type a resource (`createResource`'s generative types come from them). */
export interface ResourceGenerics {
  /** Path of one entity, e.g. `/todos/:id`; the list members use it without the last parameter. */
  readonly path: string;
  readonly schema: ResourceSchema;
  /** Type of the body of `push`, `unshift` and `update` (`partialUpdate` takes a part of it). */
  readonly body?: any;
  /** Type of the list's query parameters (for `getList`, `push`, `unshift`). */
  readonly searchParams?: any;
  /** Adds `getList.getPage`, which advances this query parameter. */
  readonly paginationField?: string;
}

/** Options of `createResource`: the path, the schema, and what every member shares. */
export interface ResourceOptions<
  P extends string = string,
  S extends ResourceSchema = ResourceSchema,
> extends EndpointExtraOptions,
    ResourceGenerics {
  path: P;
  schema: S;
  urlPrefix?: string;
  /** Every mutation shows its result before the server answers, and rolls back on error. */
  optimistic?: boolean;
  /** The class of every member, e.g. one that overrides `getRequestInit`. */
  Endpoint?: EndpointClass;
  /** The class of the list's collection, e.g. one with its own `nonFilterArgumentKeys`. */
  Collection?: CollectionClass;
  requestInit?: RequestInit;
  getHeaders?(headers: HeadersInit): Promise<HeadersInit> | HeadersInit;
}

/**
 * RestEndpoint or a subclass, whatever its type parameters (`MyEndpoint<O extends RestGenerics>`
 * as data-client documents it, or a class of its own). The members' types come from the
 * resource's options, not from the class.
 */
type EndpointClass = new (options: RestEndpointOptions) => RestEndpoint<any>;
/** schema.Collection or a subclass, generic (`MyCollection<S, Args>`) or not. */
type CollectionClass = new (schema: any, options?: CollectionOptions) => Collection<any>;

/** The `body` option's type, or a part of the entity when none is declared. */
export type Body<O extends ResourceGenerics> = O extends { readonly body: infer B }
  ? unknown extends B
    ? Partial<Denormalize<O['schema']>>
    : B
  : Partial<Denormalize<O['schema']>>;
/** The `searchParams` option's type, or any query when none is declared. */
export type Search<O> = O extends { readonly searchParams: infer S }
  ? unknown extends S
    ? AnyQuery
    : S
  : AnyQuery;
type Pagination<O> = O extends { readonly paginationField: infer F }
  ? F extends string
    ? { paginationField: F }
    : {}
  : {};
/** A delete invalidates the entity it names. */
type DeleteSchema<S> = S extends EntityClass ? Invalidate<S> : S;

/** The members of a resource, typed from its options. */
export interface Resource<O extends ResourceGenerics> {
  get: GetEndpoint<{ path: O['path']; schema: O['schema'] }>;
  getList: GetEndpoint<
    {
      path: ShortenPath<O['path']>;
      schema: Collection<[O['schema']]>;
      searchParams: Search<O>;
      body: Body<O>;
    } & Pagination<O>
  >;
  update: RestEndpoint<{
    path: O['path'];
    schema: O['schema'];
    method: 'PUT';
    body: Body<O>;
  }>;
  /**
   * `getList.push` as it was built, named `<Entity>.create`: data-client 0.9's deprecated
   * member, kept so code written for it runs (and `hookifyResource` gives `useCreate`).
   */
  create: Resource<O>['getList']['push'];
  partialUpdate: RestEndpoint<{
    path: O['path'];
    schema: O['schema'];
    method: 'PATCH';
    body: Partial<Body<O>>;
  }>;
  delete: RestEndpoint<{
    path: O['path'];
    schema: DeleteSchema<O['schema']>;
    method: 'DELETE';
  }>;
  extend: ResourceExtend<this>;
}

/**
 * `'/:a/:b'` → `'/:a'`, `'/:a'` → `'/'` (type level, like shortenPath: the text before the last
 * `:`, without one trailing `/`, and `'/'` when nothing is left).
 *
 * It keeps everything before the last parameter, however many parameters the path has (e.g.
 * `'/groups/:group/todos/:id'` → `'/groups/:group/todos'`), as the runtime `shortenPath` does.
 */
export type ShortenPath<P extends string> = P extends `${string}:${string}`
  ? BeforeLastColon<P> extends `${infer Head}/`
    ? Head extends ''
      ? '/'
      : Head
    : BeforeLastColon<P> extends ''
      ? '/'
      : BeforeLastColon<P>
  : P;

type BeforeLastColon<
  P extends string,
  Done extends string = '',
> = P extends `${infer Head}:${infer Rest}`
  ? Rest extends `${string}:${string}`
    ? BeforeLastColon<Rest, `${Done}${Head}:`>
    : `${Done}${Head}`
  : P;

type Members<R> = { [K in keyof R as K extends 'extend' ? never : K]: R[K] };
type WithMembers<R, M> = Omit<R, keyof M | 'extend'> &
  M & { extend: ResourceExtend<Omit<R, keyof M> & M> };

/** The three forms of `resource.extend(...)`. */
export interface ResourceExtend<R> {
  /** Overrides options of existing members. */
  <const M extends { [K in keyof Members<R>]?: Partial<RestEndpointOptions> }>(
    overrides: M,
  ): WithMembers<R, { [K in keyof M]: K extends keyof R ? ExtendMember<R[K], M[K]> : never }>;
  /**
   * Adds (or replaces) one member built from `get` with these options. `E` defaults to `{}` for
   * `extend('name', {})`, which infers nothing (see RestEndpoint's `extend`).
   */
  <const K extends string, const E extends Partial<RestEndpointOptions> = {}>(
    name: K,
    options: Readonly<E> & Partial<RestEndpointOptions>,
  ): WithMembers<
    R,
    { [P in K]: P extends keyof R ? ExtendMember<R[P], E> : ExtendMember<R['get' & keyof R], E> }
  >;
  /** Builds members from the current ones. */
  <const M extends Record<string, unknown>>(build: (base: R) => M): WithMembers<R, M>;
}

/**
 * What `member.extend(E)` returns, computed from the member's options: inferring it from the
 * generic `extend` method would instantiate that method with its constraint and lose the path,
 * body, searchParams and schema types.
 */
type ExtendMember<Member, E> =
  Member extends RestEndpoint<infer O>
    ? RestEndpoint<ExtendOptions<O, E>>
    : Member extends { extend(options: E): infer Result }
      ? Result
      : never;

/**
 * Builds the endpoints of a REST resource from one path and one entity schema:
 * `get`, `getList` (with `push`, `unshift`, and `getPage` when `paginationField` is given),
 * `update`, `partialUpdate` and `delete`.
 */
export function createResource<const O extends ResourceOptions>(options: Readonly<O>): Resource<O> {
  return buildResource(options, 'createResource') as unknown as Resource<O>;
}

/** What `resource()` adds to `createResource`'s way of building the members. */
export interface BuildOptions {
  /** The options of the list's collection (`resource({ nonFilterArgumentKeys })`). */
  collection?: CollectionOptions;
  /** Options of `getList` alone (`movePath`: where `getList.move` sends its PATCH). */
  list?: Record<string, unknown>;
}

/** The members of a resource; `caller` names the function the options were given to in errors. */
export function buildResource(
  options: ResourceOptions,
  caller: string,
  { collection, list }: BuildOptions = {},
): Resource<ResourceOptions> {
  // Development builds only, as the options' checks in Endpoint: they are written with the resource.
  if (process.env.NODE_ENV !== 'production') checkResourceOptions(options, caller);
  const {
    path,
    schema,
    Endpoint = RestEndpoint,
    Collection: CollectionClass = Collection,
    optimistic,
    paginationField,
    ...shared
  } = options;
  const name = (member: string) => `${(schema as EntityClass).key}.${member}`;
  const listPath = shortenPath(path);
  const base = { urlPrefix: '', ...shared };
  /** Options that make a mutation show `response` before the server answers, when optimistic. */
  const optimisticAs = (
    response: EndpointOptions['getOptimisticResponse'],
  ): Pick<EndpointOptions, 'getOptimisticResponse'> =>
    optimistic ? { getOptimisticResponse: response } : {};

  const get = new Endpoint({ ...base, path, schema, name: name('get') });
  const getList = new Endpoint({
    ...base,
    path: listPath,
    schema: new CollectionClass([schema], collection),
    name: name('getList'),
    paginationField,
    ...list,
    // push / unshift derive from getList: their optimistic response is the body over the URL
    // parameters, as data-client's, so `push({ userId: 1 }, body)` shows a todo of user 1 (what
    // the server makes of it) while it waits.
    ...optimisticAs(optimisticUpdate),
  });
  const update = new Endpoint({
    ...base,
    path,
    schema,
    method: 'PUT',
    name: name('update'),
    ...optimisticAs(optimisticUpdate),
  });
  const partialUpdate = new Endpoint({
    ...base,
    path,
    schema,
    method: 'PATCH',
    name: name('partialUpdate'),
    ...optimisticAs(optimisticPatch(get)),
  });
  const remove = new Endpoint({
    ...base,
    path,
    schema: new Invalidate(schema as EntityClass),
    method: 'DELETE',
    name: name('delete'),
    process: (value: unknown, params: unknown) => {
      const answer = trimmedPk(value);
      return namesDeleted(schema, answer, params) ? answer : params;
    },
    ...optimisticAs(optimisticDelete),
  });
  return withExtend(
    {
      get,
      getList,
      create: getList.push.extend({ name: name('create') }),
      update,
      partialUpdate,
      delete: remove,
    },
    optimistic === true,
  ) as unknown as Resource<ResourceOptions>;
}

/** Refuses options a resource cannot be made of, saying which option is wrong and why. */
function checkResourceOptions(options: ResourceOptions, caller: string): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `${caller} takes one options object ({ path, schema, ... }), not ${describeValue(options)}`,
    );
  }
  const {
    path,
    schema,
    paginationField,
    Endpoint = RestEndpoint,
    Collection: CollectionClass = Collection,
  } = options;
  if (typeof path !== 'string') {
    throw new TypeError(
      `${caller}: path must be a string like "/todos/:id", not ${describeValue(path)}`,
    );
  }
  if (schema === undefined || schema === null) {
    throw new TypeError(`${caller}: schema is required (an Entity class, or a schema of one)`);
  }
  // Anything else would be called with `new`: a RestEndpoint *instance* is callable, and calling
  // it would send a request with the options as its query.
  if (!isSubclass(Endpoint, RestEndpoint)) {
    throw new TypeError(
      `${caller}: Endpoint must be RestEndpoint or a class that extends it, not ${describeClassOption(Endpoint)}`,
    );
  }
  if (!isSubclass(CollectionClass, Collection)) {
    throw new TypeError(
      `${caller}: Collection must be schema.Collection or a class that extends it, not ${describeClassOption(CollectionClass)}`,
    );
  }
  if (
    paginationField !== undefined &&
    (typeof paginationField !== 'string' || paginationField === '')
  ) {
    throw new TypeError(
      `${caller}: paginationField must name the page's query parameter, not ${describeValue(paginationField)}`,
    );
  }
  if (!path.includes(':')) {
    throw new TypeError(
      `${caller}: path "${path}" needs at least one :parameter (the entity's identifier)`,
    );
  }
}

/**
 * Whether a delete's answer names the entity it removed: an object holding what the entity's
 * pk is computed from, or the pk as a string (spec 4.2). Anything else a server may answer — a
 * count such as `1`, `true`, a list, an object without the pk, nothing — names nothing, and the
 * entity the URL parameters name is the one deleted. A union's member cannot be told from a bare
 * pk, so for a union only an object names one.
 */
function namesDeleted(schema: EntityClass | UnionSchema, value: unknown, params: unknown): boolean {
  if (typeof value === 'string') return value !== '' && !isUnion(schema);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const args = [params];
  try {
    const entity = isUnion(schema) ? schema.memberOf(value as Record<string, unknown>) : schema;
    const row = entity.process(value as Record<string, unknown>, undefined, undefined, args);
    return pkOf(entity, row, undefined, undefined, args) !== undefined;
  } catch {
    return false;
  }
}

/**
 * A pk answered as text usually ends with a line break (`3\n`), which is no part of it: left in,
 * it would invalidate an entity `"3\n"` that does not exist and leave the deleted one showing.
 * An answer of whitespace alone names nothing.
 */
function trimmedPk(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/**
 * A delete shows at once what its `process` makes of an empty answer: the URL parameters for
 * `delete` (4.2 rule 3), the objects built from the ids for a batch delete (4.5, "also when
 * optimistic updates are used"), whichever member it was extended into. When that is nothing
 * there is nothing to show until the server answers.
 */
function optimisticDelete(this: RestEndpoint, _snapshot: SnapshotInterface, ...args: unknown[]) {
  const result = this.process(null, ...args);
  if (result === undefined || result === null) throw new AbortOptimistic();
  return result;
}

/** Whether `value` is the class `base` or one derived from it (not an instance, not any function). */
function isSubclass(value: unknown, base: abstract new (...args: never[]) => unknown): boolean {
  return value === base || (typeof value === 'function' && value.prototype instanceof base);
}

/** A wrong `Endpoint` or `Collection` option as its author would recognize it. */
function describeClassOption(value: unknown): string {
  if (value instanceof RestEndpoint || value instanceof Collection) {
    return `an instance of ${value.constructor.name} (pass the class itself)`;
  }
  if (typeof value === 'function') return `the class or function ${value.name || '(anonymous)'}`;
  return describeValue(value);
}

/**
 * `partialUpdate`'s optimistic response: the stored entity (as `get` reads it) with the URL
 * parameters and the body over it.
 */
function optimisticPatch(get: RestEndpoint) {
  return (snapshot: SnapshotInterface, params: Record<string, unknown>, body: unknown) => {
    const { data } = snapshot.getResponse(get, params);
    // Nothing stored to patch: show nothing until the server answers.
    if (!data) throw new AbortOptimistic();
    return { ...params, ...(data as object), ...(plainBody(body) as object) };
  };
}

function optimisticUpdate(_snapshot: SnapshotInterface, params: unknown, body: unknown) {
  return { ...(params as object), ...(plainBody(body) as object) };
}

type AnyMembers = Record<string, RestEndpoint>;

/** `Todo` for members named `Todo.get`, … */
const resourceName = (members: AnyMembers) =>
  (members.get as RestEndpoint).name.replace(/\.get$/, '');

/** Gives a set of members the three-form `extend`. */
function withExtend<M extends AnyMembers>(
  members: M,
  optimistic: boolean,
): M & { extend: ResourceExtend<M> } {
  const extend = (first: unknown, second?: unknown) => {
    // Development builds only, as the options' checks in Endpoint: extends are written with the
    // resource.
    if (process.env.NODE_ENV !== 'production') checkExtendArguments(members, first, second);
    if (typeof first === 'function') {
      const built = (first as (base: M) => unknown)(members);
      if (process.env.NODE_ENV !== 'production') checkBuiltMembers(built);
      return withExtend(
        { ...members, ...namedAfterKeys(members, built as AnyMembers) },
        optimistic,
      );
    }
    if (typeof first === 'string') {
      // A new member starts from `get` and is named after its key, e.g. `Todo.deleteMany`. Only
      // an own member is existing: `constructor` or `toString` is a new member like any other.
      const existing = ownMember(members, first);
      const options: Partial<RestEndpointOptions> = {
        ...(existing ? {} : { name: `${resourceName(members)}.${first}` }),
        // `optimistic: true` makes all mutations optimistic (4.8): a new DELETE member (a batch
        // delete, 4.5) too, though it starts from `get`. Other new mutations have no result
        // that can be told from their arguments, so they wait for the server.
        ...(!existing && optimistic && isDelete(second)
          ? { getOptimisticResponse: optimisticDelete }
          : {}),
        ...(second as object),
      };
      const next: AnyMembers = { ...members };
      setOwn(next, first, (existing ?? (members.get as RestEndpoint)).extend(options));
      return withExtend(next as M, optimistic);
    }
    const overrides = first as Record<string, Partial<RestEndpointOptions>>;
    const next: AnyMembers = { ...members };
    for (const [key, options] of Object.entries(overrides))
      setOwn(next, key, (ownMember(members, key) as RestEndpoint).extend(options));
    return withExtend(next, optimistic);
  };
  // Read by the stores' registries of endpoints, which only development builds keep.
  if (process.env.NODE_ENV !== 'production') linkMembers(members);
  return { ...members, extend: extend as ResourceExtend<M> };
}

/** The resource's own endpoint member of that name (not `Object.prototype`'s `constructor`). */
function ownMember(members: AnyMembers, key: string): RestEndpoint | undefined {
  const member = getOwn(members, key) as RestEndpoint | undefined;
  return typeof member?.extend === 'function' ? member : undefined;
}

/**
 * Refuses `extend` arguments of none of its three forms, options that are not an object, and
 * overrides of members the resource lacks. (What a function returns: checkBuiltMembers.)
 */
function checkExtendArguments(members: AnyMembers, first: unknown, second: unknown): void {
  if (typeof first === 'function') return;
  if (typeof first === 'string') {
    checkMemberName(first);
    if (second !== undefined && !isOptionsObject(second)) {
      throw new TypeError(
        `resource.extend("${first}", options): options must be an object, not ${describeValue(second)}`,
      );
    }
    return;
  }
  if (!isOptionsObject(first)) {
    throw new TypeError(
      `resource.extend expects an object of member overrides, a member name and options, or a function, not ${describeValue(first)}`,
    );
  }
  for (const key of Object.keys(first)) {
    if (!ownMember(members, key))
      throw new TypeError(
        `resource.extend: no member "${key}" (members: ${Object.keys(members).join(', ')})`,
      );
  }
}

/** What `extend`'s function form returned must be an object of members, none of them `extend`. */
function checkBuiltMembers(built: unknown): void {
  if (!isOptionsObject(built)) {
    throw new TypeError(
      `resource.extend: the function must return an object of members, not ${describeValue(built)}`,
    );
  }
  for (const key of Object.keys(built)) checkMemberName(key);
}

/** `extend` is the resource's own method: a member of that name (or none) would be lost. */
function checkMemberName(key: string): void {
  if (key === '' || key === 'extend')
    throw new TypeError(
      `resource.extend: ${JSON.stringify(key)} cannot name a member${key === '' ? '' : " (it is the resource's extend method)"}`,
    );
}

function isDelete(options: unknown): boolean {
  return (options as { method?: unknown } | undefined)?.method === 'DELETE';
}

/** Options and members come as a plain object (not null, a list or a primitive). */
function isOptionsObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A member built from another (`base.getList.extend(...)` returned as `getAll`) would keep the
 * other's name, and replays find endpoints by name: it is named after its own key instead.
 */
function namedAfterKeys(base: AnyMembers, built: AnyMembers): AnyMembers {
  const prefix = resourceName(base);
  return Object.fromEntries(
    Object.entries(built).map(([key, member]) => {
      const borrowed = Object.keys(base).some(
        (other) => other !== key && member.name === `${prefix}.${other}`,
      );
      return [key, borrowed ? member.extend({ name: `${prefix}.${key}` }) : member];
    }),
  );
}

/**
 * Links every member (and getList's push, unshift, getPage) to the others: a store that runs one
 * knows them all by name, for replays.
 */
function linkMembers(members: AnyMembers) {
  const endpoints = Object.values(members).flatMap((member) => {
    if (!findCollection(member.schema) || member.sideEffect) return [member];
    const adders = [member, member.push, member.unshift];
    return member.getPage ? [...adders, member.getPage] : adders;
  });
  linkResource(endpoints);
}
