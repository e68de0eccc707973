import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  hookifyResource,
  type NetworkError,
  RestEndpoint,
  type RestGenerics,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, received, Todo, type TodoBody, type TodoSearch } from './support.js';

/**
 * Spec 5: request settings come from a custom Endpoint class's getRequestInit (5.1, 2.3) and from
 * hookifyResource's init hook (5.2); the two, the resource's own requestInit and getHeaders
 * reach every request together. The hooks here call no React hook, so they run as plain
 * functions; react/hookifyResource.test.tsx renders them.
 */

const server = serverPerTest({ todos: FOUR_TODOS });

/** Sends cookies with every request (spec 2.3's example) and records what each was sent with. */
class CredentialedEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
  static sent: RequestInit[] = [];
  override getRequestInit(body?: unknown): RequestInit {
    return { ...(super.getRequestInit(body) as RequestInit), credentials: 'include' };
  }
  override fetchResponse(url: string, init: RequestInit) {
    CredentialedEndpoint.sent.push(init);
    return super.fetchResponse(url, init);
  }
}

function todoResource() {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    searchParams: {} as TodoSearch,
    body: {} as TodoBody,
    paginationField: 'page',
    Endpoint: CredentialedEndpoint,
    requestInit: { headers: { 'X-Client': 'tests', 'Access-Token': 'from-the-resource' } },
    // Sees the headers the request was built with, and adds one naming them.
    getHeaders: (headers: HeadersInit) => ({
      ...headers,
      'x-seen': Object.keys(headers)
        .map((name) => name.toLowerCase())
        .sort()
        .join(','),
    }),
  }).extend('toggle', { path: '/todos/:id/toggle', method: 'POST', body: undefined });
}

describe('the init hook, the Endpoint class and the resource options together (5.1, 5.2)', () => {
  const headerForms: [string, HeadersInit][] = [
    ['an object', { 'access-token': 'token-1' }],
    ['a Headers', new Headers({ 'Access-Token': 'token-1' })],
    ['a list of pairs', [['ACCESS-TOKEN', 'token-1']]],
  ];
  for (const [form, headers] of headerForms) {
    it(`headers given as ${form} reach every member's request, over the resource's own`, async () => {
      const TodoHooks = hookifyResource(todoResource(), () => ({ headers }));
      const { controller } = createStore();
      CredentialedEndpoint.sent = [];
      const getList = TodoHooks.useGetList();
      await controller.fetch(TodoHooks.useGet(), { id: 1 });
      await controller.fetch(getList, { userId: 1 });
      await controller.fetch(getList.push, { userId: 1 }, { title: 'pushed' });
      await controller.fetch(getList.unshift, { userId: 1 }, { title: 'unshifted' });
      await controller.fetch(getList.getPage, { userId: 1, page: 2 });
      await controller.fetch(TodoHooks.useUpdate(), { id: 1 }, { title: 'updated' });
      await controller.fetch(TodoHooks.usePartialUpdate(), { id: 1 }, { completed: true });
      await controller.fetch(TodoHooks.useToggle(), { id: 1 });
      await controller.fetch(TodoHooks.useCreate(), {}, { title: 'created' });
      await controller.fetch(TodoHooks.useDelete(), { id: 2 });

      expect(received(server)).toEqual([
        'GET /todos/1',
        'GET /todos?userId=1',
        'POST /todos?userId=1',
        'POST /todos?userId=1',
        'GET /todos?page=2&userId=1',
        'PUT /todos/1',
        'PATCH /todos/1',
        'POST /todos/1/toggle',
        'POST /todos',
        'DELETE /todos/2',
      ]);
      for (const request of server.requests) {
        const hasBody = request.body !== '';
        expect({
          request: `${request.method} ${request.url}`,
          token: request.headers['access-token'],
          client: request.headers['x-client'],
          seen: request.headers['x-seen'],
          contentType: request.headers['content-type'],
        }).toEqual({
          request: `${request.method} ${request.url}`,
          token: 'token-1',
          client: 'tests',
          seen: `accept,access-token,${hasBody ? 'content-type,' : ''}x-client`,
          contentType: hasBody ? 'application/json' : undefined,
        });
      }
      expect(CredentialedEndpoint.sent.map((init) => init.credentials)).toEqual(
        server.requests.map(() => 'include'),
      );
    });
  }

  it('the hook is asked again for each endpoint: a new token is sent from then on', async () => {
    let token = 'first';
    const TodoHooks = hookifyResource(todoResource(), () => ({
      headers: { 'access-token': token },
    }));
    const { controller } = createStore();
    await controller.fetch(TodoHooks.useGet(), { id: 1 });
    token = 'second';
    await controller.fetch(TodoHooks.useGet(), { id: 3 });
    await controller.fetch(TodoHooks.useGetList().push, {}, { title: 'new' });
    expect(server.requests.map((request) => request.headers['access-token'])).toEqual([
      'first',
      'second',
      'second',
    ]);
  });
});

describe('token handling written in a custom Endpoint class (5.1)', () => {
  it('a fetchResponse override renews an expired token on 401 and retries once', async () => {
    let token = 'expired';
    class RenewingEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
      override getHeaders(headers: HeadersInit): HeadersInit {
        return { ...headers, Authorization: `Bearer ${token}` };
      }
      override async fetchResponse(url: string, init: RequestInit): Promise<Response> {
        try {
          return await super.fetchResponse(url, init);
        } catch (error) {
          if ((error as NetworkError).status !== 401) throw error;
          token = 'renewed';
          return super.fetchResponse(url, {
            ...init,
            headers: await this.getHeaders(init.headers ?? {}),
          });
        }
      }
    }
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      Endpoint: RenewingEndpoint,
    });
    const { controller, getState } = createStore();
    server.failNext(401, { error: 'token expired' });
    const todo = await controller.fetch(TodoResource.get, { id: 1 });
    expect(todo.title).toBe('write tests');
    expect(server.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
      ['/todos/1', 'Bearer expired'],
      ['/todos/1', 'Bearer renewed'],
    ]);
    const key = TodoResource.get.key({ id: 1 });
    expect(getState().meta.get(key)?.error).toBeUndefined();
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data?.title).toBe(
      'write tests',
    );
  });

  it('a getHeaders that fails (no token) sends nothing, rejects with its error and keeps the data', async () => {
    let token: string | undefined = 'abc';
    class TokenEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
      override async getHeaders(headers: HeadersInit): Promise<HeadersInit> {
        if (token === undefined) throw new Error('signed out: no access token');
        return { ...headers, 'access-token': token };
      }
    }
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      Endpoint: TokenEndpoint,
    });
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.get, { id: 1 });
    token = undefined;
    await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toThrow(
      'signed out: no access token',
    );
    await expect(
      controller.fetch(TodoResource.update, { id: 1 }, { title: 'lost?' }),
    ).rejects.toThrow('signed out: no access token');
    expect(received(server)).toEqual(['GET /todos/1']);
    expect(server.todos[0]?.title).toBe('write tests');
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data?.title).toBe(
      'write tests',
    );
  });
});
