import {
  createResource,
  createStore,
  denormalize,
  Endpoint,
  Entity,
  MemoCache,
  type NormalizedTables,
  normalize,
  paginatedFilter,
  paginatedMerge,
  type Schema,
  type State,
  type Store,
  schema,
} from '../../../library/src/index.js';
import { LIST_ARGS, type OtherType } from '../data.js';
import type { Pk } from '../pks.js';
import type {
  BenchStore,
  Contender,
  NormalizedTodos,
  OtherTypesStore,
  StoreState,
} from './types.js';

export class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'User';
}

export class Todo extends Entity {
  id: Pk = 0;
  title = '';
  completed = false;
  userId = 0;
  author: User | null = null;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
  static override schema = { author: User };
}

/** One array, so that the normalizer's per-schema caches see the same schema every call. */
const todoArray = [Todo] as const;
export const todoCollection = new schema.Collection([Todo]);

/** A page lands in the list stored under the same arguments without its cursor. */
function removeCursor(...args: readonly unknown[]): readonly unknown[] {
  const { cursor: _cursor, ...rest } = args[0] as Record<string, unknown>;
  return [rest];
}

/**
 * Endpoints never fetch here: responses arrive through `setResponse`. The key leaves the body out,
 * as RestEndpoint's `METHOD url` does, so that 1000 creates share one stored result.
 */
export function endpoint<S extends Schema>(name: string, endpointSchema: S, sideEffect?: true) {
  return new Endpoint(async (..._args: unknown[]): Promise<unknown> => undefined, {
    name,
    schema: endpointSchema,
    sideEffect,
    key: (params?: unknown) => `${name} ${JSON.stringify(params ?? {})}`,
  });
}

const endpoints = {
  list: endpoint('getList', todoCollection),
  push: endpoint('create', todoCollection.push, true),
  page: endpoint('getPage', todoCollection.addWith(paginatedMerge, paginatedFilter(removeCursor))),
  remove: endpoint('delete', new schema.Invalidate(Todo), true),
  update: endpoint('update', Todo, true),
  todos: endpoint('getTodos', todoArray),
};

/** What users call: the resource's members, each fetching `globalThis.fetch` (stubbed by the bench). */
const TodoResource = createResource({ path: '/users/:userId/todos/:id', schema: Todo });

function createBenchStore(initialState?: State, attach?: (store: Store) => void): BenchStore {
  const store = createStore(initialState ? { initialState } : {});
  attach?.(store);
  const { controller } = store;
  return {
    setList: (todos) => controller.setResponse(endpoints.list, LIST_ARGS, todos),
    push: (todo) => controller.setResponse(endpoints.push, LIST_ARGS, todo, todo),
    mergePage: (cursor, todos) =>
      controller.setResponse(endpoints.page, { ...LIST_ARGS, cursor }, todos),
    invalidate: (id) => controller.setResponse(endpoints.remove, { id }, { id }),
    update: (todo) => controller.setResponse(endpoints.update, { id: todo.id }, todo, todo),
    setTodos: (todos) => controller.setResponse(endpoints.todos, todos),
    readList: () => controller.getResponse(endpoints.list, LIST_ARGS, store.getState()).data,
    readTodos: () => controller.getResponse(endpoints.todos, store.getState()).data,
    setResourceList: (todos) => controller.setResponse(TodoResource.getList, LIST_ARGS, todos),
    fetchResourceList: () => controller.fetch(TodoResource.getList, LIST_ARGS),
    readResourceList: () =>
      controller.getResponse(TodoResource.getList, LIST_ARGS, store.getState()).data,
    state: () => store.getState() as unknown as StoreState,
  };
}

/** The entity class, collection and endpoints of each other type, made once. */
const otherTypeEndpoints = new Map<string, ReturnType<typeof endpointsForOtherType>>();
function endpointsForOtherType(type: OtherType) {
  class Other extends Entity {
    constructor() {
      super();
      Object.assign(this, type.defaults);
    }
    pk() {
      return `${(this as unknown as Record<string, unknown>)[type.pkField]}`;
    }
    static override key = type.key;
  }
  const collection = new schema.Collection([Other]);
  return {
    list: endpoint(`get${type.key}s`, collection),
    push: endpoint(`create${type.key}`, collection.push, true),
    remove: endpoint(`delete${type.key}`, new schema.Invalidate(Other), true),
  };
}

function createOtherTypesStore(): OtherTypesStore {
  const store = createStore();
  const { controller } = store;
  const endpointsOf = (type: OtherType) => {
    let found = otherTypeEndpoints.get(type.key);
    if (!found) {
      found = endpointsForOtherType(type);
      otherTypeEndpoints.set(type.key, found);
    }
    return found;
  };
  return {
    setList: (type, group, records) =>
      controller.setResponse(endpointsOf(type).list, { group }, records),
    push: (type, group, record) =>
      controller.setResponse(endpointsOf(type).push, { group }, record, record),
    remove: (type, record) => controller.setResponse(endpointsOf(type).remove, record, record),
    readList: (type, group) =>
      controller.getResponse(endpointsOf(type).list, { group }, store.getState()).data,
  };
}

export const ours: Contender = {
  name: 'ours',
  normalizeTodos(todos) {
    const { result, entities } = normalize(todoArray, todos);
    return { result, entities };
  },
  denormalizeTodos(normalized) {
    return denormalize(todoArray, normalized.result, entitiesOf(normalized)) as unknown[];
  },
  memoizedReader() {
    const memo = new MemoCache();
    return (normalized) =>
      memo.denormalize(todoArray, normalized.result, entitiesOf(normalized)) as unknown[];
  },
  describeNormalized(normalized) {
    const entities = entitiesOf(normalized);
    return {
      result: normalized.result,
      Todo: rowsAsJson(entities, 'Todo'),
      User: rowsAsJson(entities, 'User'),
    };
  },
  seedState(todos) {
    const store = createBenchStore();
    store.setList(todos);
    return store.state();
  },
  createStore: (state) => createBenchStore(state as unknown as State | undefined),
  createOtherTypesStore,
};

/** Our library with something attached to every store it creates (e.g. the devtools bridge). */
export function oursWith(name: string, attach: (store: Store) => void): Contender {
  return {
    ...ours,
    name,
    createStore: (state) => createBenchStore(state as unknown as State | undefined, attach),
  };
}

/** The entity tables `normalize` made, typed again (NormalizedTodos holds them opaque). */
function entitiesOf(normalized: NormalizedTodos) {
  return normalized.entities as NormalizedTables['entities'];
}

/**
 * INTERNAL STATE — the only place the bench reads how our library lays out its data: the rows of
 * one entity table, by pk, as plain JSON (to compare with the reference's). Everything else goes
 * through the public API. When the layout changes, this is the line to change.
 */
function rowsAsJson(entities: NormalizedTables['entities'], key: string): unknown {
  return entities.get(key)?.toObject();
}
