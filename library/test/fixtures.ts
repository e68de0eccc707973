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
import { MemberList } from '../src/normalize/memberList.js';
import { PersistentMap } from '../src/normalize/persistentMap.js';
import { emptyTables } from '../src/normalize/tables.js';

/** Shared test entities and helpers. Keep these exports stable: other test files import them. */

export class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

/** A user found by its `username` too (`static indexes`): what an `Index` reads. */
export class IndexedUser extends User {
  username = '';
  static override indexes = ['username'] as const;
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

/**
 * An entity with a text pk and one text field, for tests of pks and fields of every shape (the
 * test server's `/echo` routes answer such notes).
 */
export class Note extends Entity {
  id = '';
  text = '';
  pk() {
    return this.id;
  }
  static override key = 'Note';
}

/** A user's task: the member of the lists that users' entities hold nested (see Collection's nestKey). */
export class Task extends Entity {
  id = 0;
  title = '';
  userId = 0;
  pk() {
    return this.id;
  }
  static override key = 'Task';
}

/** A feed's item: a post or a link, told apart by `type` (see feedItem). */
export class Post extends Entity {
  id = 0;
  type = 'post';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Post';
}

export class Link extends Entity {
  id = 0;
  type = 'link';
  url = '';
  pk() {
    return this.id;
  }
  static override key = 'Link';
}

/** A union of posts and links by their `type` field. */
export const feedItem = new schema.Union({ post: Post, link: Link }, 'type');

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

export { emptyTables };

/** Tables as plain data for comparisons: maps as objects, collection rows as arrays of pks. */
export type Plain = Record<string, any>;

/** Entity tables from plain data: `{ Todo: { '1': row } }` (the opposite of `plain`). */
export function tablesOf(rows: Record<string, Record<string, unknown>>): Tables {
  return PersistentMap.from(
    Object.entries(rows).map(([key, table]) => [key, PersistentMap.from(Object.entries(table))]),
  );
}

/**
 * `value` as plain data, at any depth: a PersistentMap as an object, a MemberList as an array
 * (what the JSON of a state holds, without going through text).
 */
export function plain(value: unknown): Plain {
  if (value instanceof PersistentMap)
    return Object.fromEntries([...value].map(([key, item]) => [key, plain(item)]));
  if (value instanceof MemberList) return value.toArray() as unknown as Plain;
  if (Array.isArray(value)) return value.map(plain);
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  )
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value as Plain;
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
      return current.entities;
    },
    /** The entity and collection tables as plain data (see `plain`). */
    get rows(): Plain {
      return plain(current.entities);
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
  return plain(entities.get(key) ?? PersistentMap.empty());
}
