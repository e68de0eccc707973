import type { ArraySchema } from './Array.js';
import type { Collection, CollectionAdder } from './Collection.js';
import type { Entity } from './Entity.js';
import type { Invalidate } from './Invalidate.js';
import type { ObjectSchema } from './Object.js';
import type { SchemaClass } from './types.js';
import type { UnionSchema } from './Union.js';
import type { ValuesSchema } from './Values.js';

/** Anything that can describe a response: schema classes, `[S]`, plain objects of schemas. */
export type Schema = SchemaClass | readonly [unknown] | { readonly [key: string]: unknown } | null;

/** The value a schema reads back as: entity instances where the response had entity objects. */
export type Denormalize<S> = S extends { prototype: infer T extends Entity }
  ? T
  : S extends CollectionAdder<infer M, infer Shape>
    ? Shape extends 'list'
      ? Denormalize<M>[]
      : Denormalize<M>
    : S extends Collection<infer M>
      ? Denormalize<M>[]
      : S extends ArraySchema<infer M>
        ? Denormalize<M>[]
        : S extends ValuesSchema<infer M>
          ? Record<string, Denormalize<M>>
          : S extends UnionSchema<infer Choices>
            ? Denormalize<Choices[keyof Choices]>
            : S extends Invalidate<infer E>
              ? Denormalize<E> | undefined
              : S extends ObjectSchema<infer O>
                ? { [K in keyof O]: Denormalize<O[K]> }
                : S extends readonly (infer M)[]
                  ? Denormalize<M>[]
                  : S extends SchemaClass
                    ? unknown
                    : S extends Record<string, unknown>
                      ? { [K in keyof S]: Denormalize<S[K]> }
                      : Deserialized<S>;

/**
 * What a field deserializer reads as: `Date` → Date, `Number` → number,
 * `Temporal.Instant.from` → Temporal.Instant; anything else as it is.
 */
type Deserialized<S> = S extends NumberConstructor
  ? number
  : S extends StringConstructor
    ? string
    : S extends BooleanConstructor
      ? boolean
      : S extends abstract new (
            ...args: any
          ) => infer I
        ? I
        : S extends (...args: any) => infer R
          ? R
          : S;
