import { definitionsChanged } from './definitions.js';
import type { Schema } from './denormalizeTypes.js';
import { type SchemaAttribute, UnionSchema } from './Union.js';

/**
 * The members' schema: `definition`, or the union of its entities when a schema attribute tells
 * them apart (data-client's polymorphic form, `new schema.Array({ post: Post }, 'type')`).
 */
export function memberSchema<S>(definition: S, schemaAttribute: SchemaAttribute | undefined): S {
  return (
    schemaAttribute === undefined
      ? definition
      : new UnionSchema(definition as ConstructorParameters<typeof UnionSchema>[0], schemaAttribute)
  ) as S;
}

/**
 * A schema of members that all have one schema, given as a schema or as entities told apart by
 * a schema attribute: `schema.Values` (`schema.Array` is a ListSchema, see memberSchema).
 */
export abstract class PolymorphicSchema<S> {
  private member: S;

  constructor(
    definition: S,
    private readonly schemaAttribute?: SchemaAttribute,
  ) {
    this.member = memberSchema(definition, schemaAttribute);
  }

  /** The members' schema: the definition, or the union of its entities (polymorphic form). */
  get schema(): S {
    return this.member;
  }

  /**
   * Replaces the definition, for schemas that refer to each other or are known later
   * (`const byId = new schema.Values({}, 'type'); byId.define({ post: Post, link: Link })`). As in
   * data-client, the schema attribute given to the constructor stays, and a `schema.Union` given
   * to a schema without one makes its members that union's.
   */
  define(definition: Schema): void {
    this.member = memberSchema(definition as S, this.schemaAttribute);
    definitionsChanged();
  }
}
