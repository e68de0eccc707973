import { describeValue, SchemaError, setOwn } from './describe.js';
import { isInvalid } from './invalid.js';
import { PolymorphicSchema } from './Polymorphic.js';
import type { DenormalizeContext, NormalizeContext, SchemaClass } from './types.js';

/**
 * An object whose every value has the same schema, e.g. `{ [id]: Todo }`; values of several
 * entity types: `new schema.Values({ post: Post, comment: Comment }, 'type')`.
 */
export class ValuesSchema<S = unknown> extends PolymorphicSchema<S> implements SchemaClass {
  /** A list is read as the object of its indexes (`{ "0": …, "1": … }`), as data-client reads it. */
  normalize(input: unknown, _parent: unknown, _key: string | undefined, ctx: NormalizeContext) {
    if (typeof input !== 'object' || input === null) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `expected an object of values but received ${describeValue(input)}`
          : 'expected an object of values',
        input,
      );
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const normalized = ctx.visit(this.schema, value, input, key);
      if (normalized !== undefined && normalized !== null) setOwn(out, key, normalized);
    }
    return out;
  }

  /** INVALID or missing values are left out. */
  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (typeof input !== 'object' || input === null) return input;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const denormalized = ctx.unvisit(this.schema, value, input, key);
      if (denormalized !== undefined && denormalized !== null && !isInvalid(denormalized))
        setOwn(out, key, denormalized);
    }
    return out;
  }
}
