import type { OtherType, TodoData } from '../data.js';
import type { Pk } from '../pks.js';

/**
 * What a workload can ask of a library. Both contenders implement it with their own public API
 * and equivalent entity classes, so every workload runs the same steps on each.
 */
export interface Contender {
  readonly name: string;
  /** Normalizes a `[Todo]` response into empty tables. */
  normalizeTodos(todos: readonly TodoData[]): NormalizedTodos;
  /** Denormalizes with no cache at all. */
  denormalizeTodos(normalized: NormalizedTodos): readonly unknown[];
  /** A reader that keeps its memo between calls, as a long-lived store does. */
  memoizedReader(): (normalized: NormalizedTodos) => readonly unknown[];
  /** The Todo and User tables and the result as plain JSON-able data, for comparisons. */
  describeNormalized(normalized: NormalizedTodos): unknown;
  /**
   * The state of a store that fetched `todos` as the collection stored under LIST_ARGS. States of
   * both libraries are immutable, so one seed serves every sample.
   */
  seedState(todos: readonly TodoData[]): StoreState;
  /** A store, starting empty or from a seeded state. */
  createStore(state?: StoreState): BenchStore;
  /** A store for other entity types, each with its own collection (see variety.ts). */
  createOtherTypesStore(): OtherTypesStore;
}

/** The library's normalized output; only the contender that made it knows its shape. */
export interface NormalizedTodos {
  readonly result: unknown;
  readonly entities: unknown;
}

/** A library's store state, opaque to workloads. */
export type StoreState = { readonly __brand: 'StoreState' };

/**
 * A store driven as an app drives it: `controller.setResponse` (or `controller.fetch`) for writes,
 * `getResponse` for reads.
 */
export interface BenchStore {
  /** Stores `todos` as the collection fetched with LIST_ARGS. */
  setList(todos: readonly TodoData[]): void;
  /** Sets the response of the collection's push endpoint (a create that appends). */
  push(todo: TodoData): void;
  /** Sets the response of the next-page endpoint: merged into the LIST_ARGS collection. */
  mergePage(cursor: number, todos: readonly TodoData[]): void;
  /** Sets the response of a delete endpoint whose schema is `schema.Invalidate(Todo)`. */
  invalidate(pk: Pk): void;
  /** Sets the response of an update endpoint whose schema is `Todo`: the todo as changed. */
  update(todo: TodoData): void;
  /** Sets the response of a plain `[Todo]` endpoint. */
  setTodos(todos: readonly TodoData[]): void;
  /** The collection as a component would read it. */
  readList(): readonly unknown[] | undefined;
  /** The plain `[Todo]` endpoint's response as a component would read it. */
  readTodos(): readonly unknown[] | undefined;
  /**
   * `controller.setResponse(TodoResource.getList, LIST_ARGS, todos)`, TodoResource being the
   * library's `createResource({ path: '/users/:userId/todos/:id', schema: Todo })`.
   */
  setResourceList(todos: readonly TodoData[]): void;
  /**
   * `controller.fetch(TodoResource.getList, LIST_ARGS)`: resolves, with what that resolves to,
   * once the response `globalThis.fetch` gave is stored.
   */
  fetchResourceList(): Promise<unknown>;
  /** `TodoResource.getList`'s stored list as a component reads it (`controller.getResponse`). */
  readResourceList(): readonly unknown[] | undefined;
  state(): StoreState;
}

/** Each method works on the collection of `type`, stored under the arguments `{ group }`. */
export interface OtherTypesStore {
  setList(type: OtherType, group: string, records: readonly object[]): void;
  push(type: OtherType, group: string, record: object): void;
  /** Sets the response of the type's delete endpoint (`schema.Invalidate`). */
  remove(type: OtherType, record: object): void;
  readList(type: OtherType, group: string): readonly unknown[] | undefined;
}
