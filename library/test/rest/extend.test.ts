import { describe, expect, it } from 'vitest';
import {
  Collection,
  createResource,
  createStore,
  type EntityClass,
  RestEndpoint,
  type RestGenerics,
  schema,
} from '../../src/index.js';
import { plain } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import {
  FOUR_TODOS,
  ids,
  invalidated,
  jsonBody,
  lastRequest,
  received,
  row,
  rows,
  Todo,
  todoResource,
} from './support.js';

const server = serverPerTest({ todos: FOUR_TODOS });

describe('extend(overrides): the batch form overrides options of existing members', () => {
  it('overrides only the named members; the others and the original resource are untouched', async () => {
    const TodoResource = todoResource(server.url);
    const UserTodos = TodoResource.extend({
      getList: { path: '/users/:userId/todos' },
      get: { dataExpiryLength: 1_234 },
    });
    expect(UserTodos.getList.path).toBe('/users/:userId/todos');
    expect(UserTodos.getList.name).toBe('Todo.getList');
    expect(UserTodos.get.dataExpiryLength).toBe(1_234);
    expect(UserTodos.get.path).toBe('/todos/:id');
    expect(UserTodos.update).toBe(TodoResource.update);
    expect(UserTodos.delete).toBe(TodoResource.delete);
    expect(TodoResource.getList.path).toBe('/todos');
    expect(TodoResource.get.dataExpiryLength).toBeUndefined();

    const { controller, getState } = createStore();
    await controller.fetch(UserTodos.getList, { userId: 2 });
    await controller.fetch(UserTodos.get, { id: 3 });
    expect(received(server)).toEqual(['GET /users/2/todos', 'GET /todos/3']);
    expect(rows(getState())).toEqual({ '{"userId":"2"}': ['3', '4'] });
    const meta = getState().meta.get(UserTodos.get.key({ id: 3 }));
    expect((meta?.expiresAt ?? 0) - (meta?.date ?? 0)).toBe(1_234);
  });

  it('push, unshift and getPage follow the overridden getList', async () => {
    const UserTodos = todoResource(server.url).extend({
      getList: { path: '/users/:userId/todos' },
    });
    expect(UserTodos.getList.push.path).toBe('/users/:userId/todos');
    expect(UserTodos.getList.push.name).toBe('Todo.getList.push');
    const { controller, getState } = createStore();
    await controller.fetch(UserTodos.getList, { userId: 1, per_page: 1 });
    await controller.fetch(UserTodos.getList.getPage, { userId: 1, per_page: 1, page: 2 });
    await controller.fetch(UserTodos.getList.push, { userId: 1, per_page: 1 }, { title: 'end' });
    await controller.fetch(
      UserTodos.getList.unshift,
      { userId: 1, per_page: 1 },
      { title: 'start' },
    );
    expect(received(server)).toEqual([
      'GET /users/1/todos?per_page=1',
      'GET /users/1/todos?page=2&per_page=1',
      'POST /users/1/todos?per_page=1',
      'POST /users/1/todos?per_page=1',
    ]);
    expect(rows(getState())).toEqual({ '{"per_page":"1","userId":"1"}': ['6', '1', '2', '5'] });
    expect(server.todos.slice(-2)).toEqual([
      { id: 5, title: 'end', completed: false, userId: 1 },
      { id: 6, title: 'start', completed: false, userId: 1 },
    ]);
  });

  it('an unknown member name is an error naming it', () => {
    const TodoResource = todoResource(server.url);
    expect(() => TodoResource.extend({ getAll: { path: '/all' } } as never)).toThrow(
      /no member "getAll"/,
    );
  });

  it('an object schema { results: Collection, total, limit, skip } is normalized, paged and pushed into', async () => {
    const Paged = todoResource(server.url).extend({
      getList: {
        path: '/paged/todos',
        schema: { results: new schema.Collection([Todo]), total: 0, limit: 0, skip: 0 },
        paginationField: 'skip',
      },
    });
    const { controller, getState } = createStore();
    const first = await controller.fetch(Paged.getList, { limit: 2 });
    expect(first.results.every((todo) => todo instanceof Todo)).toBe(true);
    expect(first).toEqual({
      results: FOUR_TODOS.slice(0, 2),
      total: 4,
      limit: 2,
      skip: 0,
      link: '/paged/todos?limit=2&skip=2',
    });
    const page = await controller.fetch(Paged.getList.getPage, { limit: 2, skip: 2 });
    expect(ids(page.results)).toEqual([3, 4]);
    expect([page.total, page.skip]).toEqual([4, 2]);
    await controller.fetch(Paged.getList.push, { limit: 2 }, { title: 'pushed' });
    await controller.fetch(Paged.delete, { id: 1 });
    expect(received(server)).toEqual([
      'GET /paged/todos?limit=2',
      'GET /paged/todos?limit=2&skip=2',
      'POST /paged/todos?limit=2',
      'DELETE /todos/1',
    ]);
    expect(rows(getState())).toEqual({ '{"limit":"2"}': ['2', '3', '4', '5'] });
    const read = controller.getResponse(Paged.getList, { limit: 2 }, getState()).data;
    expect(ids(read?.results)).toEqual([2, 3, 4, 5]);
    expect(read?.total).toBe(4); // from the last page fetched
  });

  it('an object schema with a link string keeps the link and follows it with getPage', async () => {
    const Linked = todoResource(server.url).extend({
      getList: {
        path: '/paged/todos',
        schema: { results: new schema.Collection([Todo]), link: '' },
        paginationField: 'skip',
      },
    });
    const { controller, getState } = createStore();
    const first = await controller.fetch(Linked.getList, { limit: 1 });
    expect(ids(first.results)).toEqual([1]);
    expect(first.link).toBe('/paged/todos?limit=1&skip=1');
    const next = new URL(first.link, server.url).searchParams;
    const second = await controller.fetch(Linked.getList.getPage, {
      limit: Number(next.get('limit')),
      skip: Number(next.get('skip')),
    });
    expect(ids(second.results)).toEqual([2]);
    expect(second.link).toBe('/paged/todos?limit=1&skip=2');
    expect(lastRequest(server).url).toBe('/paged/todos?limit=1&skip=1');
    expect(rows(getState())).toEqual({ '{"limit":"1"}': ['1', '2'] });
  });

  it('literal query text in an overridden path is sent, and the arguments continue it', async () => {
    const Fifty = todoResource(server.url).extend({ getList: { path: '/todos\\?per_page=2' } });
    const { controller, getState } = createStore();
    expect(ids(await controller.fetch(Fifty.getList, {}))).toEqual([1, 2]);
    expect(ids(await controller.fetch(Fifty.getList, { userId: 2 }))).toEqual([3, 4]);
    await controller.fetch(Fifty.getList.push, {}, { title: 'more' });
    expect(received(server)).toEqual([
      'GET /todos?per_page=2',
      'GET /todos?per_page=2&userId=2',
      'POST /todos?per_page=2',
    ]);
    expect(rows(getState())).toEqual({ '{}': ['1', '2', '5'], '{"userId":"2"}': ['3', '4'] });
  });
});

describe('extend(name, options): the add form', () => {
  it('adds a member built from get, named Todo.<name>', async () => {
    const TodoResource = todoResource(server.url);
    const WithToggle = TodoResource.extend('toggle', {
      path: '/todos/:id/toggle',
      method: 'POST',
      body: undefined,
    });
    const { toggle } = WithToggle;
    expect(toggle).toBeInstanceOf(RestEndpoint);
    expect([toggle.name, toggle.method, toggle.sideEffect, toggle.path]).toEqual([
      'Todo.toggle',
      'POST',
      true,
      '/todos/:id/toggle',
    ]);
    expect(toggle.schema).toBe(Todo);
    expect(toggle.urlPrefix).toBe(server.url);
    expect(WithToggle.get).toBe(TodoResource.get);
    expect(WithToggle.getList).toBe(TodoResource.getList);

    const { controller, getState } = createStore();
    await controller.fetch(WithToggle.getList, {});
    const toggled = await controller.fetch(toggle, { id: 1 });
    expect(toggled).toBeInstanceOf(Todo);
    expect(toggled.completed).toBe(true);
    const request = lastRequest(server);
    expect(`${request.method} ${request.url}`).toBe('POST /todos/1/toggle');
    expect(request.body).toBe('');
    expect(row(getState(), '1')).toEqual({ ...FOUR_TODOS[0], completed: true });
    const list = controller.getResponse(WithToggle.getList, {}, getState()).data;
    expect(list?.[0]?.completed).toBe(true);
  });

  it('an optional path parameter (`:id?`) gives the URL with or without it', async () => {
    const WithLookup = todoResource(server.url).extend('lookup', {
      path: '/todos/:id?',
      schema: undefined,
    });
    const { lookup } = WithLookup;
    expect(lookup.name).toBe('Todo.lookup');
    const { controller, getState } = createStore();
    const all = await controller.fetch(lookup, {});
    const one = await controller.fetch(lookup, { id: 2 });
    expect(all).toEqual(FOUR_TODOS);
    expect(one).toEqual(FOUR_TODOS[1]);
    expect(received(server)).toEqual(['GET /todos', 'GET /todos/2']);
    expect(plain(getState().endpoints)).toEqual({
      [`GET ${server.url}/todos`]: FOUR_TODOS,
      [`GET ${server.url}/todos/2`]: FOUR_TODOS[1],
    });
  });

  it('a name that is already a member replaces that member and keeps its name', () => {
    const TodoResource = todoResource(server.url);
    const Fresher = TodoResource.extend('get', { dataExpiryLength: 10 });
    expect(Fresher.get.name).toBe('Todo.get');
    expect(Fresher.get.dataExpiryLength).toBe(10);
    expect(Fresher.get.path).toBe('/todos/:id');
    expect(Fresher.get).not.toBe(TodoResource.get);
  });
});

describe('extend(base => members): the function form', () => {
  it('builds members from the current ones, e.g. base.getList.extend(...)', async () => {
    const TodoResource = todoResource(server.url).extend({ getList: { dataExpiryLength: 777 } });
    const seen: unknown[] = [];
    const Extended = TodoResource.extend((base) => {
      seen.push(base.getList);
      return {
        getByUser: base.getList.extend({
          path: '/users/:userId/todos',
          name: 'Todo.getByUser',
        }),
      };
    });
    expect(seen).toEqual([TodoResource.getList]);
    const { getByUser } = Extended;
    expect(getByUser.name).toBe('Todo.getByUser');
    expect(getByUser.dataExpiryLength).toBe(777); // inherited from the base getList
    expect(getByUser.schema).toBe(TodoResource.getList.schema);
    expect(Extended.getList).toBe(TodoResource.getList);

    const { controller, getState } = createStore();
    expect(ids(await controller.fetch(getByUser, { userId: 2 }))).toEqual([3, 4]);
    await controller.fetch(getByUser.push, { userId: 2 }, { title: 'for user 2' });
    expect(received(server)).toEqual(['GET /users/2/todos', 'POST /users/2/todos']);
    expect(getByUser.push.name).toBe('Todo.getByUser.push');
    expect(ids(controller.getResponse(getByUser, { userId: 2 }, getState()).data)).toEqual([
      3, 4, 5,
    ]);
  });

  it('a member built from another without a name of its own is named after its key', () => {
    const Extended = todoResource(server.url).extend((base) => ({
      getAll: base.getList.extend({ path: '/all-todos' }),
      getList: base.getList.extend({ dataExpiryLength: 5 }),
    }));
    expect(Extended.getAll.name).toBe('Todo.getAll');
    expect(Extended.getAll.push.name).toBe('Todo.getAll.push');
    // Replacing a member under its own key keeps its name.
    expect(Extended.getList.name).toBe('Todo.getList');
  });

  it('the result can be extended again in any form', async () => {
    const Chained = todoResource(server.url)
      .extend((base) => ({ getOne: base.get.extend({ name: 'Todo.getOne' }) }))
      .extend('toggle', { path: '/todos/:id/toggle', method: 'POST', body: undefined })
      .extend({ getOne: { path: '/users/:userId/todos/:id' } });
    expect(Chained.getOne.name).toBe('Todo.getOne');
    expect(Chained.toggle.name).toBe('Todo.toggle');
    const { controller } = createStore();
    await controller.fetch(Chained.getOne, { userId: 1, id: 2 });
    await controller.fetch(Chained.toggle, { id: 2 });
    expect(received(server)).toEqual(['GET /users/1/todos/2', 'POST /todos/2/toggle']);
  });
});

describe('reuse by wrapping (4.4)', () => {
  /** The default class of every resource the app makes: sends the access token. */
  class AuthdEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
    override getHeaders(headers: Record<string, string>) {
      return { ...headers, 'access-token': 'app-token' };
    }
  }
  class OtherEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {}

  /** createResource with a default Endpoint and a paged getList schema. */
  function createPagedResource<const E extends EntityClass>(options: {
    path: `${string}:${string}`;
    schema: E;
    urlPrefix: string;
    Endpoint?: typeof RestEndpoint;
  }) {
    return createResource({
      Endpoint: AuthdEndpoint,
      ...options,
      searchParams: {} as { limit?: number; userId?: number },
      body: {} as Record<string, unknown>,
      paginationField: 'skip',
    }).extend({
      getList: {
        schema: {
          results: new Collection([options.schema]),
          total: 0,
          limit: 0,
          skip: 0,
        },
      },
    });
  }

  it('every member uses the default class and the getList schema the wrapper set', async () => {
    const PagedTodos = createPagedResource({
      path: '/paged/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
    });
    for (const member of [
      PagedTodos.get,
      PagedTodos.getList,
      PagedTodos.getList.push,
      PagedTodos.getList.getPage,
      PagedTodos.update,
      PagedTodos.partialUpdate,
      PagedTodos.delete,
    ]) {
      expect(member).toBeInstanceOf(AuthdEndpoint);
    }
    const { controller, getState } = createStore();
    const page = await controller.fetch(PagedTodos.getList, { limit: 2 });
    expect(ids(page.results as Todo[])).toEqual([1, 2]);
    expect(page.total).toBe(4);
    await controller.fetch(PagedTodos.getList.getPage, { limit: 2, skip: 2 });
    await controller.fetch(PagedTodos.getList.push, { limit: 2 }, { title: 'wrapped' });
    await controller.fetch(PagedTodos.partialUpdate, { id: 2 }, { title: 'renamed' });
    expect(received(server)).toEqual([
      'GET /paged/todos?limit=2',
      'GET /paged/todos?limit=2&skip=2',
      'POST /paged/todos?limit=2',
      'PATCH /paged/todos/2',
    ]);
    expect(server.requests.map((request) => request.headers['access-token'])).toEqual(
      Array(4).fill('app-token'),
    );
    expect(jsonBody(server.requests[2])).toEqual({ title: 'wrapped' });
    const read = controller.getResponse(PagedTodos.getList, { limit: 2 }, getState()).data;
    expect((read?.results as Todo[] | undefined)?.map((todo) => todo.title)).toEqual([
      'write tests',
      'renamed',
      'ship',
      'celebrate',
      'wrapped',
    ]);
  });

  it('a caller can still choose its own Endpoint class', () => {
    const Plain = createPagedResource({
      path: '/paged/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      Endpoint: OtherEndpoint,
    });
    expect(Plain.get).toBeInstanceOf(OtherEndpoint);
    expect(Plain.getList).toBeInstanceOf(OtherEndpoint);
    expect(Plain.getList).not.toBeInstanceOf(AuthdEndpoint);
  });

  it('invalidating an entity removes it from the results of the wrapped list', async () => {
    const PagedTodos = createPagedResource({
      path: '/paged/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
    });
    const { controller, getState } = createStore();
    await controller.fetch(PagedTodos.getList, { limit: 4 });
    await controller.fetch(PagedTodos.delete, { id: 3 });
    expect(lastRequest(server).url).toBe('/paged/todos/3');
    expect(invalidated(getState(), '3')).toBe(true);
    const read = controller.getResponse(PagedTodos.getList, { limit: 4 }, getState()).data;
    expect(ids(read?.results as Todo[])).toEqual([1, 2, 4]);
  });
});
