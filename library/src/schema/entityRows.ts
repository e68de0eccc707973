import { ownFields } from '../normalize/ownValues.js';
import { describeValue, getOwn, SchemaError } from './describe.js';
import { givenPk, pkOf } from './entityPk.js';
import { INVALID, type Invalid, isInvalid } from './invalid.js';
import type { DenormalizeContext, EntityStatics, NormalizeContext } from './types.js';

/**
 * `Entity.normalize`: stores a response object as the entity's row (processed, its nested
 * schemas normalized in turn) and gives its pk.
 */
export function normalizeEntity(
  entity: EntityStatics,
  input: unknown,
  parent: unknown,
  key: string | undefined,
  ctx: NormalizeContext,
): string {
  // A nested relation given as its id (e.g. `author: 9`) refers to a stored entity.
  if (parent !== undefined && (typeof input === 'string' || typeof input === 'number')) {
    return givenPk(entity, input, key, parent);
  }
  if (Array.isArray(input) && entity.automaticValidation !== undefined) {
    // The class asked for a list to be read as its object (data-client's escape hatch).
    if (entity.automaticValidation === 'warn' && process.env.NODE_ENV !== 'production')
      console.warn(`${entity.key} expects an object but received ${describeValue(input)}`);
  } else if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new SchemaError(
      process.env.NODE_ENV !== 'production'
        ? `${entity.key} expects an object but received ${describeValue(input)}${
            typeof input === 'string' ? ' (a text response where JSON was expected?)' : ''
          }`
        : `${entity.key} expects an object`,
      input,
    );
  }
  let row = entity.process(input as Record<string, unknown>, parent, key, ctx.args);
  // The row is stored, and its schema fields are written below: a `process` that returns the
  // object it was given would make the caller's object the store's.
  if (row === input) row = { ...row };
  let pk = pkOf(entity, row, parent, key, ctx.args);
  if (pk === undefined) {
    if (!ctx.optimistic) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `${entity.key}.pk() returned undefined for ${describeValue(input)}: the response lacks the ${entity.key} identifier`
          : `${entity.key}.pk() returned undefined`,
        input,
      );
    }
    pk = ctx.placeholderPk();
  }
  // Met inside itself (a cycle, as in a read written back): it is stored where met first.
  if (!ctx.enterEntity(input)) return pk;
  try {
    const problem = refusal(entity, row);
    if (problem !== undefined) {
      throw new SchemaError(`${entity.key} ${JSON.stringify(pk)} is not valid: ${problem}`, input);
    }
    ownFields(row, entity.schema);
    // `for…in` over the schema (a plain object of fields) lists its fields without making an
    // array of them for every entity of a response.
    for (const field in entity.schema) {
      const value = getOwn(row, field);
      if (value !== undefined && value !== null)
        row[field] = ctx.visit(entity.schema[field], value, row, field);
    }
    ctx.mergeEntity(entity, pk, row);
  } finally {
    ctx.leaveEntity();
  }
  return pk;
}

/**
 * Fills an instance built from a stored row with its nested entities read from the tables;
 * INVALID when a required one (a non-null default) cannot be read.
 */
export function denormalizeFields(
  entity: EntityStatics,
  instance: object,
  row: Record<string, unknown>,
  ctx: DenormalizeContext,
): object | Invalid {
  const target = instance as Record<string, unknown>;
  for (const field in entity.schema) {
    const stored = getOwn(row, field);
    if (stored === undefined) continue;
    const value = ctx.unvisit(entity.schema[field], stored, row, field);
    if (isInvalid(value)) {
      // A required relation (non-null default) cannot be shown without its entity.
      const fallback = getOwn(entity.defaults, field);
      if (fallback !== undefined && fallback !== null) return INVALID;
      target[field] = undefined;
    } else {
      target[field] = value;
    }
  }
  return instance;
}

/**
 * Why `validate` refuses a processed row (a non-empty message), or undefined. Any falsy return
 * accepts it, as in data-client: `return !row.title && 'title is required'` gives false for a
 * valid row, and plain JavaScript may return null.
 */
export function refusal(
  entity: Pick<EntityStatics, 'validate'>,
  row: Record<string, unknown>,
): string | undefined {
  return entity.validate(row) || undefined;
}
