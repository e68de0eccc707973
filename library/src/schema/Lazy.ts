import { schemaOf } from '../normalize/schemaOf.js';
import type { DenormalizeContext, NormalizeContext, QueryContext, SchemaClass } from './types.js';

/**
 * A relation stored as its schema stores it but not followed when read: the field reads as what
 * is stored (a pk, a list of pks), as current data-client's `schema.Lazy`. A component that
 * shows the related entities reads them with `useQuery(Department.schema.buildings.query,
 * department.buildings)`, so a list of departments does not build every building.
 */
export class Lazy<S = unknown> implements SchemaClass {
  private lazyQuery: LazyQuery<S> | undefined;

  constructor(readonly schema: S) {}

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext) {
    return ctx.visit(this.schema, input, parent, key);
  }

  denormalize(input: unknown): unknown {
    return input;
  }

  /** The schema that reads the relation: `useQuery(lazy.query, storedValue)`. */
  get query(): LazyQuery<S> {
    this.lazyQuery ??= new LazyQuery(this.schema);
    return this.lazyQuery;
  }
}

/**
 * Reads a `schema.Lazy` relation: an entity by its pk fields (`{ id }`, as the entity finds
 * itself), or any other schema from the stored value given as the argument.
 */
export class LazyQuery<S = unknown> implements SchemaClass {
  constructor(readonly schema: S) {}

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext) {
    return ctx.visit(this.schema, input, parent, key);
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return ctx.unvisit(this.schema, input);
  }

  queryKey(args: readonly unknown[], ctx: QueryContext): unknown {
    const inner = schemaOf(this.schema);
    // A schema that finds itself from arguments (an entity, a Collection) does; any other reads
    // the stored value it is given.
    return inner?.queryKey && (this.schema as { key?: unknown }).key !== undefined
      ? inner.queryKey(args, ctx)
      : args[0];
  }
}
