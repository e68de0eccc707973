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
   * Replaces the definition (`const feed = new schema.Array({}, 'type'); feed.define({ post: Post,
   * link: Link })`), keeping the schema attribute given to the constructor, as data-client does.
   */
  override define(definition: Schema): void {
    super.define(memberSchema(definition, this.schemaAttribute));
  }
}
