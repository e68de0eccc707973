import { ArraySchema } from './Array.js';
import { Recomputed } from './definitions.js';
import type { Schema } from './denormalizeTypes.js';
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

/** What a schema.All reads. */
interface TablesRead {
  /** The entity types whose tables are read, in the order of the definition. */
  members: readonly EntityStatics[];
  /** The normalized result: their keys, e.g. `Post;Comment`. */
  result: string;
}

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
  /** Normalizes a response, as a list of these members is; holds the definition. */
  private readonly list: ArraySchema<S>;
  /** From the definition, so that a later `define()` (of the All or of its union) changes it. */
  private readonly tables = new Recomputed((): TablesRead => {
    const members =
      this.schema instanceof UnionSchema ? this.schema.members : [this.schema as EntityStatics];
    if (!members.every(isEntity)) {
      throw new SchemaError(
        'schema.All reads entity tables: its definition must be entities',
        this.schema,
      );
    }
    return { members, result: members.map((member) => member.key).join(';') };
  });

  constructor(definition: S, schemaAttribute?: SchemaAttribute) {
    this.list = new ArraySchema(definition, schemaAttribute);
    // Refuses a definition of anything but entities at once, not at the first read.
    this.tables.get();
  }

  /** The member schema: the entity, or the union of the polymorphic form. */
  get schema(): S {
    return this.list.schema;
  }

  /** Replaces the definition, keeping the schema attribute (see schema.Array's `define`). */
  define(definition: Schema): void {
    this.list.define(definition);
    this.tables.get();
  }

  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): string {
    this.list.normalize(input, parent, key, ctx);
    return this.tables.get().result;
  }

  /**
   * The tables' rows, whatever the stored result: a stored result and a found one read the same.
   */
  denormalize(input: unknown, ctx: DenormalizeContext): unknown[] {
    // A response read on its own is the list it holds.
    if (Array.isArray(input)) return this.list.denormalize(input, ctx) as unknown[];
    const out: unknown[] = [];
    for (const member of this.tables.get().members) {
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
    const { members, result } = this.tables.get();
    return members.some((member) => ctx.hasTable(member.key)) ? result : undefined;
  }
}
