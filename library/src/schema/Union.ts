import { ownValue } from '../normalize/ownValues.js';
import { definitionsChanged } from './definitions.js';
import type { Schema } from './denormalizeTypes.js';
import { describeValue, SchemaError } from './describe.js';
import type { EntityClass } from './Entity.js';
import {
  type DenormalizeContext,
  type EntityStatics,
  isEntity,
  type NormalizeContext,
  type SchemaClass,
} from './types.js';
import { parseUnionRef, unionRef } from './unionRef.js';

/** How a union tells its members apart: an attribute's name, or a function of the input. */
export type SchemaAttribute =
  | string
  | ((input: Record<string, unknown>, parent: unknown, key: string | undefined) => string);

/** Members by their entity key: a stored union reference names its member so. */
function membersByEntityKey(choices: Record<string, EntityClass>): Map<string, EntityStatics> {
  const members = new Map<string, EntityStatics>();
  for (const member of Object.values(choices) as unknown[]) {
    if (isEntity(member)) members.set(member.key, member);
  }
  return members;
}

/**
 * One of several entity types, told apart by an attribute of the input:
 * `new schema.Union({ post: Post, comment: Comment }, 'type')`. It works as an endpoint's or a
 * resource's schema, in a list, a Collection or an entity field.
 */
export class UnionSchema<Choices extends Record<string, EntityClass> = Record<string, EntityClass>>
  implements SchemaClass
{
  private choices: Choices;
  private byEntityKey: Map<string, EntityStatics>;

  constructor(
    schemas: Choices,
    readonly schemaAttribute: SchemaAttribute,
  ) {
    // Development builds only, as the options' checks in Endpoint: a schema is written once.
    if (process.env.NODE_ENV !== 'production' && schemaAttribute === undefined)
      throw new Error('schema.Union needs a schemaAttribute');
    this.choices = schemas;
    this.byEntityKey = membersByEntityKey(schemas);
  }

  /** The members by the names the schema attribute gives them. */
  get schemas(): Choices {
    return this.choices;
  }

  /**
   * Replaces the members, keeping the schema attribute, as data-client's does: for members
   * known later than the union (`union.define({ post: Post, link: Link })`).
   */
  define(definition: Schema): void {
    this.choices = definition as Choices;
    this.byEntityKey = membersByEntityKey(this.choices);
    definitionsChanged();
  }

  /** The member entity types' keys, e.g. `Post;Comment`: names the union's endpoints and lists. */
  get key(): string {
    return [...this.byEntityKey.keys()].join(';');
  }

  /** The member entity types. */
  get members(): readonly EntityStatics[] {
    return [...this.byEntityKey.values()];
  }

  /** What the schema attribute says an input object is (a key of the definition, or not). */
  private nameOf(input: Record<string, unknown>, parent?: unknown, key?: string): unknown {
    return typeof this.schemaAttribute === 'function'
      ? this.schemaAttribute(input, parent, key)
      : input[this.schemaAttribute];
  }

  /** The member of that name; undefined when the definition has none. */
  private memberCalled(name: unknown): EntityStatics | undefined {
    return Object.hasOwn(this.choices, name as string)
      ? (this.choices[name as string] as unknown as EntityStatics)
      : undefined;
  }

  /** The member an input object is, by the schema attribute; a SchemaError when it names none. */
  memberOf(input: Record<string, unknown>, parent?: unknown, key?: string): EntityStatics {
    const name = this.nameOf(input, parent, key);
    const member = this.memberCalled(name);
    if (!member) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `schema.Union has no member "${String(name)}" (members: ${Object.keys(this.choices).join(', ')}) for ${describeValue(input)}`
          : `schema.Union has no member "${String(name)}"`,
        input,
      );
    }
    return member;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `schema.Union expects an object but received ${describeValue(input)}`
          : 'schema.Union expects an object',
        input,
      );
    }
    const member = this.memberCalled(this.nameOf(input as Record<string, unknown>, parent, key));
    // An object of a type the union does not name is kept as it came (copied, see ownValue), with
    // no entity made of it (data-client's documented rule), so a new kind of item does not fail
    // the whole response.
    if (!member) return ownValue(input);
    // A polymorphic list's member may be a schema that is not an entity (an object holding
    // entities): it is stored as that schema normalizes it, and read back by its attribute.
    if (!isEntity(member)) return ctx.visit(member, input, parent, key);
    const pk = ctx.visit(member, input, parent, key) as string;
    return unionRef(member.key, pk);
  }

  /**
   * A union reference; an object (a response read on its own) as the member its schema attribute
   * names, or as it came when it names none, as normalize keeps it.
   */
  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      const member = this.memberCalled(this.nameOf(input as Record<string, unknown>));
      return member ? ctx.unvisit(member, input) : input;
    }
    if (typeof input !== 'string') return input;
    const ref = parseUnionRef(input);
    const member = ref && this.byEntityKey.get(ref[0]);
    return member && ref ? ctx.unvisit(member, ref[1]) : undefined;
  }
}
