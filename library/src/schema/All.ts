import { ArraySchema, memberSchema } from './Array.js';
import { SchemaError } from './describe.js';
import type { EntityClass } from './Entity.js';
import { isInvalid } from './invalid.js';
import {
  type DenormalizeContext,
  type EntityStatics,
  isEntity,
  type NormalizeContext,
  type QueryContext,
  type SchemaClass,
} from './types.js';
import { type SchemaAttribute, UnionSchema } from './Union.js';

/**
 * Every entity of a type the store holds: `new schema.All(Todo)`, or of several types,
 * `new schema.All({ post: Post, comment: Comment }, 'type')`. A response is stored as `[Todo]`'s
 * is, but the reading is the whole table (in the table's order, deleted entities left out), so
 * an entity stored by any other call is in it too.
 *
 * Its normalized result names the tables it reads rather than the rows a response listed: the
 * same result is found from the tables alone (`queryKey`), with no stored result needed.
 */
export class AllSchema<S extends EntityClass | Record<string, EntityClass> = EntityClass>
  implements SchemaClass
{
  /** The member schema: the entity, or the union of the polymorphic form. */
  readonly schema: S;
  /** Normalizes a response: it is stored as a list of these members is. */
  private readonly list: ArraySchema<S>;
  /** The entity types whose tables are read, in the order of the definition. */
  private readonly members: readonly EntityStatics[];
  private readonly result: string;

  constructor(definition: S, schemaAttribute?: SchemaAttribute) {
    this.schema = memberSchema(definition, schemaAttribute);
    this.list = new ArraySchema(this.schema);
    const members =
      this.schema instanceof UnionSchema ? this.schema.members : [this.schema as EntityStatics];
    if (!members.every(isEntity)) {
      throw new SchemaError(
        'schema.All reads entity tables: its definition must be entities',
        definition,
      );
    }
    this.members = members;
    this.result = members.map((member) => member.key).join(';');
  }

  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): string {
    this.list.normalize(input, parent, key, ctx);
    return this.result;
  }

  /** The tables' rows, whatever the result: a stored result and a found one read the same. */
  denormalize(_input: unknown, ctx: DenormalizeContext): unknown[] {
    const out: unknown[] = [];
    for (const member of this.members) {
      const table = ctx.readTable(member.key);
      if (table === undefined) continue;
      for (const pk of table.keys()) {
        const value = ctx.unvisit(member, pk);
        if (value !== undefined && value !== null && !isInvalid(value)) out.push(value);
      }
    }
    return out;
  }

  /**
   * Found once the store holds a table of a member: before any entity of these types was
   * stored there is nothing to read (undefined, as for a result never fetched), after it an
   * empty table reads as `[]`.
   */
  queryKey(_args: readonly unknown[], ctx: QueryContext): string | undefined {
    return this.members.some((member) => ctx.hasTable(member.key)) ? this.result : undefined;
  }
}
