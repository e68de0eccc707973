import { describeValue, SchemaError } from './describe.js';
import type { EntityClass } from './Entity.js';
import type { DenormalizeContext, NormalizeContext, SchemaClass } from './types.js';

type SchemaAttribute =
  | string
  | ((input: Record<string, unknown>, parent: unknown, key: string | undefined) => string);

/** One of several entity types, told apart by an attribute of the input. */
export class UnionSchema<Choices extends Record<string, EntityClass> = Record<string, EntityClass>>
  implements SchemaClass
{
  constructor(
    readonly schemas: Choices,
    readonly schemaAttribute: SchemaAttribute,
  ) {
    if (schemaAttribute === undefined) throw new Error('schema.Union needs a schemaAttribute');
  }

  private choose(input: Record<string, unknown>, parent: unknown, key: string | undefined) {
    const name =
      typeof this.schemaAttribute === 'function'
        ? this.schemaAttribute(input, parent, key)
        : input[this.schemaAttribute];
    const schema = this.schemas[name as string];
    if (!schema) {
      throw new SchemaError(
        `schema.Union has no member "${String(name)}" (members: ${Object.keys(this.schemas).join(', ')}) for ${describeValue(input)}`,
        input,
      );
    }
    return { name: name as string, schema };
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext) {
    if (typeof input !== 'object' || input === null) {
      throw new SchemaError(
        `schema.Union expects an object but received ${describeValue(input)}`,
        input,
      );
    }
    const { name, schema } = this.choose(input as Record<string, unknown>, parent, key);
    return { id: ctx.visit(schema, input, parent, key), schema: name };
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (typeof input !== 'object' || input === null) return input;
    const { id, schema } = input as { id: unknown; schema: string };
    const member = this.schemas[schema];
    return member ? ctx.unvisit(member, id) : undefined;
  }
}
