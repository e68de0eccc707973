import type { AllSchema } from './All.js';
import type { ArraySchema } from './Array.js';
import type { Collection, CollectionAdder, MemberOf } from './Collection.js';
import type { Invalidate } from './Invalidate.js';
import type { ObjectSchema } from './Object.js';
import type { SchemaClass } from './types.js';
import type { UnionSchema } from './Union.js';
import type { ValuesSchema } from './Values.js';

/** Anything that can describe a response: schema classes, `[S]`, plain objects of schemas. */
export type Schema = SchemaClass | readonly [unknown] | { readonly [key: string]: unknown } | null;

/**
 * The value a schema reads back as: entity instances where the response had entity objects
 * (and instances of a field's class, e.g. `Date`).
 * A member that is no schema (`total: 0` in `{ results, total: 0 }`) is a placeholder for a
 * plain value: it reads as its type, `number`, not the literal `0`.
 */
export type Denormalize<S> = S extends abstract new (
  ...args: any
) => infer T
  ? T
  : S extends CollectionAdder<infer M, infer Shape>
    ? Shape extends 'list'
      ? Denormalize<M>
      : Denormalize<MemberOf<M>>
    : S extends Collection<infer M>
      ? Denormalize<M>
      : S extends ArraySchema<infer M> | AllSchema<infer M>
        ? DenormalizeMember<M>[]
        : S extends ValuesSchema<infer M>
          ? Record<string, DenormalizeMember<M>>
          : S extends UnionSchema<infer Choices>
            ? Denormalize<Choices[keyof Choices]>
            : S extends Invalidate<infer E>
              ? Denormalize<E>
              : S extends ObjectSchema<infer O>
                ? DenormalizeMembers<O>
                : S extends readonly (infer M)[]
                  ? Denormalize<M>[]
                  : S extends SchemaClass
                    ? unknown
                    : S extends Record<string, unknown>
                      ? DenormalizeMembers<S>
                      : Deserialized<Widen<S>>;

/**
 * A schema.Array's or schema.Values' member: of the polymorphic form
 * (`new schema.Array({ post: Post, comment: Comment }, 'type')`), any of those entities.
 */
type DenormalizeMember<M> = M extends abstract new (
  ...args: any
) => unknown
  ? Denormalize<M>
  : M extends { readonly [name: string]: abstract new (...args: any) => infer T }
    ? T
    : Denormalize<M>;

type DenormalizeMembers<O> = { -readonly [K in keyof O]: Denormalize<O[K]> };

/** A literal type as its base type (`''` → string, `0` → number, `true` → boolean). */
export type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T;

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
