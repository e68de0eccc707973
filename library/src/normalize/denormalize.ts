import { INVALID, type Invalid, isInvalid } from '../schema/invalid.js';
import type { DenormalizeContext, EntityStatics } from '../schema/types.js';
import type { Tables } from './normalize.js';
import { schemaOf } from './schemaOf.js';

/** One table row a denormalized value was built from. */
interface Dependency {
  table: string;
  pk: string;
  row: unknown;
}

interface Entry {
  value: unknown;
  dependencies: Dependency[];
  /**
   * The tables a result was last confirmed against: a quick hit when they are unchanged. Kept
   * for whole results only, so entity entries never hold on to old tables.
   */
  checkedAgainst?: Tables;
}

function stillValid(entry: Entry, entities: Tables): boolean {
  if (entry.checkedAgainst === entities) return true;
  for (const dependency of entry.dependencies) {
    if (entities[dependency.table]?.[dependency.pk] !== dependency.row) return false;
  }
  if (entry.checkedAgainst) entry.checkedAgainst = entities;
  return true;
}

/**
 * Remembers denormalized values so that reading again gives the same objects: the same result
 * over unchanged rows is the same object (`===`), a changed entity changes only the values built
 * from it, and one entity read through two results is one instance.
 */
export class MemoCache {
  /** Entity instances by the row they were built from. */
  private readonly entities = new WeakMap<object, Entry>();
  /** Whole results by schema, then by the normalized input (objects weakly, primitives by value). */
  private readonly results = new WeakMap<
    object,
    { byObject: WeakMap<object, Entry>; byValue: Map<unknown, Entry> }
  >();

  denormalize(
    schema: unknown,
    input: unknown,
    entities: Tables,
    args: readonly unknown[] = [],
  ): unknown {
    const schemaClass = schemaOf(schema);
    if (schemaClass === undefined || input === undefined || input === null) return input;
    const byInput = this.resultsFor(schemaClass, input);
    const cached = byInput.get(input as object);
    if (cached && stillValid(cached, entities)) return cached.value;
    const run = new DenormalizeRun(entities, args, this.entities);
    const { value, dependencies } = run.collect(() => run.unvisit(schemaClass, input));
    byInput.set(input as object, { value, dependencies, checkedAgainst: entities });
    return value;
  }

  private resultsFor(schema: object, input: unknown): Map<unknown, Entry> | WeakMap<object, Entry> {
    let byKind = this.results.get(schema);
    if (!byKind) {
      byKind = { byObject: new WeakMap(), byValue: new Map() };
      this.results.set(schema, byKind);
    }
    return typeof input === 'object' ? byKind.byObject : byKind.byValue;
  }

}

/** Denormalizes without remembering anything between calls. */
export function denormalize(
  schema: unknown,
  input: unknown,
  entities: Tables,
  args: readonly unknown[] = [],
) {
  return new MemoCache().denormalize(schema, input, entities, args);
}

class DenormalizeRun implements DenormalizeContext {
  private frames: Dependency[][] = [];
  /** Instances being built in this run, so that cycles resolve to the same instance. */
  private readonly building = new Map<string, object>();

  constructor(
    private readonly entities: Tables,
    readonly args: readonly unknown[],
    private readonly entityCache: WeakMap<object, Entry>,
  ) {}

  collect<T>(build: () => T): { value: T; dependencies: Dependency[] } {
    const dependencies: Dependency[] = [];
    this.frames.push(dependencies);
    try {
      return { value: build(), dependencies };
    } finally {
      this.frames.pop();
      const parent = this.frames[this.frames.length - 1];
      if (parent) for (const dependency of dependencies) parent.push(dependency);
    }
  }

  unvisit(schema: unknown, input: unknown): unknown {
    if (input === undefined || input === null) return input;
    const schemaClass = schemaOf(schema);
    return schemaClass ? schemaClass.denormalize(input, this) : input;
  }

  readRow(table: string, pk: string): unknown {
    const row = this.entities[table]?.[pk];
    this.frames[this.frames.length - 1]?.push({ table, pk, row });
    return row;
  }

  entity(entity: EntityStatics, pk: string): object | Invalid | undefined {
    const row = this.readRow(entity.key, pk) as Record<string, unknown> | undefined;
    if (row === undefined) return undefined;
    if (isInvalid(row)) return INVALID;
    const cached = this.entityCache.get(row);
    if (cached && stillValid(cached, this.entities)) {
      const frame = this.frames[this.frames.length - 1];
      if (frame) for (const dependency of cached.dependencies) frame.push(dependency);
      return cached.value as object | Invalid;
    }
    const cycleKey = `${entity.key}\u0000${pk}`;
    const inProgress = this.building.get(cycleKey);
    if (inProgress) return inProgress;
    const instance = entity.fromJS(row);
    this.building.set(cycleKey, instance);
    const { value, dependencies } = this.collect(() =>
      entity.denormalizeFields(instance, row, this),
    );
    this.building.delete(cycleKey);
    // The row itself is a dependency too (readRow recorded it in the parent frame).
    dependencies.unshift({ table: entity.key, pk, row });
    this.entityCache.set(row, { value, dependencies });
    return value;
  }
}
