import { ownValue } from '../normalize/ownValues.js';
import { definitionsChanged, Recomputed } from './definitions.js';
import type { Schema } from './denormalizeTypes.js';
import { describeValue, getOwn, SchemaError, setOwn } from './describe.js';
import { INVALID, isInvalid } from './invalid.js';
import {
  type DenormalizeContext,
  isSchemaClass,
  type NormalizeContext,
  type QueryContext,
  type SchemaClass,
} from './types.js';

/** The members that have a schema; the others (`total: 0`) are placeholders for plain values. */
function fieldsWithSchemas(definition: Record<string, unknown>): string[] {
  return Object.keys(definition).filter((field) => {
    const member = definition[field];
    return typeof member === 'object' || typeof member === 'function';
  });
}

/**
 * A member's definition that is a placeholder for a plain value (`nextPage: ''`, `total: 0`,
 * `next: null`) rather than a schema: it reads as itself where nothing is stored.
 */
function isPlaceholder(member: unknown): boolean {
  return (typeof member !== 'object' && typeof member !== 'function') || member === null;
}

/**
 * A member's definition that has a schema, but no data of its own to find: a plain function or
 * class of a field (`createdAt: Date`) converts a value the response brings.
 */
function isConverter(member: unknown): boolean {
  return typeof member === 'function' && !isSchemaClass(member);
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
  /** What `emptyReading` gives, made again after a `define()` (of this schema or a member's). */
  private readonly empty = new Recomputed(() => this.readWithNothing());

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
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `expected an object but received ${describeValue(input)}`
          : 'expected an object',
        input,
      );
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

  /**
   * The object these arguments would have as a result, found from the tables as data-client's
   * `infer` finds it: each member with a schema as that schema finds it, placeholders as they
   * are. Undefined when a member cannot be found, as a result never fetched.
   */
  queryKey(args: readonly unknown[], ctx: QueryContext): Record<string, unknown> | undefined {
    const out: Record<string, unknown> = {};
    for (const field of Object.keys(this.definition)) {
      const member = this.definition[field];
      if (isConverter(member)) continue;
      const found = isPlaceholder(member) ? member : ctx.find(member, args);
      if (found === undefined) return undefined;
      setOwn(out, field, found);
    }
    return out;
  }

  /**
   * What the object reads as while nothing is stored for it (arguments `null`, or before its
   * first response): its placeholders (`nextPage: ''`), nested objects as theirs, and members
   * with a schema undefined, as data-client reads it. A component can then destructure it
   * (`const { results, nextPage } = useSuspense(list, ready ? args : null)`).
   */
  emptyReading(): Record<string, unknown> {
    return this.empty.get();
  }

  private readWithNothing(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const field of Object.keys(this.definition)) {
      const member = this.definition[field];
      setOwn(out, field, isPlaceholder(member) ? member : emptyMember(member));
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

/** A member's reading with nothing stored: a nested object's shape, or undefined. */
function emptyMember(member: unknown): unknown {
  if (member instanceof ObjectSchema) return member.emptyReading();
  if (typeof member !== 'object' || member === null || Array.isArray(member)) return undefined;
  if (isSchemaClass(member)) return undefined;
  return new ObjectSchema(member as Record<string, unknown>).emptyReading();
}
