import { ownValue } from '../normalize/ownValues.js';
import { definitionsChanged } from './definitions.js';
import type { Schema } from './denormalizeTypes.js';
import { describeValue, getOwn, SchemaError, setOwn } from './describe.js';
import { INVALID, isInvalid } from './invalid.js';
import type { DenormalizeContext, NormalizeContext, SchemaClass } from './types.js';

/** The members that have a schema; the others (`total: 0`) are placeholders for plain values. */
function fieldsWithSchemas(definition: Record<string, unknown>): string[] {
  return Object.keys(definition).filter((field) => {
    const member = definition[field];
    return typeof member === 'object' || typeof member === 'function';
  });
}

/**
 * A response object whose members have schemas, e.g. `{ results: collection, total: 0 }`;
 * members without a schema (here `total`) are kept as they came (lists and objects copied, see
 * ownValue).
 */
export class ObjectSchema<S extends Record<string, unknown> = Record<string, unknown>>
  implements SchemaClass
{
  private definition: S;
  private fields: string[];

  constructor(definition: S) {
    this.definition = definition;
    this.fields = fieldsWithSchemas(definition);
  }

  get schema(): S {
    return this.definition;
  }

  /**
   * Adds members to the definition, or replaces those it names, as data-client's does: for
   * objects that refer to each other (`user.define({ posts: new schema.Array(post) })`).
   */
  define(definition: Schema): void {
    this.definition = { ...this.definition, ...definition } as S;
    this.fields = fieldsWithSchemas(this.definition);
    definitionsChanged();
  }

  normalize(input: unknown, _parent: unknown, _key: string | undefined, ctx: NormalizeContext) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new SchemaError(`expected an object but received ${describeValue(input)}`, input);
    }
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const field of Object.keys(out)) {
      if (!this.fields.includes(field)) setOwn(out, field, ownValue(out[field]));
    }
    for (const field of this.fields) {
      const value = getOwn(out, field);
      if (value !== undefined) out[field] = ctx.visit(this.definition[field], value, input, field);
    }
    return out;
  }

  /** Every member is required: an INVALID member makes the whole object INVALID. */
  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (typeof input !== 'object' || input === null) return input;
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const field of this.fields) {
      // A member the response lacked stays absent (not an own `undefined`), as data-client reads it.
      if (!Object.hasOwn(out, field)) continue;
      const value = ctx.unvisit(this.definition[field], out[field], input, field);
      if (isInvalid(value)) return INVALID;
      out[field] = value;
    }
    return out;
  }
}
