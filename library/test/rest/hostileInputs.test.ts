import { describe, expect, it } from 'vitest';
import { createResource, createStore, hookifyResource, NetworkError } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import {
  FOUR_TODOS,
  ids,
  invalidated,
  lastRequest,
  Member,
  received,
  row,
  rows,
  todoResource,
} from './support.js';

/**
 * Sections 4.2, 4.3, 4.6 and 7 with the inputs data-client users and hostile servers give:
 * member names that are also names of Object.prototype, arguments of the wrong kind, a page
 * without its cursor, a pk answered as text with a line break, an error body of megabytes.
 */

const server = serverPerTest({ todos: FOUR_TODOS });

/** Names every plain object inherits: as member names they are the caller's own. */
const INHERITED_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

describe('extend() with member names that Object.prototype also has (4.3)', () => {
  it.each(INHERITED_NAMES)(
    'the add form adds "%s" as a new member built from get',
    async (name) => {
      const TodoResource = todoResource(server.url);
      const extended = TodoResource.extend(name, { path: '/todos/:id/toggle', method: 'POST' });
      const member = Object.getOwnPropertyDescriptor(extended, name)?.value;
      expect(member?.name).toBe(`Todo.${name}`);
      expect(member?.method).toBe('POST');
      // The resource is still a plain object with every standard member.
      expect(Object.getPrototypeOf(extended)).toBe(Object.prototype);
      expect(extended.get).toBe(TodoResource.get);
      const { controller } = createStore();
      const toggled = await controller.fetch(member, { id: 1 }, {});
      expect(toggled).toMatchObject({ id: 1, completed: true });
      expect(received(server)).toEqual(['POST /todos/1/toggle']);
    },
  );

  it.each(INHERITED_NAMES)('the function form adds "%s" and it can be extended again', (name) => {
    const TodoResource = todoResource(server.url);
    // fromEntries makes an own member even of `__proto__` (a literal would set the prototype).
    const extended = TodoResource.extend((base) =>
      Object.fromEntries([[name, base.getList.extend({ path: '/users/:userId/todos' })]]),
    );
    const built = Object.getOwnPropertyDescriptor(extended, name)?.value;
    expect(built?.name).toBe(`Todo.${name}`);
    expect(built?.url({ userId: 2 })).toBe(`${server.url}/users/2/todos`);
    const again = extended.extend({ [name]: { path: '/users/:userId/todos/' } });
    expect(Object.getOwnPropertyDescriptor(again, name)?.value?.path).toBe('/users/:userId/todos/');
    expect(Object.getPrototypeOf(again)).toBe(Object.prototype);
  });

  it.each(INHERITED_NAMES)(
    'the batch form refuses "%s" when it is not a member, naming it',
    (name) => {
      const TodoResource = todoResource(server.url);
      const overrides = JSON.parse(`{"${name}": {"path": "/x/:id"}}`);
      expect(() => TodoResource.extend(overrides)).toThrow(
        new TypeError(
          `resource.extend: no member "${name}" (members: get, getList, create, update, partialUpdate, delete)`,
        ),
      );
    },
  );
});

describe('extend() with arguments of the wrong kind: a clear error, the resource unchanged', () => {
  const wrong: [string, (resource: any) => unknown, string][] = [
    ['null', (r) => r.extend(null), 'not null'],
    ['no argument', (r) => r.extend(), 'not undefined'],
    ['a number', (r) => r.extend(5), 'not 5'],
    ['a list', (r) => r.extend([{ path: '/x/:id' }]), 'not [{"path":"/x/:id"}]'],
    ['options that are a number', (r) => r.extend('deleteMany', 5), 'not 5'],
    ['options that are a string', (r) => r.extend('deleteMany', '/todos'), 'not "/todos"'],
    ['a function returning null', (r) => r.extend(() => null), 'not null'],
    ['a function returning a list', (r) => r.extend(() => [r.get]), 'must return an object'],
    ['the name "extend"', (r) => r.extend('extend', { path: '/x/:id' }), '"extend" cannot name'],
    ['an empty name', (r) => r.extend('', { path: '/x/:id' }), '"" cannot name a member'],
    ['a function returning "extend"', (r) => r.extend(() => ({ extend: r.get })), '"extend"'],
  ];

  it.each(wrong)('%s', async (_case, call, message) => {
    const TodoResource = todoResource(server.url);
    expect(() => call(TodoResource)).toThrow(TypeError);
    expect(() => call(TodoResource)).toThrow(message);
    expect(Object.keys(TodoResource)).toEqual([
      'get',
      'getList',
      'create',
      'update',
      'partialUpdate',
      'delete',
      'extend',
    ]);
    const { controller } = createStore();
    expect(ids(await controller.fetch(TodoResource.getList, {}))).toEqual([1, 2, 3, 4]);
  });
});

describe('hookifyResource() with arguments of the wrong kind (4.6)', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['a string', 'TodoResource'],
  ])('a resource that is %s is refused, naming it', (_case, resource) => {
    expect(() => hookifyResource(resource as never)).toThrow(
      new TypeError(
        `hookifyResource expects a resource (the result of createResource), not ${resource === undefined ? 'undefined' : JSON.stringify(resource)}`,
      ),
    );
  });

  it('a second argument that is not a function is refused when hookifying', () => {
    const TodoResource = todoResource(server.url);
    expect(() => hookifyResource(TodoResource, { headers: {} } as never)).toThrow(
      'hookifyResource: the second argument must be a hook returning request settings, not {"headers":{}}',
    );
  });

  it.each([
    ['a string', 'token'],
    ['a list', [['access-token', 'T']]],
    ['a number', 1],
  ])(
    'useInit() returning %s is an error at the hook, not a garbled request',
    async (_case, init) => {
      const TodoResource = todoResource(server.url);
      const hooks = hookifyResource(TodoResource, () => init as never);
      expect(() => hooks.useGet()).toThrow(
        `hookifyResource: useInit() must return request settings such as { headers }, not ${JSON.stringify(init)}`,
      );
      expect(server.requests).toEqual([]);
    },
  );

  it.each([
    ['null', null],
    ['undefined', undefined],
    ["'' (`token && { headers }` with no token)", ''],
    ['false', false],
  ])('useInit() returning %s gives the members as they are', async (_case, init) => {
    const TodoResource = todoResource(server.url);
    const hooks = hookifyResource(TodoResource, () => init as never);
    expect(hooks.useDelete()).toBe(TodoResource.delete);
    expect(hooks.useGet()).toBe(TodoResource.get);
  });
});

describe('getList.getPage needs its page argument, a string or a number (4.1 call shape 4)', () => {
  const refused: [string, unknown[], string][] = [
    ['no arguments', [], 'missing the page argument "page"'],
    ['an empty object', [{}], 'missing the page argument "page"'],
    ['only other arguments', [{ userId: 1 }], 'missing the page argument "page"'],
    ['page undefined', [{ page: undefined }], 'missing the page argument "page"'],
    ['page null', [{ page: null }], 'missing the page argument "page"'],
    [
      'page an object',
      [{ page: { n: 2 } }],
      'the page argument "page" must be a string or a number, not {"n":2}',
    ],
    [
      'page a list',
      [{ page: [2, 3] }],
      'the page argument "page" must be a string or a number, not [2,3]',
    ],
    [
      'page NaN',
      [{ page: Number.NaN }],
      'the page argument "page" must be a string or a number, not NaN',
    ],
    [
      'page true',
      [{ page: true }],
      'the page argument "page" must be a string or a number, not true',
    ],
  ];

  it.each(refused)(
    '%s: refused naming the argument; nothing sent, the list unchanged',
    async (_case, args, message) => {
      const TodoResource = todoResource(server.url);
      const { controller, getState } = createStore();
      await controller.fetch(TodoResource.getList, {});
      const before = getState();
      const fetching = (controller.fetch as (...all: unknown[]) => Promise<unknown>)(
        TodoResource.getList.getPage,
        ...args,
      );
      await expect(fetching).rejects.toThrow(`Todo.getList.getPage: ${message}`);
      expect(received(server)).toEqual(['GET /todos']);
      expect(getState().entities).toBe(before.entities);
    },
  );

  it.each([
    [2, '/todos?page=2'],
    ['2', '/todos?page=2'],
    ['après-ü', '/todos?page=apr%C3%A8s-%C3%BC'],
  ])('page %j is sent and the page appended', async (page, url) => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { per_page: 2 });
    await controller.fetch(TodoResource.getList.getPage, { page, per_page: 2 });
    expect(lastRequest(server).url).toBe(`${url}&per_page=2`);
    const expected = page === 2 || page === '2' ? ['1', '2', '3', '4'] : ['1', '2'];
    expect(rows(getState())).toEqual({ '{"per_page":"2"}': expected });
  });
});

describe('delete answered with the pk as text around whitespace (4.2)', () => {
  // Servers answering text often end it with a line break; it is no part of the pk.
  it.each([
    ['3\n', '3'],
    ['3\r\n', '3'],
    [' 3 ', '3'],
    ['\n', '2'], // whitespace alone names nothing: the URL parameters do
    ['   ', '2'],
  ])('text %j invalidates todo %s, and no other entity appears', async (text, pk) => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    server.respondNext({ status: 200, rawBody: text, contentType: 'text/plain' });
    await controller.fetch(TodoResource.delete, { id: 2 });
    const state = getState();
    expect(['1', '2', '3', '4'].filter((id) => invalidated(state, id))).toEqual([pk]);
    expect(row(state, text)).toBeUndefined();
    expect(rows(state)).toEqual({ '{}': ['1', '2', '3', '4'].filter((id) => id !== pk) });
  });

  it('a string pk (a username) answered as text with a line break', async () => {
    const MemberResource = createResource({
      path: '/users/:username',
      schema: Member,
      urlPrefix: server.url,
    });
    const { controller, getState } = createStore();
    await controller.fetch(MemberResource.getList, {});
    server.respondNext({ status: 200, rawBody: 'alan\n', contentType: 'text/plain' });
    await controller.fetch(MemberResource.delete, { username: 'alan' });
    expect(invalidated(getState(), 'alan', 'Member')).toBe(true);
    expect(invalidated(getState(), 'ada', 'Member')).toBe(false);
    expect(rows(getState(), '[Member]')).toEqual({ '{}': ['ada'] });
  });
});

describe('errors (7): an HTTP error with a huge body', () => {
  it.each([
    ['JSON', { status: 500, body: { error: 'x'.repeat(200_000) } }],
    ['text', { status: 500, rawBody: 'y'.repeat(200_000), contentType: 'text/plain' }],
  ])(
    'a %s body is quoted up to a bound in the message; the status is kept',
    async (_case, answer) => {
      const TodoResource = todoResource(server.url);
      const { controller, getState } = createStore();
      server.respondNext(answer);
      const error = await controller.fetch(TodoResource.get, { id: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      const { message, status } = error as NetworkError;
      expect(status).toBe(500);
      expect(message.startsWith(`GET ${server.url}/todos/1: 500 Internal Server Error: `)).toBe(
        true,
      );
      expect(message.length).toBeLessThan(700);
      expect(message.endsWith('…')).toBe(true);
      expect(getState().meta.get(TodoResource.get.key({ id: 1 }))?.error).toBe(error);
    },
  );

  it('the whole JSON error body stays readable on error.body', async () => {
    const TodoResource = todoResource(server.url);
    const body = { error: 'x'.repeat(200_000), code: 'E_BIG' };
    server.respondNext({ status: 422, body });
    const error = (await TodoResource.get({ id: 1 }).catch((e: unknown) => e)) as NetworkError;
    expect(error.body).toEqual(body);
  });
});

describe('limits (8): very long values in a request', () => {
  it('a pk of 100,000 characters: the server refuses the URL; the error says so in a bounded message', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    const before = getState();
    const id = 'é'.repeat(100_000);
    const error = await controller.fetch(TodoResource.get, { id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).status).toBe(431);
    const { message } = error as NetworkError;
    expect(message.startsWith(`GET ${server.url}/todos/%C3%A9%C3%A9`)).toBe(true);
    expect(message.endsWith('…: 431 Request Header Fields Too Large')).toBe(true);
    expect(message.length).toBeLessThan(600);
    expect(getState().entities).toBe(before.entities);
  });

  it('a URL parameter that is a huge object is refused in a bounded message', () => {
    const TodoResource = todoResource(server.url);
    const id = { text: 'x'.repeat(100_000) };
    expect(() => TodoResource.get.url({ id } as never)).toThrow(
      'Todo.get: the URL parameter "id" must be a string or a number, not {"text":"xxx',
    );
    let message = '';
    try {
      TodoResource.get.url({ id } as never);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.length).toBeLessThan(300);
  });
});
