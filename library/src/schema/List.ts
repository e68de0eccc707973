import { definitionsChanged } from './definitions.js';
import type { Schema } from './denormalizeTypes.js';
import { describeValue, SchemaError } from './describe.js';
import {
  type DenormalizeContext,
  isUnion,
  type NormalizeContext,
  type SchemaClass,
} from './types.js';
import type { SchemaAttribute } from './Union.js';

/**
 * The items of a list input. An object of objects (a map keyed by id, `{ "1": {…}, "2": {…} }`)
 * is the list of its values, as in data-client; an object holding any other value is one item
 * sent where a list was expected, and is refused rather than read as a list of its fields.
 */
function listOf(input: unknown): readonly unknown[] {
  if (Array.isArray(input)) return input;
  if (typeof input === 'object' && input !== null) {
    const values = Object.values(input);
    if (values.every((value) => typeof value === 'object')) return values;
  }
  throw new SchemaError(
    process.env.NODE_ENV !== 'production'
      ? `expected a list but received ${describeValue(input)}`
      : 'expected a list',
    input,
  );
}

/**
 * A list of one schema: what `[Todo]` stands for, and a Collection's rows. `schema.Array`
 * (ArraySchema) is this list with data-client's polymorphic form added; the shorthand is read
 * as this class, so that an app that never writes the polymorphic form ships no schema.Union.
 */
export class ListSchema<S = unknown> implements SchemaClass {
  constructor(
    private member: S,
    /**
     * The polymorphic form's attribute, which ArraySchema's `define` keeps. Declared here rather
     * than there so that the two are one type: a Collection's `schema` reads as `schema.Array<T>`.
     */
    protected readonly schemaAttribute?: SchemaAttribute,
  ) {}

  /** The members' schema. */
  get schema(): S {
    return this.member;
  }

  /** Replaces the members' schema, for schemas that refer to each other or are known later. */
  define(definition: Schema): void {
    this.member = definition as S;
    definitionsChanged();
  }

  /**
   * Each item sees the list's parent, as data-client's items do (a comment's `process` reads the
   * post it is listed in); a response that is itself the list is its items' parent.
   */
  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): unknown[] {
    return ctx.visitItems(this.schema, listOf(input), parent ?? input, key, this.keepsNull);
  }

  /**
   * A list of several entity types keeps its null items in their places, as data-client does: a
   * feed may mark an item it cannot show with null. (A Collection's row holds entities only.)
   */
  private get keepsNull(): boolean {
    return isUnion(this.schema);
  }

  /**
   * Members that are INVALID or missing from the table are left out of the list. The input is a
   * list of pks: an array, or a collection row's member list.
   */
  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (typeof input !== 'object' || input === null || !(Symbol.iterator in input)) return input;
    return ctx.unvisitItems(this.schema, input as Iterable<unknown>, this.keepsNull);
  }
}
