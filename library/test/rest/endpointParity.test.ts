import { describe, expect, it, vi } from 'vitest';
import {
  createResource,
  createStore,
  Endpoint,
  Query,
  RestEndpoint,
  type RestGenerics,
  type SearchValue,
  schema,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { lastRequest, Todo } from './support.js';

/** data-client 0.9 behaviours an app relies on that the other RestEndpoint tests do not cover. */

const server = serverPerTest();

describe('a subclass that sets urlPrefix as a class field (the data-client docs pattern)', () => {
  class ApiEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
    override urlPrefix = server.url;
  }

  it('is named by its urlPrefix and path, through extend too, as data-client names it', async () => {
    const getTodo = new ApiEndpoint({ path: '/todos/:id', schema: Todo });
    expect(getTodo.name).toBe(`${server.url}/todos/:id`);
    const getUser = getTodo.extend({ path: '/users/:id', schema: undefined });
    expect(getUser.name).toBe(`${server.url}/users/:id`);
    expect(getTodo.extend({ name: 'getTodo' }).name).toBe('getTodo');
    // The request goes where the name says.
    await expect(getUser({ id: 1 })).resolves.toMatchObject({ username: 'ada' });
    expect(lastRequest(server).url).toBe('/users/1');
  });
});

describe('search parameters that no URL can hold', () => {
  it('an object that holds itself is refused by name, before any request (data-client sends "[object Object]")', async () => {
    const getTodos = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    const filter: { [key: string]: SearchValue } = { done: true };
    filter.self = filter;
    const requests = server.requests.length;
    await expect(getTodos({ filter })).rejects.toThrow(
      new TypeError(`${server.url}/todos: the search parameter "filter[self]" holds itself`),
    );
    expect(() => getTodos.key({ filter })).toThrow(TypeError);
    expect(server.requests.length).toBe(requests);
  });

  it('a list that holds itself is refused the same way', () => {
    const getTodos = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    const ids: SearchValue[] = [1];
    ids.push(ids);
    expect(() => getTodos.url({ ids })).toThrow(
      new TypeError(`${server.url}/todos: the search parameter "ids[1]" holds itself`),
    );
  });

  it('one object met twice (not inside itself) is written twice', async () => {
    const getTodos = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    const shared = { done: true };
    await getTodos({ a: shared, b: shared });
    expect(decodeURIComponent(lastRequest(server).url)).toBe('/todos?a[done]=true&b[done]=true');
  });
});

describe('Query subclasses', () => {
  it('a subclass may define process as a method, as data-client allows ("inheritance overrides")', async () => {
    class TodoCount extends Query<schema.All<typeof Todo>, [], number> {
      constructor() {
        super(new schema.All(Todo));
      }
    }
    // The method form, as JavaScript (or a cast) writes it: data-client runs it.
    Object.defineProperty(TodoCount.prototype, 'process', {
      value: (todos: readonly Todo[]) => todos.length,
    });
    const store = createStore();
    const getTodos = new RestEndpoint({ path: '/todos', urlPrefix: server.url, schema: [Todo] });
    await store.controller.fetch(getTodos);
    expect(store.controller.getResponse(new TodoCount(), store.getState()).data).toBe(3);
  });
});

describe('expiry and error options the store would misread are refused where they are given', () => {
  it.each([
    ['dataExpiryLength', '60000'],
    ['dataExpiryLength', Number.NaN],
    ['errorExpiryLength', '5000'],
    ['errorExpiryLength', null],
  ] as const)('%s: %s is a TypeError naming the endpoint and the option', (option, value) => {
    // `now + '60000'` is text: the stored expiry would read as a date for ever after.
    const options = { path: '/todos/:id', urlPrefix: server.url, [option]: value };
    expect(() => new RestEndpoint(options as never)).toThrow(
      new TypeError(
        `/todos/:id: ${option} must be a number of milliseconds (Infinity: never expires), not ${typeof value === 'string' ? `"${value}"` : String(value)}`,
      ),
    );
    const fetchTodo = async () => ({ id: 1 });
    expect(() => new Endpoint(fetchTodo, { [option]: value } as never)).toThrow(
      /^fetchTodo: .* must be a number of milliseconds/,
    );
    const getTodo = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      name: 'getTodo',
    });
    expect(() => getTodo.extend({ [option]: value } as never)).toThrow(/^getTodo: /);
  });

  it('errorPolicy that is not a function is refused (it was found only when a request failed)', async () => {
    expect(
      () =>
        new RestEndpoint({
          path: '/todos/:id',
          urlPrefix: server.url,
          errorPolicy: 'soft',
        } as never),
    ).toThrow(
      new TypeError(
        `/todos/:id: errorPolicy must be a function of the error returning 'soft' or undefined, not "soft"`,
      ),
    );
  });

  it("data-client's update option (updaters of other results) is named in a warning, not silently ignored", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const getTodos = new RestEndpoint({ path: '/todos', urlPrefix: server.url, name: 'getTodos' });
    const update = (newId: string) => ({
      [getTodos.key()]: (ids: string[] = []) => [...ids, newId],
    });
    const message =
      "the update option (data-client's updaters of other results) is ignored; a schema.Collection list takes new members through getList.push, getList.unshift or addWith";
    const created = new RestEndpoint({
      path: '/todos',
      urlPrefix: server.url,
      method: 'POST',
      name: 'createTodo',
      update,
    } as never);
    // The endpoint is made and works as one without the option: code written for data-client runs.
    expect(created.key({})).toBe(`POST ${server.url}/todos`);
    const extended = getTodos.extend({ method: 'POST', update } as never);
    expect(extended.method).toBe('POST');
    new Endpoint(async () => ({ id: 1 }), { name: 'createTodo', update } as never);
    expect(warn.mock.calls).toEqual([
      [`createTodo: ${message}`],
      [`getTodos: ${message}`],
      [`createTodo: ${message}`],
    ]);
    warn.mockRestore();
    // A resource's `update` member is no such option: extending it works as before.
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
    });
    expect(TodoResource.extend({ update: { method: 'PATCH' } }).update.method).toBe('PATCH');
  });

  it('numbers, Infinity and undefined are kept and work', async () => {
    const getTodo = new RestEndpoint({
      path: '/todos/:id',
      urlPrefix: server.url,
      dataExpiryLength: Number.POSITIVE_INFINITY,
      errorExpiryLength: 0,
    });
    const store = createStore();
    await store.controller.fetch(getTodo, { id: 1 });
    expect(store.controller.getResponse(getTodo, { id: 1 }, store.getState()).expiresAt).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(getTodo.extend({ dataExpiryLength: undefined }).dataExpiryLength).toBeUndefined();
  });
});
