import {
  Endpoint,
  type EndpointOptions,
  Entity,
  type NormalizedTables,
  type NormalizeOptions,
  normalize,
  type Schema,
  schema,
  type Tables,
} from '../src/index.js';

/** Shared test entities and helpers. Keep these exports stable: other test files import them. */

export class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

export class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  userId = 0;
  author: User | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  static override schema = { author: User };
}

/** The collection of all todos, one row per set of filtering arguments. Table key `[Todo]`. */
export const todoList = new schema.Collection([Todo]);

/** An endpoint that never fetches (responses are set with `controller.setResponse`). */
export function endpoint<S extends Schema | undefined>(
  name: string,
  endpointSchema: S,
  options: Omit<EndpointOptions<S>, 'name' | 'schema' | 'key'> = {},
) {
  return new Endpoint(async (..._args: any[]): Promise<unknown> => undefined, {
    name,
    schema: endpointSchema,
    ...options,
    key: (...args: unknown[]) => `${name} ${JSON.stringify(args)}`,
  });
}

/** Empty normalized tables, as a fresh store holds them. */
export function emptyTables(): NormalizedTables {
  return { entities: {}, entitiesMeta: {}, indexes: {} };
}

/**
 * A running set of normalized tables: each `normalize` call starts from the tables the previous
 * one produced, like successive responses arriving in a store.
 */
export function createTables(initial: NormalizedTables = emptyTables()) {
  let current = initial;
  return {
    get current(): NormalizedTables {
      return current;
    },
    get entities(): Tables {
      return current.entities as Tables;
    },
    normalize(
      normalizeSchema: unknown,
      input: unknown,
      args: readonly unknown[] = [],
      options: NormalizeOptions = {},
    ): unknown {
      const { result, ...tables } = normalize(normalizeSchema, input, args, current, options);
      current = tables;
      return result;
    },
  };
}

/** The member pks of every stored row of a collection table, by row. */
export function collectionRows(entities: Tables, key = todoList.key): Record<string, unknown> {
  return { ...entities[key] };
}
