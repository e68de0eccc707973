import { describeValue, SchemaError } from './describe.js';
import type { EntityStatics } from './types.js';

/**
 * The pk the tables key an entity by: `entity.pk(...)` as text, undefined when missing. A class
 * may override the static `pk` (data-client documents it), which may return a number or an empty
 * value: every caller goes through here so that such an entity is stored and found under one key.
 */
export function pkOf(
  entity: Pick<EntityStatics, 'key' | 'pk'>,
  value: Record<string, unknown>,
  parent?: unknown,
  key?: string,
  args?: readonly unknown[],
): string | undefined {
  return asPk(entity, entity.pk(value, parent, key, args), value);
}

/** A pk() result as text; undefined for the forms a missing identifier takes. */
export function asPk(
  entity: Pick<EntityStatics, 'key'>,
  pk: unknown,
  value: Record<string, unknown>,
): string | undefined {
  // 'undefined' is what the documented `${this.id}` pattern yields for a missing id; the
  // reference library treats it as missing too (rather than storing an entity under "undefined").
  if (
    pk === undefined ||
    pk === null ||
    pk === '' ||
    pk === 'undefined' ||
    (typeof pk === 'number' && Number.isNaN(pk))
  )
    return undefined;
  // Anything else would be stored under its text, `[object Object]` or `1,2`, where
  // different values meet.
  if (typeof pk !== 'string' && typeof pk !== 'number') {
    throw new SchemaError(
      process.env.NODE_ENV !== 'production'
        ? `${entity.key}.pk() returned ${describeValue(pk)} for ${describeValue(value)}: a pk must be a string or a number`
        : `${entity.key}.pk() returned no string or number`,
      value,
    );
  }
  // The number to check: the pk, or the id that `${this.id}` made the text of (already rounded).
  const number = typeof pk === 'number' ? pk : value.id;
  if (typeof number === 'number' && !isSafePk(number) && String(number) === String(pk)) {
    const field = process.env.NODE_ENV !== 'production' ? `.${fieldHolding(value, number)}` : '';
    throw unsafePkError(entity.key + field, number, value);
  }
  return String(pk);
}

/**
 * A pk given as itself rather than computed by `pk()` (a relation's `author: 9` in `field`, a
 * delete answered with the id), as text.
 */
export function givenPk(
  entity: Pick<EntityStatics, 'key'>,
  pk: string | number,
  field: string | undefined,
  input: unknown,
): string {
  if (typeof pk === 'number' && !isSafePk(pk))
    throw unsafePkError(
      `the ${entity.key} ${field === undefined ? 'pk' : `in ${field}`}`,
      pk,
      input,
    );
  return String(pk);
}

/**
 * Whether a numeric pk is exact. JSON.parse rounds integers beyond Number.MAX_SAFE_INTEGER to a
 * neighbour (9007199254740993 reads as 9007199254740992), so two entities would meet under one pk.
 */
function isSafePk(pk: number): boolean {
  return Math.abs(pk) <= Number.MAX_SAFE_INTEGER;
}

/** The field of `value` holding `pk` (what a `pk()` returning a number most likely read). */
function fieldHolding(value: Record<string, unknown>, pk: number): string {
  return Object.keys(value).find((field) => value[field] === pk) ?? 'pk()';
}

/** `where` names the value, e.g. `Todo.id` or `the User in author`. */
function unsafePkError(where: string, pk: number, input: unknown): SchemaError {
  return new SchemaError(
    process.env.NODE_ENV !== 'production'
      ? `${where} is ${pk} (as parsed), beyond Number.MAX_SAFE_INTEGER (${Number.MAX_SAFE_INTEGER}): ` +
          'a JSON number that large loses digits when it is parsed, so different entities could be ' +
          "stored as one. Send such ids as strings, or override the endpoint's parseResponse to " +
          'read the body as text and keep such ids as strings'
      : `${where} is ${pk}, beyond Number.MAX_SAFE_INTEGER`,
    input,
  );
}
