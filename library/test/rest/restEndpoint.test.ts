import { describe, expect, it } from 'vitest';
import {
  createStore,
  ExpiryStatus,
  type HttpMethod,
  NetworkError,
  RestEndpoint,
  schema,
} from '../../src/index.js';
import { plain } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, ids, jsonBody, lastRequest, received, rows, Todo } from './support.js';

const server = serverPerTest({ todos: FOUR_TODOS });

describe('RestEndpoint options', () => {
  it.each([
    ['GET', undefined],
    ['POST', true],
    ['PUT', true],
    ['PATCH', true],
    ['DELETE', true],
  ] as const)(
    'method %s infers sideEffect %s and is the method sent',
    async (method, sideEffect) => {
      const endpoint = new RestEndpoint({
        path: '/todos/:id',
        urlPrefix: server.url,
        method: method as HttpMethod,
        body: undefined,
      });
      expect(endpoint.method).toBe(method);
      expect(endpoint.sideEffect).toBe(sideEffect);
      // The server refuses some of these (405): what matters here is what it received.
      await endpoint({ id: 1 }).catch(() => null);
      expect(received(server)).toEqual([`${method} /todos/1`]);
    },
  );

  it('without a method: POST when sideEffect is true, otherwise GET; an explicit sideEffect wins', () => {
    expect(new RestEndpoint({ path: '/todos', sideEffect: true }).method).toBe('POST');
    expect(new RestEndpoint({ path: '/todos' }).method).toBe('GET');
    expect(new RestEndpoint({ path: '/todos' }).sideEffect).toBeUndefined();
    const quietPost = new RestEndpoint({ path: '/todos', method: 'POST', sideEffect: undefined });
    expect(quietPost.method).toBe('POST');
    expect(quietPost.sideEffect).toBeUndefined();
  });

  it('urlPrefix is prepended to every URL (and defaults to the empty string)', async () => {
    const bare = new RestEndpoint({ path: '/todos/:id' });
    expect(bare.urlPrefix).toBe('');
    expect(bare.url({ id: 1 })).toBe('/todos/1');
    const prefixed = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url });
    expect(prefixed.url({ id: 1 })).toBe(`${server.url}/todos/1`);
    expect(await prefixed({ id: 1 })).toEqual(FOUR_TODOS[0]);
    expect(received(server)).toEqual(['GET /todos/1']);
  });

  it('searchParams and body are type markers: their values never reach the request', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos',
      urlPrefix: server.url,
      method: 'POST',
      searchParams: { userId: 99 } as { userId?: number },
      body: { title: 'from the options' } as { title: string },
    });
    await endpoint({ userId: 2 }, { title: 'sent' });
    const request = lastRequest(server);
    expect(`${request.method} ${request.url}`).toBe('POST /todos?userId=2');
    expect(jsonBody(request)).toEqual({ title: 'sent' });
  });

  it('a body endpoint sends its last argument as JSON; a single argument is the body', async () => {
    const create = new RestEndpoint({ path: '/todos', urlPrefix: server.url, method: 'POST' });
    await create({ userId: 2 }, { title: 'with params' });
    await create({ title: 'body only', userId: 1 });
    const [first, second] = server.requests;
    expect(`${first?.method} ${first?.url}`).toBe('POST /todos?userId=2');
    expect(jsonBody(first)).toEqual({ title: 'with params' });
    expect(`${second?.method} ${second?.url}`).toBe('POST /todos');
    expect(jsonBody(second)).toEqual({ title: 'body only', userId: 1 });
    expect(server.todos.slice(-2)).toEqual([
      { id: 5, title: 'with params', completed: false, userId: 2 },
      { id: 6, title: 'body only', completed: false, userId: 1 },
    ]);
  });

  it('`body: undefined` makes a POST take no body: its one argument is the URL parameters', async () => {
    const toggle = new RestEndpoint({
      path: '/todos/:id/toggle',
      urlPrefix: server.url,
      method: 'POST',
      body: undefined,
    });
    expect(toggle.hasBody).toBe(false);
    expect(await toggle({ id: 2 })).toEqual({ ...FOUR_TODOS[1], completed: false });
    const request = lastRequest(server);
    expect(`${request.method} ${request.url}`).toBe('POST /todos/2/toggle');
    expect(request.body).toBe('');
    expect(request.headers['content-type']).toBeUndefined();
  });

  it('schema: the response is normalized into the store and read back as entity instances', async () => {
    const getTodos = new RestEndpoint({
      path: '/todos',
      urlPrefix: server.url,
      schema: new schema.Collection([Todo]),
    });
    const { controller, getState } = createStore();
    const list = await controller.fetch(getTodos, { userId: 2 });
    expect(list.every((todo) => todo instanceof Todo)).toBe(true);
    expect(ids(list)).toEqual([3, 4]);
    const state = getState();
    expect(plain(state.entities).Todo).toEqual({ '3': FOUR_TODOS[2], '4': FOUR_TODOS[3] });
    expect(rows(state)).toEqual({ '{"userId":"2"}': ['3', '4'] });
    expect(state.endpoints.get(getTodos.key({ userId: 2 }))).toBe('{"userId":"2"}');
    const read = controller.getResponse(getTodos, { userId: 2 }, state);
    expect(read.data).toEqual(list);
    expect(read.expiryStatus).toBe(ExpiryStatus.Valid);
  });

  it('process receives the parsed response and the call arguments; its result is stored', async () => {
    const calls: unknown[][] = [];
    const update = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      method: 'PATCH',
      schema: Todo,
      process(value: Record<string, unknown>, ...args: unknown[]) {
        calls.push([value, ...args]);
        return { ...value, title: String(value.title).toUpperCase() };
      },
    });
    const { controller, getState } = createStore();
    const result = await controller.fetch(update, { id: 1 }, { title: 'patched' });
    expect(calls).toEqual([
      [{ ...FOUR_TODOS[0], title: 'patched' }, { id: 1 }, { title: 'patched' }],
    ]);
    expect(result.title).toBe('PATCHED');
    expect(plain(getState().entities).Todo?.['1']).toEqual({ ...FOUR_TODOS[0], title: 'PATCHED' });
  });

  it('getRequestInit(body): JSON body with Content-Type; the server receives exactly that', async () => {
    const create = new RestEndpoint({ path: '/todos', urlPrefix: server.url, method: 'POST' });
    const init = await create.getRequestInit({ title: 'json', tags: [1, 2] });
    expect(init).toEqual({
      method: 'POST',
      body: '{"title":"json","tags":[1,2]}',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    });
    await create({ title: 'json' });
    const request = lastRequest(server);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.accept).toBe('application/json');
    expect(request.body).toBe('{"title":"json"}');
  });

  it('getRequestInit(): no body and no Content-Type without a body; non-JSON bodies pass as they are', async () => {
    const get = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    expect(await get.getRequestInit()).toEqual({
      method: 'GET',
      body: undefined,
      headers: { Accept: 'application/json' },
    });
    await get();
    expect(lastRequest(server).headers['content-type']).toBeUndefined();

    const post = new RestEndpoint({ path: '/todos', urlPrefix: server.url, method: 'POST' });
    const form = new URLSearchParams({ title: 'form' });
    const init = await post.getRequestInit(form);
    expect(init.body).toBe(form);
    expect(init.headers).toEqual({ Accept: 'application/json' });
    // The server only reads JSON, so it refuses the form: what matters is what it received.
    await expect(post(form)).rejects.toMatchObject({ status: 400 });
    expect(lastRequest(server).body).toBe('title=form');
    expect(lastRequest(server).headers['content-type']).toContain(
      'application/x-www-form-urlencoded',
    );
  });

  it('requestInit is merged into every request; its headers replace defaults of any case', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos',
      urlPrefix: server.url,
      method: 'POST',
      requestInit: {
        headers: { 'X-Trace': 'abc', accept: 'application/vnd.todo+json' },
        cache: 'no-store',
      },
    });
    const init = await endpoint.getRequestInit({ title: 't' });
    expect(init.cache).toBe('no-store');
    expect(init.headers).toEqual({
      accept: 'application/vnd.todo+json',
      'Content-Type': 'application/json',
      'X-Trace': 'abc',
    });
    await endpoint({ title: 't' });
    const { headers } = lastRequest(server);
    expect(headers['x-trace']).toBe('abc');
    expect(headers.accept).toBe('application/vnd.todo+json');
    expect(headers['content-type']).toBe('application/json');
  });

  it('getHeaders receives the computed headers and has the last word (may be async)', async () => {
    const seen: Record<string, string>[] = [];
    const endpoint = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      requestInit: { headers: { 'X-Client': 'tests' } },
      async getHeaders(headers: Record<string, string>) {
        seen.push({ ...headers });
        await Promise.resolve();
        return { ...headers, Authorization: 'Bearer token-1' };
      },
    });
    await endpoint({ id: 1 });
    expect(seen).toEqual([{ Accept: 'application/json', 'X-Client': 'tests' }]);
    const { headers } = lastRequest(server);
    expect(headers.authorization).toBe('Bearer token-1');
    expect(headers['x-client']).toBe('tests');
  });

  it('dataExpiryLength sets how long a stored result stays fresh (meta.expiresAt)', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      schema: Todo,
      dataExpiryLength: 5_000,
    });
    const { controller, getState } = createStore();
    await controller.fetch(endpoint, { id: 1 });
    const meta = getState().meta.get(endpoint.key({ id: 1 }));
    expect(meta).toBeDefined();
    expect((meta?.expiresAt ?? 0) - (meta?.date ?? 0)).toBe(5_000);
    expect(controller.getResponse(endpoint, { id: 1 }, getState()).expiresAt).toBe(meta?.expiresAt);
  });

  it('errorExpiryLength sets how long a stored error is kept (error meta.expiresAt)', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      schema: Todo,
      errorExpiryLength: 250,
    });
    const { controller, getState } = createStore();
    await expect(controller.fetch(endpoint, { id: 42 })).rejects.toBeInstanceOf(NetworkError);
    const meta = getState().meta.get(endpoint.key({ id: 42 }));
    expect(meta?.error).toBeInstanceOf(NetworkError);
    expect((meta?.expiresAt ?? 0) - (meta?.date ?? 0)).toBe(250);
  });

  it('pollFrequency (and the other extra options) are kept on the endpoint and through extend', () => {
    const endpoint = new RestEndpoint({
      path: '/todos',
      pollFrequency: 1_000,
      invalidIfStale: true,
    });
    expect(endpoint.pollFrequency).toBe(1_000);
    expect(endpoint.invalidIfStale).toBe(true);
    const extended = endpoint.extend({ path: '/todos/:id' });
    expect(extended.pollFrequency).toBe(1_000);
    expect(extended.invalidIfStale).toBe(true);
    expect(endpoint.extend({ pollFrequency: 50 }).pollFrequency).toBe(50);
  });

  it('name: urlPrefix + path by default, following the path through extend; an explicit name stays', () => {
    const unnamed = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url });
    expect(unnamed.name).toBe(`${server.url}/todos/:id`);
    expect(unnamed.extend({ path: '/users/:id' }).name).toBe(`${server.url}/users/:id`);
    const named = new RestEndpoint({ path: '/todos/:id', name: 'getTodo' });
    expect(named.name).toBe('getTodo');
    expect(named.extend({ path: '/users/:id' }).name).toBe('getTodo');
    expect(named.extend({ name: 'renamed' }).name).toBe('renamed');
  });

  it('key(): "METHOD url"; for body endpoints the URL parameters, never the body', () => {
    const get = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url });
    expect(get.key({ id: 3 })).toBe(`GET ${server.url}/todos/3`);
    const update = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url, method: 'PUT' });
    expect(update.key({ id: 3 }, { title: 'a' })).toBe(`PUT ${server.url}/todos/3`);
    expect(update.key({ id: 3 }, { title: 'b' })).toBe(update.key({ id: 3 }, { title: 'a' }));
  });

  it('url() builds the URL a call requests', async () => {
    const endpoint = new RestEndpoint({
      path: '/users/:userId/todos',
      urlPrefix: server.url,
      searchParams: {} as { orderBy?: keyof Todo },
    });
    const url = endpoint.url({ userId: 2, orderBy: 'title' });
    await endpoint({ userId: 2, orderBy: 'title' });
    expect(`${server.url}${lastRequest(server).url}`).toBe(url);
  });

  it('extend() returns a new endpoint of the same class with the options replaced', async () => {
    class Traced extends RestEndpoint {
      override async getRequestInit(body?: unknown): Promise<RequestInit> {
        const init = await super.getRequestInit(body);
        return { ...init, headers: { ...(init.headers as object), 'X-Traced': 'yes' } };
      }
    }
    const base = new Traced({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    const patch = base.extend({ method: 'PATCH', name: 'patchTodo' });
    expect(patch).toBeInstanceOf(Traced);
    expect(patch).not.toBe(base);
    expect([patch.method, patch.sideEffect, patch.name, patch.schema]).toEqual([
      'PATCH',
      true,
      'patchTodo',
      Todo,
    ]);
    expect([base.method, base.sideEffect]).toEqual(['GET', undefined]);
    const { controller, getState } = createStore();
    await controller.fetch(patch, { id: 2 }, { title: 'via extend' });
    const request = lastRequest(server);
    expect(`${request.method} ${request.url}`).toBe('PATCH /todos/2');
    expect(request.headers['x-traced']).toBe('yes');
    expect(jsonBody(request)).toEqual({ title: 'via extend' });
    expect(plain(getState().entities).Todo?.['2']).toMatchObject({ title: 'via extend' });
  });

  it('extend() keeps the method unless the options name one, and a new method works out sideEffect again (as data-client)', async () => {
    const read = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    const sideEffecting = read.extend({ sideEffect: true });
    expect([sideEffecting.method, sideEffecting.sideEffect]).toEqual(['GET', true]);
    const { controller } = createStore();
    await controller.fetch(sideEffecting, { id: 1 });
    expect(received(server)).toEqual(['GET /todos/1']);

    const created = new RestEndpoint({ path: '/todos', urlPrefix: server.url, sideEffect: true });
    expect([created.method, created.extend({ name: 'create' }).method]).toEqual(['POST', 'POST']);
    const explicit = new RestEndpoint({ path: '/todos/:id', method: 'GET', sideEffect: true });
    expect([
      explicit.extend({ method: 'PUT' }).sideEffect,
      explicit.extend({ method: 'GET' }).sideEffect,
    ]).toEqual([true, undefined]);
    const kept = explicit.extend({ method: 'GET', sideEffect: true });
    expect([kept.method, kept.sideEffect]).toEqual(['GET', true]);
  });

  it('paginated(field): the page is requested with the cursor and merged into the list stored without it', async () => {
    const list = new RestEndpoint({
      path: '/todos',
      urlPrefix: server.url,
      schema: new schema.Collection([Todo]),
    });
    const nextPage = list.paginated('cursor');
    expect(nextPage.key({ cursor: 2, per_page: 2 })).toBe(list.key({ per_page: 2 }));
    expect(nextPage.url({ cursor: 2, per_page: 2 })).toBe(
      `${server.url}/todos?cursor=2&per_page=2`,
    );
    // The HTTP request itself stays identifiable by its cursor.
    expect(nextPage.requestKey({ cursor: 2 })).not.toBe(nextPage.requestKey({ cursor: 3 }));

    const { controller, getState } = createStore();
    await controller.fetch(list, { per_page: 2 });
    const page = await controller.fetch(nextPage, { cursor: 2, per_page: 2 });
    expect(received(server)).toEqual(['GET /todos?per_page=2', 'GET /todos?cursor=2&per_page=2']);
    expect(ids(page)).toEqual([3, 4]);
    expect(rows(getState())).toEqual({ '{"per_page":"2"}': ['1', '2', '3', '4'] });
    expect(ids(controller.getResponse(list, { per_page: 2 }, getState()).data)).toEqual([
      1, 2, 3, 4,
    ]);
  });
});

describe('RestEndpoint responses', () => {
  it('a JSON response is parsed', async () => {
    const endpoint = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    expect(await endpoint({ userId: 1 })).toEqual(FOUR_TODOS.slice(0, 2));
  });

  it('a 204 is null', async () => {
    const remove = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      method: 'DELETE',
    });
    server.setDeleteResponse('no-content');
    expect(await remove({ id: 1 })).toBeNull();
    expect(received(server)).toEqual(['DELETE /todos/1']);
  });

  it('an empty 200 body is null, with or without a JSON content type', async () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    server.respondNext({ status: 200, body: '', contentType: 'text/plain' });
    expect(await endpoint({ id: 1 })).toBeNull();
    server.setDeleteResponse('empty');
    const remove = endpoint.extend({ method: 'DELETE', schema: undefined });
    expect(await remove({ id: 1 })).toBeNull();
    const batch = new RestEndpoint({ path: '/todos', urlPrefix: server.url, method: 'DELETE' });
    expect(await batch({ ids: '2,3' })).toBeNull(); // answered '' with content-type JSON
    expect(server.todos.map((todo) => todo.id)).toEqual([4]);
  });

  it('non-JSON text where the schema needs data is a clear error; the store keeps its data', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      schema: Todo,
      name: 'getTodo',
    });
    const { controller, getState } = createStore();
    await controller.fetch(endpoint, { id: 1 });
    const before = getState();
    server.respondNext({ status: 200, body: '<html>maintenance</html>', contentType: 'text/html' });
    const error = await controller.fetch(endpoint, { id: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 400 });
    expect(String((error as Error).message)).toMatch(
      /getTodo: expected JSON from .*\/todos\/1 but received text\/html: <html>maintenance<\/html>/,
    );
    const after = getState();
    expect(after.entities).toBe(before.entities);
    expect(after.endpoints).toBe(before.endpoints);
    expect(after.meta.get(endpoint.key({ id: 1 }))?.error).toBe(error);
    expect(controller.getResponse(endpoint, { id: 1 }, after).data).toEqual(FOUR_TODOS[0]);
  });

  it('non-JSON text is returned as text when the schema needs no data', async () => {
    const endpoint = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    server.respondNext({ status: 200, body: 'plain words', contentType: 'text/plain' });
    expect(await endpoint()).toBe('plain words');
  });

  it('a body that claims to be JSON but is not is an error even without a schema', async () => {
    const endpoint = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    server.respondNext({ rawBody: '{"broken', contentType: 'application/json; charset=utf-8' });
    const error = await endpoint().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 400 });
    expect((error as Error).message).toContain('{"broken');
    // The same text under a text content type is just text.
    server.respondNext({ rawBody: '{"broken', contentType: 'text/plain; charset=utf-8' });
    expect(await endpoint()).toBe('{"broken');
  });

  it.each([
    [404, { error: 'no such todo' }],
    [422, { error: 'title is required' }],
    [500, { error: 'the database is down' }],
    [503, { error: 'try later' }],
  ])(
    'HTTP %i rejects with a NetworkError carrying the status and the response',
    async (status, body) => {
      const endpoint = new RestEndpoint({
        path: '/todos/:id',
        urlPrefix: server.url,
        schema: Todo,
      });
      server.failNext(status, body);
      const { controller, getState } = createStore();
      const error = await controller.fetch(endpoint, { id: 1 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NetworkError);
      const networkError = error as NetworkError;
      expect(networkError.status).toBe(status);
      expect(networkError.response?.status).toBe(status);
      expect(networkError.response?.url).toBe(`${server.url}/todos/1`);
      expect(await networkError.response?.json()).toEqual(body);
      expect(networkError.message).toContain(`GET ${server.url}/todos/1: ${status}`);
      // The server's JSON error body is kept, parsed, and quoted in the message.
      expect(networkError.body).toEqual(body);
      expect(networkError.message).toContain(JSON.stringify(body));
      expect(JSON.parse(JSON.stringify(networkError)).body).toEqual(body);
      expect(getState().meta.get(endpoint.key({ id: 1 }))?.error).toBe(error);
      expect(plain(getState().entities)).toEqual({});
    },
  );

  it('a network failure (server closed) rejects with a NetworkError without a response', async () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    await server.close();
    const { controller, getState } = createStore();
    const error = await controller.fetch(endpoint, { id: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    const networkError = error as NetworkError;
    expect(networkError.status).toBe(0);
    expect(networkError.response).toBeUndefined();
    expect(networkError.cause).toBeInstanceOf(TypeError);
    expect(networkError.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/todos\/1: no response/);
    expect(getState().meta.get(endpoint.key({ id: 1 }))?.error).toBe(error);
    expect(JSON.parse(JSON.stringify(networkError))).toEqual({
      name: 'NetworkError',
      status: 0,
      message: networkError.message,
    });
  });

  it('a body cut short (less than its Content-Length) rejects with a NetworkError of status 0', async () => {
    const endpoint = new RestEndpoint({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    server.respondNext({ rawBody: '{"id": 1, "ti', announcedLength: 200 });
    const { controller, getState } = createStore();
    const error = await controller.fetch(endpoint, { id: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).status).toBe(0);
    expect((error as NetworkError).message).toContain(`${server.url}/todos/1`);
    expect((error as NetworkError).message).toContain('broke off');
    expect(getState().meta.get(endpoint.key({ id: 1 }))?.error).toBe(error);
    expect(plain(getState().entities)).toEqual({});
  });
});
