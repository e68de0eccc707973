import { describeValue, SchemaError } from './describe.js';
import { isInvalid } from './invalid.js';
import type { DenormalizeContext, NormalizeContext, SchemaClass } from './types.js';

/** A list of one schema; `[Todo]` is shorthand for `new schema.Array(Todo)`. */
export class ArraySchema<S = unknown> implements SchemaClass {
  constructor(readonly schema: S) {}

  normalize(
    input: unknown,
    _parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): unknown[] {
    if (!Array.isArray(input)) {
      throw new SchemaError(`expected a list but received ${describeValue(input)}`, input);
    }
    return ctx.visitItems(this.schema, input, key);
  }

  /**
   * Members that are INVALID or missing from the table are left out of the list. The input is a
   * list of pks: an array, or a collection row's member list.
   */
  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (typeof input !== 'object' || input === null || !(Symbol.iterator in input)) return input;
    const out: unknown[] = [];
    for (const item of input as Iterable<unknown>) {
      const value = ctx.unvisit(this.schema, item);
      if (value !== undefined && value !== null && !isInvalid(value)) out.push(value);
    }
    return out;
  }
}
