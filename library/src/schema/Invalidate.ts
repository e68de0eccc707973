import { describeValue, SchemaError } from './describe.js';
import type { EntityClass } from './Entity.js';
import {
  type DenormalizeContext,
  isEntity,
  type NormalizeContext,
  type SchemaClass,
} from './types.js';

/**
 * Marks the entity its input identifies as INVALID: the pk as a string or number, or an object
 * from which `pk()` is computed. The entity leaves every collection, and results that require it
 * must be fetched again.
 */
export class Invalidate<E extends EntityClass = EntityClass> implements SchemaClass {
  constructor(readonly entity: E) {
    if (!isEntity(entity)) {
      throw new Error(
        `schema.Invalidate expects an Entity class but received ${describeValue(entity)}`,
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
    const entity = this.entity;
    let pk: string | undefined;
    if (typeof input === 'string' || typeof input === 'number') {
      pk = input === '' ? undefined : String(input);
    } else if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      pk = entity.pk(
        entity.process(input as Record<string, unknown>, parent, key, ctx.args),
        parent,
        key,
        ctx.args,
      );
    }
    if (pk === undefined) {
      throw new SchemaError(
        `schema.Invalidate(${entity.key}) cannot compute a pk from ${describeValue(input)}`,
        input,
      );
    }
    ctx.invalidate(entity, pk, input);
    return pk;
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return this.entity.denormalize(input, ctx);
  }
}
