import { describe, expect, it } from 'vitest';
import {
  type AnyQuery,
  createResource,
  createStore,
  NetworkError,
  RestEndpoint,
  removeLastArg,
  schema,
  searchToString,
  shortenPath,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, ids, received, rows, Todo } from './support.js';

const server = serverPerTest({ todos: FOUR_TODOS });

describe('shortenPath / removeLastArg (spec 2.5)', () => {
  it("shortens '/:first/:second' to '/:first' (rule 2)", () => {
    expect(shortenPath('/:first/:second')).toBe('/:first');
    expect(removeLastArg('/:first/:second')).toBe('/:first');
  });

  it("shortens '/:first' to '/' (rule 3)", () => {
    expect(shortenPath('/:first')).toBe('/');
    expect(removeLastArg('/:first')).toBe('/');
  });

  it('drops the last parameter and the slash before it from longer templates (rule 1)', () => {
    expect(shortenPath('/todos/:id')).toBe('/todos');
    expect(shortenPath('/users/:userId/todos/:id')).toBe('/users/:userId/todos');
    expect(removeLastArg('/users/:userId/todos/:id')).toBe('/users/:userId/todos');
  });

  it('shortens every form of template as the ShortenPath type does (types/shortenPath.test-d.ts)', () => {
    const forms: Record<string, string> = {
      ':id': '/',
      '/todos/:id?': '/todos',
      '/todos/:id(\\d+)': '/todos',
      'todos/:id': 'todos',
      '/users/:userId/todos/:id.json': '/users/:userId/todos',
      '/todos/:id/detail': '/todos',
      '/:group/todos': '/',
      '/todos/:id/': '/todos',
    };
    for (const [template, shortened] of Object.entries(forms)) {
      expect([template, shortenPath(template), removeLastArg(template)]).toEqual([
        template,
        shortened,
        shortened,
      ]);
    }
  });

  it("a resource at '/:id' lists at '/' (rule 3): the URL is urlPrefix + '/'", async () => {
    const Root = createResource({ path: '/:id', schema: Todo, urlPrefix: `${server.url}/todos` });
    expect([Root.getList.path, Root.getList.push.path, Root.get.path]).toEqual(['/', '/', '/:id']);
    expect(Root.getList.url({ userId: 1 })).toBe(`${server.url}/todos/?userId=1`);
    const { controller } = createStore();
    expect(ids(await controller.fetch(Root.getList, { userId: 1 }))).toEqual([1, 2]);
    expect((await controller.fetch(Root.get, { id: 3 })).title).toBe('ship');
    expect(received(server)).toEqual(['GET /todos/?userId=1', 'GET /todos/3']);
  });

  it('collection members use the shortened path, single-entity members the full one (rule 4)', async () => {
    const UserTodos = createResource({
      path: '/users/:userId/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      paginationField: 'page',
    });
    expect(UserTodos.getList.path).toBe('/users/:userId/todos');
    expect(UserTodos.getList.push.path).toBe('/users/:userId/todos');
    expect(UserTodos.getList.unshift.path).toBe('/users/:userId/todos');
    expect(UserTodos.getList.getPage.path).toBe('/users/:userId/todos');
    for (const member of [UserTodos.get, UserTodos.update, UserTodos.partialUpdate]) {
      expect(member.path).toBe('/users/:userId/todos/:id');
    }
    expect(UserTodos.delete.path).toBe('/users/:userId/todos/:id');

    const { controller, getState } = createStore();
    const list = await controller.fetch(UserTodos.getList, { userId: 2 });
    expect(ids(list)).toEqual([3, 4]);
    const one = await controller.fetch(UserTodos.get, { userId: 2, id: 4 });
    expect(one.title).toBe('celebrate');
    const created = await controller.fetch(UserTodos.getList.push, { userId: 2 }, { title: 'new' });
    expect(created.userId).toBe(2);
    expect(received(server)).toEqual([
      'GET /users/2/todos',
      'GET /users/2/todos/4',
      'POST /users/2/todos',
    ]);
    expect(ids(controller.getResponse(UserTodos.getList, { userId: 2 }, getState()).data)).toEqual([
      3, 4, 5,
    ]);
  });
});

describe('url(): urlPrefix + path + the remaining arguments as a sorted query', () => {
  it('puts path parameters into the path and the rest, sorted by name, into the query', async () => {
    const endpoint = new RestEndpoint({ path: '/users/:userId/todos', urlPrefix: server.url });
    const params = { userId: 1, per_page: 1, orderBy: 'title' };
    expect(endpoint.url(params)).toBe(`${server.url}/users/1/todos?orderBy=title&per_page=1`);
    const response = await endpoint(params);
    expect(received(server)).toEqual(['GET /users/1/todos?orderBy=title&per_page=1']);
    expect(response).toEqual([FOUR_TODOS[1]]); // user 1's todos by title: 'fix bugs' first
  });

  it('drops undefined values from the URL and the key', async () => {
    const endpoint = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    expect(endpoint.url({ userId: undefined, page: 2 })).toBe(`${server.url}/todos?page=2`);
    expect(endpoint.key({ userId: undefined })).toBe(endpoint.key({}));
    expect(endpoint.key({ userId: undefined })).toBe(`GET ${server.url}/todos`);
    await endpoint({ userId: undefined, orderBy: undefined });
    expect(received(server)).toEqual(['GET /todos']);
  });

  it('gives one key (and one stored result) for two orders of the same arguments', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos',
      urlPrefix: server.url,
      schema: [Todo],
    });
    expect(endpoint.key({ userId: 2, orderBy: 'title' })).toBe(
      endpoint.key({ orderBy: 'title', userId: 2 }),
    );
    const { controller, getState } = createStore();
    await controller.fetch(endpoint, { userId: 2, orderBy: 'title' });
    const read = controller.getResponse(endpoint, { orderBy: 'title', userId: 2 }, getState());
    expect(ids(read.data)).toEqual([4, 3]); // 'celebrate' < 'ship'
    expect([...getState().endpoints.keys()]).toEqual([
      `GET ${server.url}/todos?orderBy=title&userId=2`,
    ]);
  });

  it('searchToString sorts by name, drops undefined and encodes values', () => {
    expect(searchToString({ b: 2, a: 'x y', c: undefined, d: 'a&b=c' })).toBe(
      'a=x+y&b=2&d=a%26b%3Dc',
    );
    expect(searchToString({ a: undefined })).toBe('');
  });

  it('nested search values keep their structure: different arguments never share a URL', () => {
    expect(searchToString({ f: { b: 2, a: 1 } })).toBe('f%5Ba%5D=1&f%5Bb%5D=2');
    expect(searchToString({ tag: ['x', 'y'] })).toBe('tag=x&tag=y');
    expect(searchToString({ tag: [] })).toBe('tag=');
    expect(searchToString({ f: [{ a: 1 }, [2, 3]] })).toBe(
      'f%5B0%5D%5Ba%5D=1&f%5B1%5D=2&f%5B1%5D=3',
    );
    expect(searchToString({ at: null, on: true })).toBe('at=null&on=true');
    const endpoint = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    const pairs: [AnyQuery, AnyQuery][] = [
      [{ f: { a: 1 } }, { f: { b: 2 } }],
      [{ f: [1, 2] }, { f: ['1,2'] }],
      [{ f: { a: [1] } }, { f: [{ a: 1 }] }],
      [{ f: 'x' }, { f: ['x', 'x'] }],
    ];
    for (const [first, second] of pairs) expect(endpoint.key(first)).not.toBe(endpoint.key(second));
    // The order members were written in does not matter.
    expect(endpoint.key({ f: { a: 1, b: 2 } })).toBe(endpoint.key({ f: { b: 2, a: 1 } }));
  });

  it('reading one nested filter never returns another filter’s data', async () => {
    const list = new RestEndpoint({
      path: '/todos',
      urlPrefix: server.url,
      schema: new schema.Collection([Todo]),
    });
    const { controller, getState } = createStore();
    server.respondNext({ body: [FOUR_TODOS[0]] });
    await controller.fetch(list, { f: { a: 1 } });
    server.respondNext({ body: [FOUR_TODOS[1]] });
    await controller.fetch(list, { f: { b: 2 } });
    expect(received(server)).toEqual(['GET /todos?f%5Ba%5D=1', 'GET /todos?f%5Bb%5D=2']);
    expect(ids(controller.getResponse(list, { f: { a: 1 } }, getState()).data)).toEqual([1]);
    expect(ids(controller.getResponse(list, { f: { b: 2 } }, getState()).data)).toEqual([2]);
    // Their collection rows differ too; a row's nested members are sorted, as text.
    expect(Object.keys(rows(getState()))).toEqual([
      '{"f":"{\\"a\\":\\"1\\"}"}',
      '{"f":"{\\"b\\":\\"2\\"}"}',
    ]);
  });

  it('searchToString can be overridden, e.g. to join lists with commas', () => {
    class Joined extends RestEndpoint {
      override searchToString(params: Record<string, unknown>) {
        return new URLSearchParams(params as Record<string, string>).toString();
      }
    }
    const endpoint = new Joined({ path: '/todos', urlPrefix: server.url });
    expect(endpoint.url({ ids: [1, 2] })).toBe(`${server.url}/todos?ids=1%2C2`);
  });

  it('an overridden searchToString is asked only for arguments the path does not take', () => {
    const asked: Record<string, unknown>[] = [];
    class Recorded extends RestEndpoint {
      override searchToString(params: Record<string, unknown>) {
        asked.push(params);
        return 'q';
      }
    }
    const endpoint = new Recorded({ path: '/users/:userId/todos/:id?', urlPrefix: server.url });
    expect(endpoint.url({ userId: 1, id: 2 })).toBe(`${server.url}/users/1/todos/2`);
    expect(endpoint.url({ userId: 1 })).toBe(`${server.url}/users/1/todos`);
    expect(asked).toEqual([]);
    expect(endpoint.url({ userId: 1, page: 2 })).toBe(`${server.url}/users/1/todos?q`);
    expect(asked).toEqual([{ page: 2 }]);
  });

  it('a path value that is an object or a list is refused with a clear error', () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url });
    // The types refuse them too; the check is for callers the types do not reach.
    expect(() => endpoint.url({ id: { a: 1 } as never })).toThrow(
      `${server.url}/todos/:id: the URL parameter "id" must be a string or a number, not {"a":1}`,
    );
    expect(() => endpoint.url({ id: [1, 2] as never })).toThrow(/not \[1,2\]/);
    // A repeated parameter too (docs/decisions.md): one value fills it, a list is refused.
    const files = new RestEndpoint({ path: '/files/:path*', urlPrefix: server.url });
    expect(files.url({ path: 'a' })).toBe(`${server.url}/files/a`);
    expect(() => files.url({ path: ['a', 'b'] } as never)).toThrow(
      `${server.url}/files/:path*: the URL parameter "path" must be a string or a number, not ["a","b"]`,
    );
  });

  it('a path value of "." or ".." is refused: no URL can carry it inside the path', async () => {
    // URLs read such a segment as "this" or "the parent" segment: the request would leave the
    // resource (`GET /` for `get({ id: '..' })`). Values are percent-encoded, so `%2e` is no
    // dot segment: it reaches the server as the text "%2e" (see urlParams.test.ts).
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    for (const id of ['.', '..']) {
      expect(() => endpoint.url({ id })).toThrow(TypeError);
      expect(() => endpoint.url({ id })).toThrow(
        `${server.url}/todos/:id: the URL parameter "id" cannot be "${id}" (a dot segment would leave the path)`,
      );
    }
    const { controller } = createStore();
    await expect(controller.fetch(endpoint, { id: '..' })).rejects.toThrow(TypeError);
    expect(received(server)).toEqual([]);
    // Dots inside a value are fine.
    expect(endpoint.url({ id: 'a.b' })).toBe(`${server.url}/todos/a.b`);
    expect(endpoint.url({ id: '...' })).toBe(`${server.url}/todos/...`);
  });

  it('encodes path parameter values, and numbers and strings give the same URL', async () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url });
    expect(endpoint.url({ id: 'a b/c' })).toBe(`${server.url}/todos/a%20b%2Fc`);
    expect(endpoint.url({ id: 2 })).toBe(endpoint.url({ id: '2' }));
    expect(endpoint.key({ id: 2 })).toBe(endpoint.key({ id: '2' }));
    await expect(endpoint({ id: 'a b/c' })).rejects.toMatchObject({ status: 404 });
    expect(received(server)).toEqual(['GET /todos/a%20b%2Fc']);
  });

  it('an optional parameter (`:name?`) is left out with its slash when not given', async () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id?', urlPrefix: server.url });
    expect(endpoint.url({})).toBe(`${server.url}/todos`);
    expect(endpoint.url({ id: 3 })).toBe(`${server.url}/todos/3`);
    expect(endpoint.key()).not.toBe(endpoint.key({ id: 3 }));
    const all = await endpoint();
    const one = await endpoint({ id: 3 });
    expect(received(server)).toEqual(['GET /todos', 'GET /todos/3']);
    expect(all).toEqual(FOUR_TODOS);
    expect(one).toEqual(FOUR_TODOS[2]);
  });

  it('literal query text in a path (`\\\\?per_page=2`) is sent as is, and more arguments continue it', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos\\?per_page=2',
      urlPrefix: server.url,
      schema: [Todo],
    });
    expect(endpoint.url()).toBe(`${server.url}/todos?per_page=2`);
    expect(endpoint.url({ userId: 2, orderBy: 'title' })).toBe(
      `${server.url}/todos?per_page=2&orderBy=title&userId=2`,
    );
    const { controller, getState } = createStore();
    expect(ids(await controller.fetch(endpoint))).toEqual([1, 2]);
    expect(ids(await controller.fetch(endpoint, { userId: 2, orderBy: 'title' }))).toEqual([4, 3]);
    expect(received(server)).toEqual([
      'GET /todos?per_page=2',
      'GET /todos?per_page=2&orderBy=title&userId=2',
    ]);
    expect([...getState().endpoints.keys()]).toEqual([
      `GET ${server.url}/todos?per_page=2`,
      `GET ${server.url}/todos?per_page=2&orderBy=title&userId=2`,
    ]);
  });

  it('an endpoint whose path has literal query text recognizes its own keys (expireAll)', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos\\?per_page=2',
      urlPrefix: server.url,
      schema: [Todo],
    });
    const other = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    expect(endpoint.testKey(endpoint.key())).toBe(true);
    expect(endpoint.testKey(endpoint.key({ userId: 1 }))).toBe(true);
    expect(endpoint.testKey(other.key({ id: 1 }))).toBe(false);
    expect(other.testKey(endpoint.key())).toBe(false);

    const { controller, getState } = createStore();
    await controller.fetch(endpoint, { userId: 1 });
    await controller.fetch(other, { id: 3 });
    controller.expireAll(endpoint);
    const meta = getState().meta;
    expect(meta.get(endpoint.key({ userId: 1 }))?.expiresAt).toBe(1);
    expect(meta.get(other.key({ id: 3 }))?.expiresAt).toBeGreaterThan(Date.now());
  });
});

describe('a missing required path parameter', () => {
  it('is an error naming the parameter and the path, and nothing is sent', async () => {
    const endpoint = new RestEndpoint({
      path: '/users/:userId/todos/:id',
      urlPrefix: server.url,
      name: 'getUserTodo',
    });
    expect(() => endpoint.url({ id: 1 } as never)).toThrow(TypeError);
    expect(() => endpoint.url({ id: 1 } as never)).toThrow(
      /missing URL parameter "userId" for path "\/users\/:userId\/todos\/:id"/,
    );
    expect(() => endpoint.url({} as never)).toThrow(/"userId", "id"/);
    expect(() => endpoint.key({ id: 1 } as never)).toThrow(/"userId"/);
    await expect(endpoint({ id: 1 } as never)).rejects.toThrow(/getUserTodo.*"userId"/);
    expect(server.requests).toEqual([]);
  });

  it('rejects controller.fetch with that error and stores nothing', async () => {
    const Resource = createResource({
      path: '/users/:userId/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
    });
    const { controller, getState } = createStore();
    const before = getState();
    // (controller.fetch throws this synchronously, as it computes the key first.)
    await expect(async () => controller.fetch(Resource.get, { id: 1 } as never)).rejects.toThrow(
      'Todo.get: missing URL parameter "userId" for path "/users/:userId/todos/:id"',
    );
    expect(getState()).toBe(before);
    expect(server.requests).toEqual([]);
  });

  it('an explicitly undefined or null required parameter counts as missing', () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url });
    expect(() => endpoint.url({ id: undefined } as never)).toThrow(/"id"/);
    expect(() => endpoint.url({ id: null } as never)).toThrow(/"id"/);
    expect(() => endpoint.url({ id: 0 })).not.toThrow();
    expect(endpoint.url({ id: 0 })).toBe(`${server.url}/todos/0`);
  });

  it('is not a NetworkError (it never reached the network)', async () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url });
    const error = await endpoint({} as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(NetworkError);
  });
});

describe('mistakes in a call or a definition are refused by name, before anything is sent', () => {
  it('a body-taking call with one argument: the error says that argument was read as the body', async () => {
    const Resource = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
    const { controller, getState } = createStore();
    const before = getState();
    // As a JavaScript caller may write it: the body (and the types) left out.
    const fetchAsJavaScript = controller.fetch as (...args: unknown[]) => Promise<unknown>;
    await expect(fetchAsJavaScript(Resource.update, { id: 1 })).rejects.toThrow(
      'Todo.update: missing URL parameter "id" for path "/todos/:id" (one argument is the body: pass the URL parameters first)',
    );
    // A read with a missing parameter gets no such note: it has no body.
    await expect(controller.fetch(Resource.get, {} as never)).rejects.toThrow(
      /^Todo\.get: missing URL parameter "id" for path "\/todos\/:id"$/,
    );
    expect(getState()).toBe(before);
    expect(server.requests).toEqual([]);
  });

  it('something that is not an endpoint (a misspelt member) is named in every controller method', async () => {
    const Resource = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
    const misspelt = (Resource as unknown as Record<string, unknown>).getlist;
    const store = createStore();
    // As a JavaScript caller may write it: the types do not stop the mistake.
    const controller = store.controller as unknown as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const state = store.getState();
    const message =
      /^controller\.(\w+): the first argument must be an endpoint \(such as TodoResource\.get\), not undefined$/;
    await expect(controller.fetch?.(misspelt, {})).rejects.toThrow(message);
    expect(() => controller.setResponse?.(misspelt, {}, [])).toThrow(/^controller\.setResponse: /);
    expect(() => controller.invalidate?.(misspelt, {})).toThrow(/^controller\.invalidate: /);
    expect(() => controller.getResponse?.(misspelt, {}, state)).toThrow(
      /^controller\.getResponse: /,
    );
    expect(() => controller.getError?.(misspelt, {}, state)).toThrow(/^controller\.getError: /);
    expect(() => controller.fetchIfStale?.(misspelt, {})).toThrow(/^controller\.getResponse: /);
    // fetch rejects (never throws): a caller's `.catch` sees every failure.
    await expect(controller.fetch?.({ key: 'x' })).rejects.toThrow(/, not \{"key":"x"\}$/);
    expect(server.requests).toEqual([]);
  });

  it('a path that is not a template fails when the resource is made, naming the member and the path', () => {
    expect(() =>
      createResource({ path: 'http://api.example.com/todos/:id', schema: Todo }),
    ).toThrow(
      'Todo.get: the path "http://api.example.com/todos/:id" is not a path template: Missing parameter name at 4 (the origin belongs in urlPrefix; the path starts at "/")',
    );
    expect(() => new RestEndpoint({ path: '/todos/:', name: 'broken' })).toThrow(
      /^broken: the path "\/todos\/:" is not a path template: /,
    );
  });

  it('createResource without a path string or a schema says which option is wrong', () => {
    expect(() => createResource({ schema: Todo } as never)).toThrow(
      'createResource: path must be a string like "/todos/:id", not undefined',
    );
    expect(() => createResource({ path: 5, schema: Todo } as never)).toThrow(
      'createResource: path must be a string like "/todos/:id", not 5',
    );
    expect(() => createResource({ path: '/todos/:id' } as never)).toThrow(
      'createResource: schema is required (an Entity class, or a schema of one)',
    );
  });
});
