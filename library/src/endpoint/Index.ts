import { describeValue } from '../schema/describe.js';
import type { EntityClass } from '../schema/Entity.js';

/** An entity class with fields to look it up by: `static indexes = ['username'] as const`. */
export type IndexedEntity = EntityClass & { readonly indexes: readonly string[] };

type InstanceOf<S> = S extends abstract new (...args: any) => infer T ? T : never;

/** The fields of `static indexes` that are the entity's (each of them, when written `as const`). */
type IndexedField<S> = S extends { readonly indexes: readonly (infer F)[] }
  ? Extract<F, keyof InstanceOf<S>>
  : never;

/**
 * What an Index of `S` is read with, as data-client types it: its indexed fields, each optional,
 * with their types (`{ username?: string }`). A field that is not indexed does not compile.
 */
export type IndexParams<S> = { readonly [K in IndexedField<S>]?: InstanceOf<S>[K] };

/**
 * An entity looked up by one of its `static indexes`, as data-client's `Index`:
 * `useCache(new Index(User), { username: 'bob' })` or
 * `controller.getResponse(new Index(User), { username }, state)` reads the stored user whose
 * `username` is 'bob' (undefined when none is stored). Like a Query it only reads the store and is
 * never fetched: its data comes from whatever endpoint stored the entity.
 */
export class Index<S extends IndexedEntity, P = IndexParams<S>> {
  readonly schema: S;
  /** The key of a lookup whose params are indexed fields (data-client's by default). */
  private readonly keyOfParams: (params: P) => string;

  constructor(schema: S, key?: (params: P) => string) {
    if (!Array.isArray((schema as { indexes?: unknown } | undefined)?.indexes)) {
      throw new TypeError(
        `new Index(${nameOf(schema)}): an Index looks an entity up by one of its static indexes, and ${nameOf(schema)} declares none`,
      );
    }
    this.schema = schema;
    this.keyOfParams = key ?? ((params) => JSON.stringify(params));
  }

  /**
   * The key of the lookup. Params that cannot find anything are refused here, by name, rather than
   * reading as undefined for ever: a non-object, or a field that is not one of the indexes.
   */
  key(params: P): string {
    const { indexes } = this.schema;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new TypeError(
        `Index of ${nameOf(this.schema)}: read it with an object of indexed fields (${indexes.join(', ')}), not ${describeValue(params)}`,
      );
    }
    const other = Object.keys(params).find((field) => !indexes.includes(field));
    if (other !== undefined) {
      throw new TypeError(
        `Index of ${nameOf(this.schema)}: \`${other}\` is not one of ${nameOf(this.schema)}.indexes (${indexes.join(', ')})`,
      );
    }
    return this.keyOfParams(params);
  }
}

function nameOf(schema: unknown): string {
  return typeof schema === 'function'
    ? String((schema as { key?: unknown }).key)
    : describeValue(schema);
}
