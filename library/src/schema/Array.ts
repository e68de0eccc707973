import type { Schema } from './denormalizeTypes.js';
import { ListSchema } from './List.js';
import { memberSchema } from './Polymorphic.js';
import type { SchemaAttribute } from './Union.js';

/**
 * A list of one schema, as `[Todo]` is: `new schema.Array(Todo)`. A list of several entity
 * types: `new schema.Array({ post: Post, comment: Comment }, 'type')` (see UnionSchema).
 */
export class ArraySchema<S = unknown> extends ListSchema<S> {
  constructor(definition: S, schemaAttribute?: SchemaAttribute) {
    super(memberSchema(definition, schemaAttribute), schemaAttribute);
  }

  /**
   * A collection of `[Todo]` keeps its rows as a ListSchema, so that an app that never imports
   * schema.Array ships no schema.Union; such a list is still `instanceof schema.Array`, as in
   * data-client, where code tells a list collection from a `schema.Values` one by this test.
   * A subclass of ArraySchema tests as classes do. The value narrows to the class's instances,
   * keeping its members' schema (`collection.schema.schema` stays `typeof Todo`).
   */
  static override [Symbol.hasInstance]<C extends abstract new (...args: any) => unknown, T>(
    this: C,
    value: T,
  ): value is T & InstanceType<C> {
    return (this as unknown) === ArraySchema
      ? value instanceof ListSchema
      : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  /**
   * Replaces the definition (`const feed = new schema.Array({}, 'type'); feed.define({ post: Post,
   * link: Link })`), keeping the schema attribute given to the constructor, as data-client does.
   */
  override define(definition: Schema): void {
    super.define(memberSchema(definition, this.schemaAttribute));
  }
}
