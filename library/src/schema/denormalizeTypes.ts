import type { AllSchema } from './All.js';
import type { Collection, CollectionAdder, MemberOf } from './Collection.js';
import type { Invalidate } from './Invalidate.js';
import type { Lazy, LazyQuery } from './Lazy.js';
import type { ListSchema } from './List.js';
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
      : S extends ListSchema<infer M> | AllSchema<infer M>
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
                  : S extends Lazy<infer M>
                    ? Stored<M>
                    : S extends LazyQuery<infer M>
                      ? Denormalize<M>
                      : S extends SchemaClass
                        ? unknown
                        : S extends Record<string, unknown>
                          ? DenormalizeMembers<S>
                          : Deserialized<Widen<S>>;

/**
 * What a `schema.Lazy` field reads as: what is stored, an entity's pk (a string) or a list of
 * them; unknown for other schemas.
 */
type Stored<M> = M extends abstract new (
  ...args: any
) => unknown
  ? string
  : M extends readonly (abstract new (
        ...args: any
      ) => unknown)[]
    ? string[]
    : M extends ListSchema<abstract new (...args: any) => unknown>
      ? string[]
      : unknown;

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

/**
 * The members of an object schema: of a `schema.Object`, or of a plain object of schemas
 * (`{ results: [Todo], nextPage: '' }`); never for any other schema.
 */
type ObjectDefinition<S> =
  S extends ObjectSchema<infer O>
    ? O
    : S extends abstract new (
          ...args: any
        ) => unknown
      ? never
      : S extends SchemaClass | readonly unknown[]
        ? never
        : S extends Record<string, unknown>
          ? S
          : never;

/**
 * What a schema reads as while nothing is stored for it (arguments `null`, or before the first
 * response): an object schema's shape, its members with a schema undefined and its placeholders
 * (`nextPage: ''`) of their type; undefined for any other schema.
 */
export type EmptyReading<S> = [ObjectDefinition<S>] extends [never]
  ? undefined
  : { -readonly [K in keyof ObjectDefinition<S>]: EmptyMember<ObjectDefinition<S>[K]> };

type EmptyMember<M> = M extends Function
  ? undefined
  : M extends object
    ? EmptyReading<M>
    : Denormalize<M>;

/** What a schema reads as, or its empty reading when nothing is stored (`DenormalizeNullable`). */
export type DenormalizeNullable<S> = Denormalize<S> | EmptyReading<S>;

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
