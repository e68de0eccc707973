import { describeValue, getOwn, SchemaError } from './describe.js';
import { INVALID, isInvalid } from './invalid.js';
import type { DenormalizeContext, NormalizeContext, SchemaClass } from './types.js';

/**
 * A response object whose members have schemas, e.g. `{ results: collection, total: 0 }`;
 * members without a schema (here `total`) are kept as they came.
 */
export class ObjectSchema<S extends Record<string, unknown> = Record<string, unknown>>
  implements SchemaClass
{
  private readonly fields: string[];

  constructor(readonly schema: S) {
    this.fields = Object.keys(schema).filter((field) => {
      const member = schema[field];
      return typeof member === 'object' || typeof member === 'function';
    });
  }

  normalize(input: unknown, _parent: unknown, _key: string | undefined, ctx: NormalizeContext) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new SchemaError(`expected an object but received ${describeValue(input)}`, input);
    }
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const field of this.fields) {
      const value = getOwn(out, field);
      if (value !== undefined) out[field] = ctx.visit(this.schema[field], value, input, field);
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
      const value = ctx.unvisit(this.schema[field], out[field]);
      if (isInvalid(value)) return INVALID;
      out[field] = value;
    }
    return out;
  }
}
