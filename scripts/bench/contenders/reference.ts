/**
 * The reference: `@data-client/core@0.9.7` with `@data-client/rest@0.9.9` (its endpoint and
 * normalizr), driven without React as reference-behaviour.md §6 describes. NODE_ENV must be
 * `production` before these modules load (run.mjs sets it), as in the reference's own benchmarks.
 */
import {
  type ActionTypes,
  applyManager,
  Controller,
  createReducer,
  initialState,
  type Manager,
  NetworkManager,
  PollingSubscription,
  type State,
  SubscriptionManager,
} from '@data-client/core';
import { denormalize, denormalizeCached, normalize, WeakEntityMap } from '@data-client/normalizr';
import {
  createResource,
  Endpoint,
  Entity,
  RestEndpoint,
  type Schema,
  schema,
} from '@data-client/rest';
import { LIST_ARGS, type OtherType } from '../data.js';
import type { Pk } from '../pks.js';
import type {
  BenchStore,
  Contender,
  NormalizedTodos,
  OtherTypesStore,
  StoreState,
} from './types.js';

class User extends Entity {
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

const todoArray = [Todo];
const todoCollection = new schema.Collection([Todo]);

/**
 * 0.9.9 has no exported paginated merge schema: `getPage` builds it from the collection (merge =
 * paginatedMerge, row pk computed without the cursor). Only its schema is used; its key/url
 * machinery is not, so both contenders' endpoints cost the same outside the schema.
 */
const pageSchema = new RestEndpoint({
  path: '/todos',
  schema: todoCollection,
  paginationField: 'cursor',
}).getPage.schema as Schema;

/**
 * Endpoints never fetch here: responses arrive through `setResponse`. The key leaves the body out,
 * as RestEndpoint's `METHOD url` does, so that 1000 creates share one stored result.
 */
function endpoint(name: string, endpointSchema: Schema, sideEffect?: true) {
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
  page: endpoint('getPage', pageSchema),
  remove: endpoint('delete', new schema.Invalidate(Todo), true),
  update: endpoint('update', Todo, true),
  todos: endpoint('getTodos', todoArray),
};

/** What users call: the resource's members, each fetching `globalThis.fetch` (stubbed by the bench). */
const TodoResource = createResource({ path: '/users/:userId/todos/:id', schema: Todo });

type Dispatch = (action: ActionTypes) => Promise<void>;

/**
 * A store as data-client's CacheProvider makes one, without React: its production default
 * managers (NetworkManager, SubscriptionManager) chained as its useEnhancedReducer chains them,
 * around `createReducer`. Where React's useReducer would commit an action at its next render, this
 * dispatch reduces at once. `controller.fetch` resolves only through the NetworkManager: it runs
 * the endpoint on the FETCH action and resolves the caller when the SET after it is reduced.
 */
export function createReferenceStore(seed: State<unknown> = initialState) {
  let state = seed;
  const controller = new Controller();
  const reducer = createReducer(controller);
  const managers: Manager[] = [new NetworkManager(), new SubscriptionManager(PollingSubscription)];
  const reduce: Dispatch = (action) => {
    state = reducer(state, action);
    return Promise.resolve();
  };
  const middlewareApi = {
    getState: () => state,
    dispatch: (action: ActionTypes): Promise<void> => dispatch(action),
  };
  // applyManager points the controller's dispatch and getState at middlewareApi's.
  const chain = applyManager(managers, controller).map(
    (middleware) => middleware(middlewareApi) as unknown as (next: Dispatch) => Dispatch,
  );
  const dispatch: Dispatch = chain.reduceRight((next, link) => link(next), reduce);
  for (const manager of managers) manager.init?.(state);
  return { controller, getState: () => state };
}

function createBenchStore(seed?: State<unknown>): BenchStore {
  const { controller, getState } = createReferenceStore(seed);
  return {
    setList: (todos) => void controller.setResponse(endpoints.list, LIST_ARGS, todos),
    push: (todo) => void controller.setResponse(endpoints.push, LIST_ARGS, todo, todo),
    mergePage: (cursor, todos) =>
      void controller.setResponse(endpoints.page, { ...LIST_ARGS, cursor }, todos),
    invalidate: (id) => void controller.setResponse(endpoints.remove, { id }, { id }),
    update: (todo) => void controller.setResponse(endpoints.update, { id: todo.id }, todo, todo),
    setTodos: (todos) => void controller.setResponse(endpoints.todos, todos),
    readList: () => asList(controller.getResponse(endpoints.list, LIST_ARGS, getState()).data),
    readTodos: () => asList(controller.getResponse(endpoints.todos, getState()).data),
    setResourceList: (todos) => void controller.setResponse(TodoResource.getList, LIST_ARGS, todos),
    fetchResourceList: () => controller.fetch(TodoResource.getList, LIST_ARGS),
    readResourceList: () =>
      asList(controller.getResponse(TodoResource.getList, LIST_ARGS, getState()).data),
    state: () => getState() as unknown as StoreState,
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
  const { controller, getState } = createReferenceStore();
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
      void controller.setResponse(endpointsOf(type).list, { group }, records),
    push: (type, group, record) =>
      void controller.setResponse(endpointsOf(type).push, { group }, record, record),
    remove: (type, record) => void controller.setResponse(endpointsOf(type).remove, record, record),
    readList: (type, group) =>
      asList(controller.getResponse(endpointsOf(type).list, { group }, getState()).data),
  };
}

/** A denormalized list, or undefined when the reference reports it missing or INVALID. */
function asList(data: unknown): readonly unknown[] | undefined {
  return Array.isArray(data) ? data : undefined;
}

export const reference: Contender = {
  name: 'reference',
  normalizeTodos(todos) {
    const { result, entities } = normalize(todos, todoArray);
    return { result, entities };
  },
  denormalizeTodos(normalized) {
    return asList(denormalize(normalized.result, todoArray, normalized.entities)) ?? [];
  },
  memoizedReader() {
    const entityCache = {};
    const resultCache = new WeakEntityMap();
    return (normalized) =>
      asList(
        denormalizeCached(
          normalized.result,
          todoArray,
          normalized.entities,
          entityCache,
          resultCache,
          [],
        ).data,
      ) ?? [];
  },
  describeNormalized(normalized: NormalizedTodos) {
    const tables = normalized.entities as Record<string, unknown>;
    return { result: normalized.result, Todo: tables.Todo, User: tables.User };
  },
  seedState(todos) {
    const store = createBenchStore();
    store.setList(todos);
    return store.state();
  },
  createStore: (state) => createBenchStore(state as unknown as State<unknown> | undefined),
  createOtherTypesStore,
};
