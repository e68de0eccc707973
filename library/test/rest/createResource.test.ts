import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Collection,
  CollectionAdder,
  type CollectionSchema,
  type Controller,
  createResource,
  createStore,
  ExpiryStatus,
  Invalidate,
  RestEndpoint,
  type RestGenerics,
} from '../../src/index.js';
import { plain } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import type { DeleteResponseForm } from '../helpers/server.js';
import {
  FOUR_TODOS,
  ids,
  invalidated,
  jsonBody,
  lastRequest,
  Member,
  received,
  row,
  rows,
  Todo,
  type TodoBody,
  type TodoSearch,
  todoResource,
} from './support.js';

const server = serverPerTest({ todos: FOUR_TODOS });
afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * What the helpers below need: the members of a resource made with a paginationField (their
 * types are left open, as each test builds the resource with its own options).
 */
interface PagedResource {
  get: any;
  getList: any;
  update: any;
  partialUpdate: any;
  delete: any;
}

/** The eight members of a paginated todo resource, in the order of table 4.1. */
function eightMembers(TodoResource: PagedResource): RestEndpoint[] {
  return [
    TodoResource.get,
    TodoResource.getList,
    TodoResource.getList.push,
    TodoResource.getList.unshift,
    TodoResource.getList.getPage,
    TodoResource.update,
    TodoResource.partialUpdate,
    TodoResource.delete,
  ];
}

/** One request of each of the eight members: todo 1, and the list without arguments. */
async function fetchEachMember(controller: Controller, TodoResource: PagedResource) {
  await controller.fetch(TodoResource.get, { id: 1 });
  await controller.fetch(TodoResource.getList, {});
  await controller.fetch(TodoResource.getList.push, {}, { title: 'p' });
  await controller.fetch(TodoResource.getList.unshift, {}, { title: 'u' });
  await controller.fetch(TodoResource.getList.getPage, { page: 2 });
  await controller.fetch(TodoResource.update, { id: 1 }, { title: 'x' });
  await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'y' });
  await controller.fetch(TodoResource.delete, { id: 1 });
}

describe('the members of createResource (table 4.1)', () => {
  it('has the eight members with their methods, paths, names and schemas', () => {
    const TodoResource = todoResource(server.url);
    const { get, getList, update, partialUpdate } = TodoResource;
    const table = [
      [get, 'GET', '/todos/:id', 'Todo.get'],
      [getList, 'GET', '/todos', 'Todo.getList'],
      [getList.push, 'POST', '/todos', 'Todo.getList.push'],
      [getList.unshift, 'POST', '/todos', 'Todo.getList.unshift'],
      [getList.getPage, 'GET', '/todos', 'Todo.getList.getPage'],
      [update, 'PUT', '/todos/:id', 'Todo.update'],
      [partialUpdate, 'PATCH', '/todos/:id', 'Todo.partialUpdate'],
      [TodoResource.delete, 'DELETE', '/todos/:id', 'Todo.delete'],
    ] as const;
    for (const [member, method, path, name] of table) {
      expect({ method: member.method, path: member.path, name: member.name }).toEqual({
        method,
        path,
        name,
      });
      expect(member.urlPrefix).toBe(server.url);
      expect(member.sideEffect).toBe(method === 'GET' ? undefined : true);
    }
    expect(get.schema).toBe(Todo);
    expect(update.schema).toBe(Todo);
    expect(partialUpdate.schema).toBe(Todo);
    const listSchema = getList.schema as Collection;
    expect(listSchema).toBeInstanceOf(Collection);
    expect(listSchema.schema.schema).toBe(Todo);
    expect(getList.push.schema).toBe(listSchema.push);
    expect(getList.unshift.schema).toBe(listSchema.unshift);
    const pageSchema = getList.getPage.schema as unknown;
    expect(pageSchema).toBeInstanceOf(CollectionAdder);
    expect((pageSchema as CollectionAdder).collection).toBe(listSchema);
    const deleteSchema = TodoResource.delete.schema as unknown;
    expect(deleteSchema).toBeInstanceOf(Invalidate);
    expect((deleteSchema as Invalidate).entity).toBe(Todo);
    // Derived members are built once: the same endpoint every time they are read.
    expect(getList.push).toBe(getList.push);
    expect(getList.getPage).toBe(getList.getPage);
  });

  it('each member sends its method, URL and body (the call shapes of 4.1)', async () => {
    const TodoResource = todoResource(server.url);
    const { controller } = createStore();
    await controller.fetch(TodoResource.get, { id: 1 });
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'pushed' });
    await controller.fetch(TodoResource.getList.unshift, { userId: 1 }, { title: 'unshifted' });
    await controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 });
    await controller.fetch(
      TodoResource.update,
      { id: 1 },
      { title: 'replaced', completed: true, userId: 1 },
    );
    await controller.fetch(TodoResource.partialUpdate, { id: 2 }, { completed: false });
    await controller.fetch(TodoResource.delete, { id: 3 });
    expect(received(server)).toEqual([
      'GET /todos/1',
      'GET /todos?userId=1',
      'POST /todos?userId=1',
      'POST /todos?userId=1',
      'GET /todos?page=2&userId=1',
      'PUT /todos/1',
      'PATCH /todos/2',
      'DELETE /todos/3',
    ]);
    expect(server.requests.map((request) => jsonBody(request))).toEqual([
      undefined,
      undefined,
      { title: 'pushed' },
      { title: 'unshifted' },
      undefined,
      { title: 'replaced', completed: true, userId: 1 },
      { completed: false },
      undefined,
    ]);
    expect(server.todos).toEqual([
      { id: 1, title: 'replaced', completed: true, userId: 1 },
      { ...FOUR_TODOS[1], completed: false },
      FOUR_TODOS[3],
      { id: 5, title: 'pushed', completed: false, userId: 1 },
      { id: 6, title: 'unshifted', completed: false, userId: 1 },
    ]);
  });

  it('get, update and partialUpdate store the entity and read it back as an instance', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    const fetched = await controller.fetch(TodoResource.get, { id: 2 });
    expect(fetched).toBeInstanceOf(Todo);
    expect(fetched).toEqual(FOUR_TODOS[1]);
    const replaced = await controller.fetch(
      TodoResource.update,
      { id: 2 },
      { title: 'replaced', userId: 2 },
    );
    expect(replaced).toEqual({ id: 2, title: 'replaced', completed: false, userId: 2 });
    const patched = await controller.fetch(
      TodoResource.partialUpdate,
      { id: 2 },
      { completed: true },
    );
    expect(patched).toEqual({ id: 2, title: 'replaced', completed: true, userId: 2 });
    expect(row(getState(), '2')).toEqual({ id: 2, title: 'replaced', completed: true, userId: 2 });
    const read = controller.getResponse(TodoResource.get, { id: 2 }, getState());
    expect(read.data).toBeInstanceOf(Todo);
    expect(read.data?.title).toBe('replaced');
  });

  it('getList.push with one argument posts that argument as the body to the list path', async () => {
    const TodoResource = todoResource(server.url);
    const { controller } = createStore();
    const created = await controller.fetch(TodoResource.getList.push, {
      title: 'body only',
      userId: 2,
    });
    expect(created).toEqual({ id: 5, title: 'body only', completed: false, userId: 2 });
    const request = lastRequest(server);
    expect(`${request.method} ${request.url}`).toBe('POST /todos');
    expect(jsonBody(request)).toEqual({ title: 'body only', userId: 2 });
  });

  it('a path without a parameter is refused', () => {
    expect(() => createResource({ path: '/todos', schema: Todo })).toThrow(TypeError);
    expect(() => createResource({ path: '/todos', schema: Todo })).toThrow(
      /path "\/todos" needs at least one :parameter/,
    );
  });
});

describe('get and getList with Controller.expireAll / invalidate (4.1 "Use")', () => {
  it('expireAll(getList) marks every stored list stale and leaves single entities alone', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.get, { id: 1 });
    controller.expireAll(TodoResource.getList);
    const { meta } = getState();
    expect(meta.get(TodoResource.getList.key({}))?.expiresAt).toBe(1);
    expect(meta.get(TodoResource.getList.key({ userId: 1 }))?.expiresAt).toBe(1);
    expect(meta.get(TodoResource.get.key({ id: 1 }))?.expiresAt).toBeGreaterThan(Date.now());
    controller.expireAll(TodoResource.get);
    expect(getState().meta.get(TodoResource.get.key({ id: 1 }))?.expiresAt).toBe(1);
  });

  it('invalidate(get, params) makes that result fetch again; the list still shows the entity', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.get, { id: 1 });
    controller.invalidate(TodoResource.get, { id: 1 });
    const single = controller.getResponse(TodoResource.get, { id: 1 }, getState());
    expect(single.data).toBeUndefined();
    expect(single.expiryStatus).toBe(ExpiryStatus.Invalid);
    expect(ids(controller.getResponse(TodoResource.getList, {}, getState()).data)).toEqual([
      1, 2, 3, 4,
    ]);
    await controller.fetch(TodoResource.get, { id: 1 });
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).expiryStatus).toBe(
      ExpiryStatus.Valid,
    );
    expect(received(server)).toEqual(['GET /todos', 'GET /todos/1', 'GET /todos/1']);
  });
});

describe('ordering rules (4.1)', () => {
  it('getList.push places the created entity at the end of the list', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    const created = await controller.fetch(TodoResource.getList.push, {}, { title: 'last' });
    expect(created).toBeInstanceOf(Todo);
    expect(created).toEqual({ id: 5, title: 'last', completed: false, userId: 0 });
    expect(rows(getState())).toEqual({ '{}': ['1', '2', '3', '4', '5'] });
    const list = controller.getResponse(TodoResource.getList, {}, getState()).data;
    expect(ids(list)).toEqual([1, 2, 3, 4, 5]);
    expect(list?.at(-1)?.title).toBe('last');
  });

  it('getList.unshift places the created entity at the beginning of the list', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.getList.unshift, {}, { title: 'first' });
    expect(rows(getState())).toEqual({ '{}': ['5', '1', '2', '3', '4'] });
    const list = controller.getResponse(TodoResource.getList, {}, getState()).data;
    expect(list?.[0]).toEqual({ id: 5, title: 'first', completed: false, userId: 0 });
  });

  it('getList.getPage appends the page and leaves no duplicates (a page repeating an item of page 1)', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    const first = await controller.fetch(TodoResource.getList, { per_page: 2 });
    expect(ids(first)).toEqual([1, 2]);
    // A todo created on the server shifts everything: page 2 now starts with todo 2.
    server.todos.unshift({ id: 9, title: 'newer', completed: false, userId: 1 });
    const page = await controller.fetch(TodoResource.getList.getPage, { per_page: 2, page: 2 });
    expect(received(server)).toEqual(['GET /todos?per_page=2', 'GET /todos?page=2&per_page=2']);
    // fetch resolves to the page it fetched; the list holds the merged pages.
    expect(ids(page)).toEqual([2, 3]);
    expect(rows(getState())).toEqual({ '{"per_page":"2"}': ['1', '2', '3'] });
    // The page is stored under the list's key: reading the list shows the merged pages.
    expect(plain(getState().endpoints)).toEqual({
      [TodoResource.getList.key({ per_page: 2 })]: '{"per_page":"2"}',
    });
    expect(
      ids(controller.getResponse(TodoResource.getList, { per_page: 2 }, getState()).data),
    ).toEqual([1, 2, 3]);
  });

  it('getList.getPage merges into the list with the same other arguments only', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { userId: 1, per_page: 1 });
    await controller.fetch(TodoResource.getList, { userId: 2, per_page: 1 });
    await controller.fetch(TodoResource.getList.getPage, { userId: 2, per_page: 1, page: 2 });
    expect(lastRequest(server).url).toBe('/todos?page=2&per_page=1&userId=2');
    expect(rows(getState())).toEqual({
      '{"per_page":"1","userId":"1"}': ['1'],
      '{"per_page":"1","userId":"2"}': ['3', '4'],
    });
  });

  it('getPage follows whatever paginationField names, e.g. a cursor', async () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      searchParams: {} as TodoSearch,
      paginationField: 'cursor',
    });
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { per_page: 2 });
    const page = await controller.fetch(TodoResource.getList.getPage, { per_page: 2, cursor: 2 });
    expect(received(server)).toEqual(['GET /todos?per_page=2', 'GET /todos?cursor=2&per_page=2']);
    expect(ids(page)).toEqual([3, 4]);
    expect(rows(getState())).toEqual({ '{"per_page":"2"}': ['1', '2', '3', '4'] });
  });

  it('getPage exists only when paginationField is given, and getList carries paginationField', () => {
    const Paged = todoResource(server.url);
    expect(Paged.getList.paginationField).toBe('page');
    expect(Paged.getList.getPage).toBeInstanceOf(RestEndpoint);
    const Plain = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
    expect(Plain.getList.paginationField).toBeUndefined();
    expect(Plain.getList.getPage).toBeUndefined();
  });
});

describe('delete (4.2)', () => {
  // What `fetch` resolves to, as data-client's does: the entity built from the object that named
  // it (the URL parameters when the answer was empty), nothing for an answer that is a bare pk.
  const deletedTodo = Object.assign(new Todo(), { id: 2 });
  const forms: [DeleteResponseForm, Todo | undefined][] = [
    ['no-content', deletedTodo], // 204: the URL parameters
    ['empty', deletedTodo], // empty body: the URL parameters
    ['id-json', undefined], // "2": the id as a string
    ['id-text', undefined], // 2 as text/plain: the id as a string, as data-client reads text
    ['object', deletedTodo], // { id: 2 }: the members of pk()
  ];

  it.each(forms)(
    'a %s answer invalidates the entity and removes it from every list',
    async (form, resolved) => {
      const TodoResource = todoResource(server.url);
      server.setDeleteResponse(form);
      const { controller, getState } = createStore();
      await controller.fetch(TodoResource.getList, {});
      await controller.fetch(TodoResource.getList, { userId: 1 });
      await controller.fetch(TodoResource.get, { id: 2 });
      expect(rows(getState())).toEqual({
        '{}': ['1', '2', '3', '4'],
        '{"userId":"1"}': ['1', '2'],
      });

      const result = await controller.fetch(TodoResource.delete, { id: 2 });
      expect(result).toStrictEqual(resolved);
      expect(lastRequest(server).method).toBe('DELETE');
      expect(server.todos.map((todo) => todo.id)).toEqual([1, 3, 4]);
      const state = getState();
      expect(invalidated(state, '2')).toBe(true);
      expect(rows(state)).toEqual({ '{}': ['1', '3', '4'], '{"userId":"1"}': ['1'] });
      expect(ids(controller.getResponse(TodoResource.getList, {}, state).data)).toEqual([1, 3, 4]);
      expect(ids(controller.getResponse(TodoResource.getList, { userId: 1 }, state).data)).toEqual([
        1,
      ]);
      // A result that requires the entity must be fetched again.
      const single = controller.getResponse(TodoResource.get, { id: 2 }, state);
      expect(single.data).toBeUndefined();
      expect(single.expiryStatus).toBe(ExpiryStatus.Invalid);
    },
  );

  it('process returns a non-empty object response (here naming another todo) as it is', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    server.respondNext({ status: 200, body: { id: 3, title: 'ship' } });
    await controller.fetch(TodoResource.delete, { id: 2 });
    expect(invalidated(getState(), '3')).toBe(true);
    expect(invalidated(getState(), '2')).toBe(false);
    expect(rows(getState())).toEqual({ '{}': ['1', '2', '4'] });
  });

  it('process falls back to the URL parameters for an empty object or an empty string', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    server.respondNext({ status: 200, body: {} });
    await controller.fetch(TodoResource.delete, { id: 1 });
    server.respondNext({ status: 200, body: '' }); // the JSON string ""
    await controller.fetch(TodoResource.delete, { id: 4 });
    expect(invalidated(getState(), '1')).toBe(true);
    expect(invalidated(getState(), '4')).toBe(true);
    expect(rows(getState())).toEqual({ '{}': ['2', '3'] });
    expect(TodoResource.delete.process({}, { id: 7 })).toEqual({ id: 7 });
    expect(TodoResource.delete.process(null, { id: 7 })).toEqual({ id: 7 });
    expect(TodoResource.delete.process('', { id: 7 })).toEqual({ id: 7 });
  });

  // DELETE /todos/2, answered in every form a server may use: the answer names the deleted
  // entity only when it is an object holding its pk or the pk as a string (spec 4.2); anything
  // else (a count, `true`, a list, an object without the pk) leaves it to the URL parameters.
  it.each([
    ['204 No Content', { status: 204 }, '2'],
    ['an empty body', { status: 200, rawBody: '' }, '2'],
    ['JSON null', { status: 200, rawBody: 'null' }, '2'],
    ['the pk as a JSON string', { status: 200, body: '2' }, '2'],
    ['another pk as a JSON string', { status: 200, body: '3' }, '3'],
    ['the pk as text', { status: 200, rawBody: '3', contentType: 'text/plain' }, '3'],
    ['a count: 1', { status: 200, body: 1 }, '2'],
    ['a number: 42', { status: 200, body: 42 }, '2'],
    ['true', { status: 200, body: true }, '2'],
    ['a list of ids', { status: 200, body: [2, 3] }, '2'],
    ['an object without the pk', { status: 200, body: { deleted: 1 } }, '2'],
    ['an empty object', { status: 200, body: {} }, '2'],
    ['the entity', { status: 200, body: { id: 2, title: 'fix bugs' } }, '2'],
    ['another entity', { status: 200, body: { id: 3, title: 'ship' } }, '3'],
  ] as const)('answered with %s, the delete invalidates todo %s', async (_form, answer, pk) => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    server.respondNext(answer);
    await controller.fetch(TodoResource.delete, { id: 2 });
    const state = getState();
    expect(['1', '2', '3', '4'].filter((id) => invalidated(state, id))).toEqual([pk]);
    expect(rows(state)).toEqual({ '{}': ['1', '2', '3', '4'].filter((id) => id !== pk) });
    expect(state.meta.get(TodoResource.delete.key({ id: 2 }))?.error).toBeUndefined();
  });

  it('a failed delete (404) invalidates nothing', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    const before = getState();
    await expect(controller.fetch(TodoResource.delete, { id: 42 })).rejects.toMatchObject({
      status: 404,
    });
    expect(getState().entities).toBe(before.entities);
  });
});

describe('pks', () => {
  it('numeric pks are stored as strings: 2 and "2" are one entity', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    expect(Object.keys(plain(getState().entities).Todo ?? {})).toEqual(['1', '2', '3', '4']);
    expect(TodoResource.get.key({ id: 2 })).toBe(TodoResource.get.key({ id: '2' }));
    // Read from the table (no request): a string argument finds the numeric-pk entity.
    const byString = controller.getResponse(TodoResource.get, { id: '3' }, getState());
    expect(byString.data).toEqual(FOUR_TODOS[2]);
    // A delete answered with the id as a string invalidates the numeric-pk entity.
    server.setDeleteResponse('id-json');
    await controller.fetch(TodoResource.delete, { id: 3 });
    expect(invalidated(getState(), '3')).toBe(true);
    expect(rows(getState())).toEqual({ '{}': ['1', '2', '4'] });
    expect(received(server)).toEqual(['GET /todos', 'DELETE /todos/3']);
  });

  it('string pks (a username) work through every member', async () => {
    const MemberResource = createResource({
      path: '/users/:username',
      schema: Member,
      urlPrefix: server.url,
      body: {} as { name?: string; username?: string },
    });
    const { controller, getState } = createStore();
    await controller.fetch(MemberResource.getList, {});
    expect(Object.keys(plain(getState().entities).Member ?? {})).toEqual(['ada', 'alan']);
    expect(rows(getState(), '[Member]')).toEqual({ '{}': ['ada', 'alan'] });
    const ada = await controller.fetch(
      MemberResource.partialUpdate,
      { username: 'ada' },
      {
        name: 'Countess of Lovelace',
      },
    );
    expect(ada).toBeInstanceOf(Member);
    expect(ada.name).toBe('Countess of Lovelace');
    await controller.fetch(MemberResource.delete, { username: 'alan' });
    expect(invalidated(getState(), 'alan', 'Member')).toBe(true);
    expect(rows(getState(), '[Member]')).toEqual({ '{}': ['ada'] });
    expect(received(server)).toEqual(['GET /users', 'PATCH /users/ada', 'DELETE /users/alan']);
    expect(server.users.map((user) => user.username)).toEqual(['ada']);
  });
});

describe('which stored lists a push reaches', () => {
  it('a push for userId 1 lands only in the lists it matches ({} and {userId: 1})', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.getList, { userId: 2 });
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'for ada' });
    await controller.fetch(TodoResource.getList.unshift, { userId: 2 }, { title: 'for alan' });
    expect(server.todos.slice(-2)).toEqual([
      { id: 5, title: 'for ada', completed: false, userId: 1 },
      { id: 6, title: 'for alan', completed: false, userId: 2 },
    ]);
    expect(rows(getState())).toEqual({
      '{}': ['6', '1', '2', '3', '4', '5'],
      '{"userId":"1"}': ['1', '2', '5'],
      '{"userId":"2"}': ['6', '3', '4'],
    });
  });

  it('a filter value in the body counts like one in the URL parameters', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.getList, { userId: 2 });
    await controller.fetch(TodoResource.getList.push, {}, { title: 'body says 2', userId: 2 });
    expect(lastRequest(server).url).toBe('/todos');
    expect(rows(getState())).toEqual({
      '{"userId":"1"}': ['1', '2'],
      '{"userId":"2"}': ['3', '4', '5'],
    });
  });

  it('a push creates no list that was not stored before', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.getList.push, { userId: 3 }, { title: 'nobody listed' });
    expect(rows(getState())).toEqual({ '{"userId":"1"}': ['1', '2'] });
    expect(row(getState(), '5')).toEqual({
      id: 5,
      title: 'nobody listed',
      completed: false,
      userId: 3,
    });
  });

  it('searchParams with undefined values: dropped from the URL, the key and the list row', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { userId: undefined, orderBy: undefined });
    await controller.fetch(TodoResource.getList, { userId: 1 });
    expect(TodoResource.getList.key({ userId: undefined })).toBe(TodoResource.getList.key({}));
    await controller.fetch(TodoResource.getList.push, { userId: undefined }, { title: 'anyone' });
    expect(received(server)).toEqual(['GET /todos', 'GET /todos?userId=1', 'POST /todos']);
    expect(rows(getState())).toEqual({
      '{}': ['1', '2', '3', '4', '5'],
      '{"userId":"1"}': ['1', '2'],
    });
    expect(ids(controller.getResponse(TodoResource.getList, {}, getState()).data)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });
});

describe('custom classes (2.3, 2.4)', () => {
  /** `orderBy` and `sortBy` only change the order: every push reaches such lists. */
  class SortedCollection<S extends CollectionSchema = any> extends Collection<S> {
    override nonFilterArgumentKeys(key: string) {
      return key === 'orderBy' || key === 'sortBy';
    }
  }

  it('a custom Collection decides with nonFilterArgumentKeys which lists a push reaches', async () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      searchParams: {} as TodoSearch,
      Collection: SortedCollection,
    });
    expect(TodoResource.getList.schema).toBeInstanceOf(SortedCollection);
    const { controller, getState } = createStore();
    const byTitle = await controller.fetch(TodoResource.getList, { userId: 1, orderBy: 'title' });
    expect(ids(byTitle)).toEqual([2, 1]); // sorted by the server
    await controller.fetch(TodoResource.getList, { userId: 1, sortBy: 'id' });
    await controller.fetch(TodoResource.getList, { userId: 2, orderBy: 'title' });
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'a new one' });
    expect(rows(getState())).toEqual({
      '{"orderBy":"title","userId":"1"}': ['2', '1', '5'],
      '{"sortBy":"id","userId":"1"}': ['1', '2', '5'],
      '{"orderBy":"title","userId":"2"}': ['4', '3'],
    });
  });

  it('with the default Collection, sortBy filters (only keys starting with "order" do not)', async () => {
    const TodoResource = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { userId: 1, orderBy: 'title' });
    await controller.fetch(TodoResource.getList, { userId: 1, sortBy: 'id' });
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'a new one' });
    expect(rows(getState())).toEqual({
      '{"orderBy":"title","userId":"1"}': ['2', '1', '5'],
      '{"sortBy":"id","userId":"1"}': ['1', '2'],
    });
  });

  class SameOriginEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
    override async getRequestInit(body?: unknown): Promise<RequestInit> {
      const init = await super.getRequestInit(body);
      return { ...init, credentials: 'same-origin' };
    }
  }

  it('a custom Endpoint class builds every member; its getRequestInit reaches every request', async () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      searchParams: {} as TodoSearch,
      body: {} as TodoBody,
      paginationField: 'page',
      Endpoint: SameOriginEndpoint,
    });
    for (const member of eightMembers(TodoResource)) {
      expect(member).toBeInstanceOf(SameOriginEndpoint);
      expect(await member.getRequestInit()).toMatchObject({
        method: member.method,
        credentials: 'same-origin',
      });
    }
    expect(await TodoResource.update.getRequestInit({ title: 'x' })).toEqual({
      method: 'PUT',
      body: '{"title":"x"}',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      credentials: 'same-origin',
    });

    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { controller } = createStore();
    await fetchEachMember(controller, TodoResource);
    const sent = fetchSpy.mock.calls.map(([url, init]) => ({
      request: `${init?.method} ${String(url).slice(server.url.length)}`,
      credentials: init?.credentials,
    }));
    expect(sent).toEqual(
      [
        'GET /todos/1',
        'GET /todos',
        'POST /todos',
        'POST /todos',
        'GET /todos?page=2',
        'PUT /todos/1',
        'PATCH /todos/1',
        'DELETE /todos/1',
      ].map((request) => ({ request, credentials: 'same-origin' })),
    );
    expect(received(server)).toEqual(sent.map(({ request }) => request));
  });

  it('EndpointExtraOptions (pollFrequency, dataExpiryLength, …) reach every member', async () => {
    const errorPolicy = () => 'soft' as const;
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      paginationField: 'page',
      pollFrequency: 4_000,
      dataExpiryLength: 9_000,
      errorExpiryLength: 700,
      invalidIfStale: true,
      errorPolicy,
    });
    for (const member of eightMembers(TodoResource)) {
      expect({
        name: member.name,
        pollFrequency: member.pollFrequency,
        dataExpiryLength: member.dataExpiryLength,
        errorExpiryLength: member.errorExpiryLength,
        invalidIfStale: member.invalidIfStale,
        errorPolicy: member.errorPolicy,
      }).toEqual({
        name: member.name,
        pollFrequency: 4_000,
        dataExpiryLength: 9_000,
        errorExpiryLength: 700,
        invalidIfStale: true,
        errorPolicy,
      });
    }
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.getList.push, {}, { title: 'p' });
    server.failNext(500);
    await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({
      status: 500,
    });
    const { meta } = getState();
    const span = (key: string) => (meta.get(key)?.expiresAt ?? 0) - (meta.get(key)?.date ?? 0);
    expect(span(TodoResource.getList.key({}))).toBe(9_000);
    // The push's entity is as fresh as its dataExpiryLength says (a mutation's result is not kept).
    const pushed = getState().entitiesMeta.get('Todo')?.get('5');
    expect(pushed && pushed.expiresAt - pushed.date).toBe(9_000);
    expect(span(TodoResource.get.key({ id: 1 }))).toBe(700);
    expect(meta.get(TodoResource.get.key({ id: 1 }))?.errorPolicy).toBe('soft');
  });

  it('getHeaders and requestInit given to createResource reach the requests of every member', async () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      paginationField: 'page',
      requestInit: { headers: { 'X-Client': 'restlens-tests' } },
      getHeaders: (headers: Record<string, string>) => ({ ...headers, 'access-token': 'secret' }),
    });
    const { controller } = createStore();
    await fetchEachMember(controller, TodoResource);
    expect(server.requests).toHaveLength(8);
    for (const request of server.requests) {
      expect([
        request.method,
        request.headers['access-token'],
        request.headers['x-client'],
      ]).toEqual([request.method, 'secret', 'restlens-tests']);
    }
  });
});
