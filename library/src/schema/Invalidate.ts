import { describeValue, SchemaError } from './describe.js';
import type { EntityClass } from './Entity.js';
import { givenPk, pkOf } from './Entity.js';
import {
  type DenormalizeContext,
  type EntityStatics,
  isEntity,
  isUnion,
  type NormalizeContext,
  type SchemaClass,
} from './types.js';
import type { UnionSchema } from './Union.js';
import { unionRef } from './unionRef.js';

/**
 * Marks the entity its input identifies as INVALID: the pk as a string or number, or an object
 * from which `pk()` is computed. The entity leaves every collection, and results that require it
 * must be fetched again. Given a `schema.Union`, the input object's attribute tells which member
 * it is (a bare pk cannot).
 */
export class Invalidate<E extends EntityClass | UnionSchema = EntityClass> implements SchemaClass {
  constructor(readonly entity: E) {
    // Development builds only, as the options' checks in Endpoint: a schema is written once.
    if (process.env.NODE_ENV !== 'production' && !isEntity(entity) && !isUnion(entity)) {
      throw new Error(
        `schema.Invalidate expects an Entity class or a schema.Union but received ${describeValue(entity)}`,
      );
    }
  }

  get key(): string {
    return this.entity.key;
  }

  normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): string {
    const union = isUnion(this.entity) ? this.entity : undefined;
    let entity: EntityStatics | undefined = union ? undefined : (this.entity as EntityStatics);
    let pk: string | undefined;
    if (typeof input === 'string' || typeof input === 'number') {
      if (entity) pk = input === '' ? undefined : givenPk(entity, input, undefined, input);
    } else if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      const object = input as Record<string, unknown>;
      entity ??= union?.memberOf(object, parent, key);
      if (entity)
        pk = pkOf(entity, entity.process(object, parent, key, ctx.args), parent, key, ctx.args);
    }
    if (entity === undefined || pk === undefined) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `schema.Invalidate(${this.key}) cannot compute a pk from ${describeValue(input)}`
          : `schema.Invalidate(${this.key}) cannot compute a pk`,
        input,
      );
    }
    ctx.invalidate(entity, pk, input);
    return union ? unionRef(entity.key, pk) : pk;
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return this.entity.denormalize(input, ctx);
  }
}
