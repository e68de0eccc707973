import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  Endpoint,
  ExpiryStatus,
  NetworkError,
  RestEndpoint,
  type RestEndpointOptions,
  SchemaError,
  schema,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import {
  FOUR_TODOS,
  ids,
  jsonBody,
  lastRequest,
  row,
  Todo,
  type TodoBody,
  todoResource,
  track,
} from './support.js';

/** Code written for @data-client/rest, run as it is (runtime side; types are in test/types). */

const server = serverPerTest({ todos: FOUR_TODOS });

describe('errors as data-client users expect them', () => {
  it('a 5xx on a refetch is a soft error: the data shown before stays, without an error', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.get, { id: 1 });
    server.failNext(503);
    await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({
      status: 503,
    });
    const read = controller.getResponse(TodoResource.get, { id: 1 }, getState());
    expect(read.data?.title).toBe('write tests');
    expect(controller.getError(TodoResource.get, { id: 1 }, getState())).toBeUndefined();
    expect(getState().meta.get(TodoResource.get.key({ id: 1 }))?.errorPolicy).toBe('soft');
  });

  it('a 4xx is a hard error, shown even over the data held before', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.get, { id: 1 });
    server.failNext(404);
    await controller.fetch(TodoResource.get, { id: 1 }).catch(() => {});
    const error = controller.getError(TodoResource.get, { id: 1 }, getState());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).status).toBe(404);
  });

  it('a 5xx with no data to show is shown', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    server.failNext(500);
    await controller.fetch(TodoResource.get, { id: 1 }).catch(() => {});
    expect(controller.getError(TodoResource.get, { id: 1 }, getState())).toBeInstanceOf(
      NetworkError,
    );
  });

  it.each([
    ['an empty 200', { status: 200, rawBody: '' }],
    ['a 204', { status: 204 }],
    ['a JSON null', { status: 200, rawBody: 'null' }],
  ])('%s for an entity endpoint is an error, and stores no null', async (_name, answer) => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    server.respondNext(answer);
    const fetched = controller.fetch(TodoResource.get, { id: 1 });
    await expect(fetched).rejects.toThrow(SchemaError);
    await expect(fetched).rejects.toThrow(/Todo expects data but the response was empty/);
    const key = TodoResource.get.key({ id: 1 });
    expect(getState().endpoints.get(key)).toBeUndefined();
    expect(getState().meta.get(key)?.error).toBeInstanceOf(SchemaError);
    const read = controller.getResponse(TodoResource.get, { id: 1 }, getState());
    expect(read.data).toBeUndefined();
  });

  it('a push answered with null is an error and adds nothing', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    server.respondNext({ status: 200, rawBody: 'null' });
    await expect(
      controller.fetch(TodoResource.getList.push, {}, { title: 'lost' }),
    ).rejects.toThrow(/\[Todo\] expects data but the response was empty \(null\)/);
    expect(ids(controller.getResponse(TodoResource.getList, {}, getState()).data)).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('a response that does not fit the schema rejects with status 400', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    server.respondNext({ status: 200, body: { title: 'no id' } });
    const failure = await controller.fetch(TodoResource.get, { id: 1 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SchemaError);
    expect((failure as SchemaError).status).toBe(400);
    expect(controller.getError(TodoResource.get, { id: 1 }, getState())).toBe(failure);
  });
});

describe('failures as data-client reports them', () => {
  it('a network failure on a refetch is soft too: the data shown before stays', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.get, { id: 1 });
    await server.close();
    await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({
      status: 0,
    });
    expect(getState().meta.get(TodoResource.get.key({ id: 1 }))?.errorPolicy).toBe('soft');
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data?.title).toBe(
      'write tests',
    );
    expect(controller.getError(TodoResource.get, { id: 1 }, getState())).toBeUndefined();
  });

  it('an aborted request rejects with the AbortError fetch made, not a NetworkError', async () => {
    const abort = new AbortController();
    const endpoint = todoResource(server.url).get.extend({ signal: abort.signal });
    server.setDelay(1000);
    const fetched = endpoint({ id: 1 }).catch((error: unknown) => error);
    await server.waitForRequest();
    abort.abort();
    const error = await fetched;
    expect(error).not.toBeInstanceOf(NetworkError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('a custom fetchResponse may throw new NetworkError(response), as data-client allows', async () => {
    class Strict extends RestEndpoint {
      override async fetchResponse(url: string, init: RequestInit): Promise<Response> {
        const response = await fetch(url, init);
        if (response.status === 404) throw new NetworkError(response);
        return response;
      }
    }
    const endpoint = new Strict({ path: '/todos/:id', urlPrefix: server.url, schema: Todo });
    const error = await endpoint({ id: 42 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 404, name: 'NetworkError' });
    expect((error as NetworkError).response?.status).toBe(404);
    expect((error as NetworkError).message).toBe(`${server.url}/todos/42: 404 Not Found`);
  });
});

describe('text answers, read as data-client reads them', () => {
  it.each(['123', 'true', 'null', '{"a":1}'])(
    'text/plain %s, where no schema needs data, is the text itself',
    async (text) => {
      const endpoint = new RestEndpoint({ path: '/version', urlPrefix: server.url });
      server.respondNext({ status: 200, rawBody: text, contentType: 'text/plain' });
      expect(await endpoint()).toBe(text);
    },
  );

  it('JSON sent as text/plain still fills a schema that needs data', async () => {
    const TodoResource = todoResource(server.url);
    server.respondNext({ status: 200, rawBody: '{"id":1,"title":"t"}', contentType: 'text/plain' });
    expect(await TodoResource.get({ id: 1 })).toEqual({ id: 1, title: 't' });
  });

  it('an own process reads text into what the schema needs (e.g. CSV)', async () => {
    const endpoint = new RestEndpoint({
      path: '/todos.csv',
      urlPrefix: server.url,
      schema: [Todo],
      process: (text: string) =>
        text.split('\n').map((line) => {
          const [id, title] = line.split(',');
          return { id: Number(id), title };
        }),
    });
    server.respondNext({ status: 200, rawBody: '1,write\n2,ship', contentType: 'text/csv' });
    const { controller, getState } = createStore();
    await controller.fetch(endpoint);
    expect(
      controller.getResponse(endpoint, {}, getState()).data?.map((todo) => todo.title),
    ).toEqual(['write', 'ship']);
  });
});

describe('getRequestInit overrides (spec 2.3)', () => {
  /** Records what each request was sent with. */
  const sent: RequestInit[] = [];

  class SameOrigin<O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
    override getRequestInit(body?: unknown): RequestInit {
      return { ...(super.getRequestInit(body) as RequestInit), credentials: 'same-origin' };
    }
    override fetchResponse(url: string, init: RequestInit) {
      sent.push(init);
      return super.fetchResponse(url, init);
    }
  }

  class Delayed<O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
    override async getRequestInit(body?: unknown): Promise<RequestInit> {
      const init = await super.getRequestInit(body);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { ...init, headers: { ...(init.headers as object), 'x-token': 'abc' } };
    }
  }

  it('a synchronous override spreading the parent keeps method, headers and body', async () => {
    sent.length = 0;
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      body: {} as TodoBody,
      Endpoint: SameOrigin,
    });
    const { controller } = createStore();
    const updated = await controller.fetch(TodoResource.update, { id: 2 }, { title: 'renamed' });
    expect(updated.title).toBe('renamed');
    const request = lastRequest(server);
    expect(request.method).toBe('PUT');
    expect(request.headers['content-type']).toBe('application/json');
    expect(jsonBody(request)).toEqual({ title: 'renamed' });
    expect(sent.at(-1)).toMatchObject({ method: 'PUT', credentials: 'same-origin' });
    // Derived members (push) use the class too.
    await controller.fetch(TodoResource.getList.push, {}, { title: 'new' });
    expect(sent.at(-1)).toMatchObject({ method: 'POST', credentials: 'same-origin' });
  });

  it('an async override keeps working', async () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      Endpoint: Delayed,
    });
    const { controller } = createStore();
    await controller.fetch(TodoResource.partialUpdate, { id: 3 }, { completed: true });
    const request = lastRequest(server);
    expect(request.method).toBe('PATCH');
    expect(request.headers['x-token']).toBe('abc');
    expect(request.headers['content-type']).toBe('application/json');
    expect(jsonBody(request)).toEqual({ completed: true });
  });

  it('getHeaders has the last word, and may be async', async () => {
    class Signed<O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
      override async getHeaders(headers: HeadersInit): Promise<HeadersInit> {
        return { ...(headers as Record<string, string>), authorization: 'Bearer t' };
      }
    }
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      Endpoint: Signed,
    });
    await createStore().controller.fetch(TodoResource.get, { id: 1 });
    expect(lastRequest(server).headers.authorization).toBe('Bearer t');
  });
});

describe('options readable on the endpoints', () => {
  it('every member carries the options it was built with', () => {
    const search = {} as { userId?: number };
    const body = {} as TodoBody;
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      searchParams: search,
      body,
      paginationField: 'page',
      dataExpiryLength: 5000,
      pollFrequency: 1000,
    });
    expect(TodoResource.getList.searchParams).toBe(search);
    expect(TodoResource.getList.paginationField).toBe('page');
    expect(TodoResource.getList.push.body).toBe(body);
    expect(TodoResource.getList.push.searchParams).toBe(search);
    expect(TodoResource.update.body).toBe(body);
    for (const member of [
      TodoResource.get,
      TodoResource.getList,
      TodoResource.getList.getPage,
      TodoResource.update,
      TodoResource.delete,
    ]) {
      expect(member.dataExpiryLength).toBe(5000);
      expect(member.pollFrequency).toBe(1000);
      expect(member.urlPrefix).toBe(server.url);
    }
    expect([TodoResource.get.path, TodoResource.getList.path]).toEqual(['/todos/:id', '/todos']);
    expect([TodoResource.update.method, TodoResource.update.sideEffect]).toEqual(['PUT', true]);
  });

  it('collection.addWith returns a schema.Collection, as push and unshift are', () => {
    const list = new schema.Collection([Todo]);
    const merged = list.addWith((existing, incoming) => [...incoming, ...existing]);
    expect(merged).toBeInstanceOf(schema.Collection);
    expect(list.push).toBeInstanceOf(schema.Collection);
    expect(list.unshift).toBeInstanceOf(schema.Collection);
    expect(merged.key).toBe(list.key);
  });
});

describe("create, data-client 0.9's deprecated member", () => {
  it('posts to the list path like getList.push and adds at the end, named Todo.create', async () => {
    const TodoResource = todoResource(server.url);
    expect(TodoResource.create.name).toBe('Todo.create');
    expect([TodoResource.create.method, TodoResource.create.sideEffect]).toEqual(['POST', true]);
    expect(TodoResource.create.key({ title: 'x' })).toBe(
      TodoResource.getList.push.key({ title: 'x' }),
    );
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    const created = await controller.fetch(TodoResource.create, { title: 'new' });
    expect(created).toMatchObject({ id: 5, title: 'new' });
    expect(lastRequest(server)).toMatchObject({ method: 'POST', url: '/todos' });
    expect(ids(controller.getResponse(TodoResource.getList, {}, getState()).data)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it('stays the push of the getList it was built with, as in data-client', () => {
    const Extended = todoResource(server.url).extend({ getList: { path: '/other' } });
    expect(Extended.getList.push.url()).toBe(`${server.url}/other`);
    expect(Extended.create.url()).toBe(`${server.url}/todos`);
  });
});

describe('what controller.fetch resolves to', () => {
  it('push: the created entity; getPage: the page; delete: the entity removed', async () => {
    const TodoResource = todoResource(server.url);
    const { controller } = createStore();
    await controller.fetch(TodoResource.getList, { per_page: 2 });
    const created = await controller.fetch(TodoResource.getList.push, {}, { title: 'new' });
    expect(created).toBeInstanceOf(Todo);
    expect(created).toMatchObject({ id: 5, title: 'new' });
    const page = await controller.fetch(TodoResource.getList.getPage, { per_page: 2, page: 2 });
    expect(ids(page)).toEqual([3, 4]);
    const deleted = await controller.fetch(TodoResource.delete, { id: 3 });
    expect(deleted).toBeInstanceOf(Todo);
    expect(deleted).toMatchObject({ id: 3, title: '' });
  });

  it('batch delete: the entities its answer names', async () => {
    const TodoResource = todoResource(server.url).extend('deleteMany', {
      path: '/todos',
      method: 'DELETE',
      searchParams: {} as { ids: string },
      schema: [new schema.Invalidate(Todo)],
      process: (_value: unknown, params: { ids: string }) =>
        params.ids.split(',').map((id) => ({ id: Number(id) })),
    });
    const { controller } = createStore();
    const deleted = await controller.fetch(TodoResource.deleteMany, { ids: '1,2' });
    expect(deleted).toHaveLength(2);
    expect(deleted.every((todo) => todo instanceof Todo)).toBe(true);
    expect(ids(deleted)).toEqual([1, 2]);
  });
});

describe('APIs data-client users call', () => {
  it('Endpoint.extend keeps the fetch and the other options, replacing the given ones', async () => {
    const calls: number[] = [];
    const base = new Endpoint(
      async ({ id }: { id: number }) => {
        calls.push(id);
        return { id, title: `todo ${id}` };
      },
      { schema: Todo, dataExpiryLength: 100, name: 'readTodo' },
    );
    const longer = base.extend({ dataExpiryLength: 60_000 });
    expect(longer).toBeInstanceOf(Endpoint);
    expect([longer.name, longer.schema, longer.dataExpiryLength]).toEqual([
      'readTodo',
      Todo,
      60_000,
    ]);
    const { controller, getState } = createStore();
    const read = await controller.fetch(longer, { id: 7 });
    expect(read).toBeInstanceOf(Todo);
    expect(calls).toEqual([7]);
    const meta = getState().meta.get(longer.key({ id: 7 }));
    expect(meta && meta.expiresAt - meta.date).toBe(60_000);
    expect(base.dataExpiryLength).toBe(100);
  });

  it('a FormData body on an optimistic endpoint shows its fields until the server answers', async () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      optimistic: true,
    });
    const store = createStore();
    await store.controller.fetch(TodoResource.get, { id: 1 });
    server.setDelay(100);
    const form = new FormData();
    form.set('title', 'from a form');
    const pending = track(store.controller.fetch(TodoResource.update, { id: 1 }, form));
    expect(row(store.getState(), '1')).toMatchObject({ id: 1, title: 'from a form' });
    // The test server reads JSON only: it refuses the form, and the optimistic view rolls back.
    await pending.promise.catch(() => {});
    expect(row(store.getState(), '1')).toMatchObject({ id: 1, title: 'write tests' });
  });

  it('getResponse with null arguments reads nothing', () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    expect(controller.getResponse(TodoResource.get, null, getState())).toEqual({
      data: undefined,
      expiryStatus: ExpiryStatus.Valid,
      expiresAt: 0,
    });
  });

  it('getResponse and getError of an endpoint taking no arguments take the state alone', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList);
    expect(ids(controller.getResponse(TodoResource.getList, getState()).data)).toEqual([
      1, 2, 3, 4,
    ]);
    server.failNext(404);
    await controller.fetch(TodoResource.getList).catch(() => {});
    expect(controller.getError(TodoResource.getList, getState())).toMatchObject({ status: 404 });
  });
});
