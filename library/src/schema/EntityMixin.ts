import { describeValue } from './describe.js';
import { Entity, type EntityClass } from './Entity.js';

type Constructor = abstract new (...args: any[]) => object;

/** The entity statics an option may replace, as on a class that extends Entity. */
type LifecycleStatics = Partial<
  Pick<
    typeof Entity,
    'process' | 'merge' | 'validate' | 'useIncoming' | 'shouldReorder' | 'mergeWithStore'
  >
>;

/** What `schema.Entity(Base, options)` adds to the fields of `Base`, as data-client's. */
export interface EntityOptions<T> extends LifecycleStatics {
  /**
   * The field that holds the pk, or a function of the instance that returns it. Default: the
   * base class's own `pk()`, else its `id` field.
   */
  readonly pk?:
    | Extract<keyof T, string>
    | ((value: T, parent?: unknown, key?: string) => string | number | undefined);
  /** Names the entity type (the class name by default, which minifiers change). */
  readonly key?: string;
  /** Nested schemas (or a field's class, `createdAt: Date`) by field name, e.g. `{ author: User }`. */
  readonly schema?: { readonly [K in keyof T]?: unknown };
}

/** An instance of the mixed class: the base's fields and a `pk()` (implemented, not abstract). */
type EntityInstance<T> = T & {
  pk(parent?: unknown, key?: string, args?: readonly unknown[]): string | number | undefined;
};

/**
 * data-client's `schema.Entity(Base, options)`: an entity made from a class that only declares
 * fields, e.g. one shared with code that knows nothing of RestLens:
 *
 *   class ArticleData { id = ''; title = ''; author = '' }
 *   class Article extends schema.Entity(ArticleData, { pk: 'id', schema: { author: User } }) {}
 *
 * The result is an entity like any class that extends Entity: Entity's statics (normalize,
 * denormalize, merge, …) are given to it as its own, as they are written for the class they are
 * called on (`this`); `pk()` reads the field named by `options.pk`.
 */
export function EntityMixin<TBase extends Constructor>(
  Base: TBase,
  options: EntityOptions<InstanceType<TBase>> = {},
): EntityClass<EntityInstance<InstanceType<TBase>>> {
  if (typeof Base !== 'function') {
    throw new TypeError(
      `schema.Entity(Base, options): Base is the class that declares the entity's fields, not ${describeValue(Base)}`,
    );
  }
  const { pk, key, schema, ...statics } = options;
  abstract class EntityOf extends Base {}
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Entity))) {
    if (name !== 'prototype' && name !== 'length' && name !== 'name')
      Object.defineProperty(EntityOf, name, descriptor);
  }
  // Entity's `key` is the class's name: the base's, or that of a class that extends this one.
  Object.defineProperty(EntityOf, 'name', { value: Base.name });
  // A base's own `static key` names the type too, as in data-client.
  const baseKey = key ?? ownKeyOf(Base);
  if (baseKey !== undefined)
    Object.defineProperty(EntityOf, 'key', { value: baseKey, writable: true });
  Object.assign(EntityOf, statics, {
    schema: schema ?? (Base as { schema?: unknown }).schema ?? {},
  });
  const prototype = EntityOf.prototype as { pk?: unknown; [field: string]: unknown };
  if (typeof pk === 'function') {
    prototype.pk = function (this: InstanceType<TBase>, parent?: unknown, at?: string) {
      return pk(this, parent, at);
    };
  } else if (pk !== undefined || typeof prototype.pk !== 'function') {
    const field = pk ?? 'id';
    prototype.pk = function (this: Record<string, unknown>) {
      return this[field];
    };
  }
  return EntityOf as unknown as EntityClass<EntityInstance<InstanceType<TBase>>>;
}

/**
 * The `static key` a base class declares (or inherits from a class other than Entity), if any:
 * Entity's own `key` is the class name, which the mixed class works out itself.
 */
function ownKeyOf(Base: Constructor): string | undefined {
  for (let at: object | null = Base; at !== null && at !== Entity; at = Object.getPrototypeOf(at)) {
    const descriptor = Object.getOwnPropertyDescriptor(at, 'key');
    if (descriptor !== undefined)
      return typeof descriptor.value === 'string' ? descriptor.value : undefined;
  }
  return undefined;
}
