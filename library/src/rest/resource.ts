import { linkResource, resourceOf } from '../endpoint/registry.js';
import type { CollectionOptions } from '../schema/Collection.js';
import {
  Collection,
  type CollectionMover,
  type CollectionRemover,
} from '../schema/CollectionWithMoves.js';
import type { Denormalize, Schema } from '../schema/denormalizeTypes.js';
import { mapCollections, requireCollection } from './collections.js';
import {
  type Body,
  buildResource,
  type Resource,
  type ResourceExtend,
  type ResourceGenerics,
  type ResourceOptions,
  type Search,
  type ShortenPath,
} from './createResource.js';
import { derived } from './listEndpoints.js';
import { RestEndpoint } from './RestEndpoint.js';
import type { RestEndpointOptions } from './types.js';

/** `resource()`'s options: `createResource`'s, and the list's `nonFilterArgumentKeys`. */
export interface CurrentResourceOptions<
  P extends string = string,
  S extends ResourceOptions['schema'] = ResourceOptions['schema'],
> extends ResourceOptions<P, S> {
  /** Passed to the list's collection: argument names that do not choose its members. */
  nonFilterArgumentKeys?: CollectionOptions['nonFilterArgumentKeys'];
}

/** The members `resource()` adds to the list endpoint. */
export interface CollectionMembers<O extends ResourceGenerics> {
  /**
   * PATCH to the list URL: the entity in the body leaves the stored lists that match the URL
   * parameters (and body), and is stored as the server answers it.
   */
  remove: RestEndpoint<{
    path: ShortenPath<O['path']>;
    schema: CollectionRemover<[O['schema']]>;
    method: 'PATCH';
    searchParams: Search<O>;
    /** The entity removed: the fields its pk is computed from, and any it changes. */
    body: Partial<Denormalize<O['schema']>>;
  }>;
  /**
   * PATCH to the entity's URL: the entity leaves the lists its stored values match and joins
   * those its new values (the body, then the answer) match, e.g. a todo given another `userId`.
   */
  move: RestEndpoint<{
    path: O['path'];
    schema: CollectionMover<[O['schema']]>;
    method: 'PATCH';
    body: Partial<Body<O>>;
  }>;
}

/** The members of a resource made by `resource()`: `createResource`'s, and the list's moves. */
export interface CurrentResource<O extends ResourceGenerics> extends Resource<O> {
  getList: Resource<O>['getList'] &
    CollectionMembers<O> & { readonly schema: Collection<[O['schema']]> };
  extend: ResourceExtend<this>;
}

/**
 * Builds the endpoints of a REST resource, as data-client's current `resource()`:
 * `createResource`'s members, with `getList.remove` and `getList.move`, and the list's
 * `nonFilterArgumentKeys` as an option.
 */
export function resource<const O extends CurrentResourceOptions>(
  options: Readonly<O>,
): CurrentResource<O> {
  const {
    nonFilterArgumentKeys,
    Endpoint = RestEndpoint,
    Collection: List = Collection,
    ...rest
  } = options;
  const built = buildResource(
    { ...rest, Endpoint: withCollectionMembers(Endpoint), Collection: List },
    'resource',
    {
      collection: nonFilterArgumentKeys === undefined ? undefined : { nonFilterArgumentKeys },
      list: { movePath: options.path },
    },
  ) as unknown as CurrentResource<O>;
  // Found by name, as the other members are, when a recorded move is replayed.
  if (process.env.NODE_ENV !== 'production')
    linkResource([...resourceOf(built.getList), built.getList.remove, built.getList.move]);
  return built;
}

type EndpointClass = new (options: RestEndpointOptions) => RestEndpoint<any>;

/** Each Endpoint class, with `remove` and `move`: made once per class. */
const withMembers = new WeakMap<EndpointClass, EndpointClass>();

/**
 * The Endpoint class given with `remove` and `move` members, which derive from an endpoint
 * whose schema holds a Collection. A subclass of it, so that its own overrides
 * (`getRequestInit`) apply to them, and `extend()` keeps them.
 */
function withCollectionMembers(Base: EndpointClass): EndpointClass {
  let Class = withMembers.get(Base);
  if (Class === undefined) {
    Class = class extends Base {
      declare readonly movePath?: string;

      get remove(): RestEndpoint {
        // `remove` and `move` act on lists: an endpoint whose schema holds none has neither.
        requireCollection(this, 'remove');
        return derived(this, 'remove', () =>
          this.extend({
            method: 'PATCH',
            schema: mapCollections(
              this.schema,
              (collection) => movesOf(collection).remove,
            ) as Schema,
            name: `${this.name}.remove`,
          }),
        );
      }

      get move(): RestEndpoint {
        requireCollection(this, 'move');
        return derived(this, 'move', () =>
          this.extend({
            method: 'PATCH',
            path: this.movePath ?? this.path,
            // The entity's URL takes its parameters; the list's query does not apply.
            searchParams: undefined,
            schema: mapCollections(this.schema, (collection) => movesOf(collection).move) as Schema,
            name: `${this.name}.move`,
          }),
        );
      }
    };
    // Errors and the devtools name the class the app wrote.
    Object.defineProperty(Class, 'name', { value: Base.name });
    withMembers.set(Base, Class);
  }
  return Class;
}

/**
 * A list's collection, which has `remove` and `move` unless the app built it from the collection
 * `createResource` uses (a `Collection` option extending it, which TypeScript does not accept).
 */
function movesOf(collection: unknown): Collection {
  if (typeof (collection as Collection).moveWith === 'function') return collection as Collection;
  throw new TypeError(
    `${(collection as Collection).key}: remove and move need a schema.Collection (or a class that extends it)`,
  );
}
