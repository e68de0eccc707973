import { describe, expect, it } from 'vitest';
import {
  type CollectionChange,
  CollectionMover,
  CollectionRemover,
  createResource,
  createStore,
  normalize,
  RestEndpoint,
  type RestGenerics,
  resource,
  schema,
  unshift,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import {
  FOUR_TODOS,
  ids,
  jsonBody,
  lastRequest,
  received,
  rows,
  Todo,
  type TodoBody,
  type TodoSearch,
} from './support.js';

const server = serverPerTest({ todos: FOUR_TODOS });

/** `/todos/:id` of the test server, made by `resource()`. */
function todoResource(urlPrefix: string) {
  return resource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix,
    searchParams: {} as TodoSearch,
    body: {} as TodoBody,
    paginationField: 'page',
  });
}

/** A store, with each action's collection changes kept as the store recorded them. */
function storeWithChanges() {
  const store = createStore();
  const collections: CollectionChange[][] = [];
  store.observe(({ changes }) => {
    if (changes.collections.length > 0) collections.push(changes.collections);
  });
  return { ...store, collections };
}

describe('resource()', () => {
  it("has createResource's members, sending the same requests", async () => {
    const Todos = todoResource(server.url);
    const { controller } = createStore();
    expect(Object.keys(Todos).sort()).toEqual(
      ['create', 'delete', 'extend', 'get', 'getList', 'partialUpdate', 'update'].sort(),
    );
    expect(Todos.getList.path).toBe('/todos');
    expect(Todos.get.name).toBe('Todo.get');
    expect(Todos.getList.getPage.name).toBe('Todo.getList.getPage');
    expect(ids(await controller.fetch(Todos.getList, { userId: 1 }))).toEqual([1, 2]);
    expect((await controller.fetch(Todos.get, { id: 3 })).title).toBe('ship');
    await controller.fetch(Todos.partialUpdate, { id: 3 }, { completed: true });
    expect(received(server)).toEqual(['GET /todos?userId=1', 'GET /todos/3', 'PATCH /todos/3']);
  });

  it("shortens the path as data-client's resource does: the last parameter leaves the list's", () => {
    const Grouped = resource({ path: '/groups/:group/todos/:id', schema: Todo });
    expect(Grouped.getList.path).toBe('/groups/:group/todos');
    expect(resource({ path: '/:first/:second', schema: Todo }).getList.path).toBe('/:first');
    expect(resource({ path: '/:first', schema: Todo }).getList.path).toBe('/');
  });

  it('passes nonFilterArgumentKeys to the list: a push reaches lists of any order', async () => {
    const Todos = resource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      searchParams: {} as { userId?: number; sort?: string },
      nonFilterArgumentKeys: ['sort'],
    });
    const { controller, getState } = createStore();
    await controller.fetch(Todos.getList, { userId: 1, sort: 'title' });
    await controller.fetch(Todos.getList.push, { userId: 1 }, { title: 'new', userId: 1 });
    expect(rows(getState())).toEqual({ '{"sort":"title","userId":"1"}': ['1', '2', '5'] });
  });

  it('names the function in the errors of its options', () => {
    expect(() => resource({ path: '/todos', schema: Todo })).toThrow(
      'resource: path "/todos" needs at least one :parameter',
    );
    expect(() => createResource({ path: '/todos', schema: Todo })).toThrow(
      'createResource: path "/todos" needs at least one :parameter',
    );
  });

  it("keeps a custom Endpoint class's overrides on every member, remove and move included", async () => {
    class AuthdEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
      override getRequestInit(body: unknown): RequestInit {
        return { ...super.getRequestInit(body), headers: { 'x-app': 'todos' } };
      }
    }
    const Todos = resource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      Endpoint: AuthdEndpoint,
    });
    expect(Todos.getList).toBeInstanceOf(AuthdEndpoint);
    const { controller } = createStore();
    await controller.fetch(Todos.getList.move, { id: 1 }, { userId: 2 });
    expect(lastRequest(server).headers['x-app']).toBe('todos');
  });

  it('leaves createResource without remove and move', () => {
    const Todos = createResource({ path: '/todos/:id', schema: Todo });
    expect('move' in Todos.getList).toBe(false);
    expect('remove' in Todos.getList).toBe(false);
  });
});

describe('getList.remove', () => {
  it('PATCHes the list URL and takes the entity out of the lists the arguments match', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState, collections } = storeWithChanges();
    await controller.fetch(Todos.getList, { userId: 1 });
    await controller.fetch(Todos.getList, { userId: 2 });
    await controller.fetch(Todos.getList, {});
    collections.length = 0;

    const removed = await controller.fetch(
      Todos.getList.remove,
      { userId: 1 },
      { id: 2, userId: 3 },
    );

    expect(received(server).at(-1)).toBe('PATCH /todos?userId=1');
    expect(jsonBody(lastRequest(server))).toEqual({ id: 2, userId: 3 });
    expect(removed).toBeInstanceOf(Todo);
    expect(removed.userId).toBe(3);
    // The lists the arguments match lost it (the list of every todo matches any arguments, as
    // it receives every push); the list of user 2 did not hold it.
    expect(rows(getState())).toEqual({
      '{"userId":"1"}': ['1'],
      '{"userId":"2"}': ['3', '4'],
      '{}': ['1', '3', '4'],
    });
    // The entity is stored as the server answered it.
    expect(controller.get(Todo, { id: 2 }, getState())?.userId).toBe(3);
    expect(collections).toEqual([
      [
        {
          collection: '[Todo]',
          row: '{"userId":"1"}',
          kind: 'remove',
          lengthBefore: 2,
          lengthAfter: 1,
          inserted: [],
          duplicates: [],
          removed: ['2'],
        },
        {
          collection: '[Todo]',
          row: '{}',
          kind: 'remove',
          lengthBefore: 4,
          lengthAfter: 3,
          inserted: [],
          duplicates: [],
          removed: ['2'],
        },
      ],
    ]);
  });

  it('takes nothing from a list that does not hold the entity, and records nothing for it', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState, collections } = storeWithChanges();
    await controller.fetch(Todos.getList, { userId: 2 });
    collections.length = 0;
    await controller.fetch(Todos.getList.remove, { userId: 2 }, { id: 1 });
    expect(rows(getState())).toEqual({ '{"userId":"2"}': ['3', '4'] });
    expect(collections).toEqual([]);
  });

  it('is a schema of its own, usable with setResponse and without the network', async () => {
    const list = new schema.Collection([Todo]);
    expect(list.remove).toBeInstanceOf(CollectionRemover);
    expect(list.remove).toBe(list.remove);
    const getTodos = new RestEndpoint({ urlPrefix: server.url, path: '/todos', schema: list });
    const { controller, getState } = createStore();
    await controller.fetch(getTodos, { userId: 2 });
    const removeTodo = getTodos.extend({ method: 'PATCH', schema: list.remove });
    await controller.setResponse(removeTodo, { userId: 2 }, [{ id: 3 }, { id: 4 }]);
    expect(rows(getState())).toEqual({ '{"userId":"2"}': [] });
  });

  it('refuses an answer that is not an entity, naming the collection', async () => {
    const Todos = todoResource(server.url);
    const { controller } = createStore();
    server.respondNext({ body: 'done', contentType: 'application/json' });
    await expect(controller.fetch(Todos.getList.remove, {}, { id: 1 })).rejects.toThrow(
      '[Todo].remove expects an object or a list of objects but received "done"',
    );
  });

  it('is refused on an endpoint without a collection', () => {
    const Todos = todoResource(server.url);
    expect(() => (Todos.get as unknown as { remove: unknown }).remove).toThrow(
      'Todo.get.remove: the schema holds no schema.Collection',
    );
  });
});

describe('getList.move', () => {
  it("PATCHes the entity's URL; the todo leaves its user's list and joins the new user's", async () => {
    const Todos = todoResource(server.url);
    const { controller, getState, collections } = storeWithChanges();
    await controller.fetch(Todos.getList, { userId: 1 });
    await controller.fetch(Todos.getList, { userId: 2 });
    await controller.fetch(Todos.getList, {});
    collections.length = 0;

    const moved = await controller.fetch(Todos.getList.move, { id: 1 }, { userId: 2 });

    expect(received(server).at(-1)).toBe('PATCH /todos/1');
    expect(jsonBody(lastRequest(server))).toEqual({ userId: 2 });
    expect(moved.userId).toBe(2);
    expect(Todos.getList.move.name).toBe('Todo.getList.move');
    expect(rows(getState())).toEqual({
      '{"userId":"1"}': ['2'],
      '{"userId":"2"}': ['3', '4', '1'],
      // Both its old and new values match the list of every todo: it keeps its place there.
      '{}': ['1', '2', '3', '4'],
    });
    expect(collections).toHaveLength(1);
    expect(
      collections[0]?.map(({ row, kind, inserted, removed }) => ({ row, kind, inserted, removed })),
    ).toEqual([
      { row: '{"userId":"1"}', kind: 'remove', inserted: [], removed: ['1'] },
      { row: '{"userId":"2"}', kind: 'push', inserted: [{ index: 2, pks: ['1'] }], removed: [] },
    ]);
  });

  it('reads the stored values before the answer overwrites them', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(Todos.getList, { userId: 2 });
    await controller.fetch(Todos.getList, { userId: 1 });
    // The server already moved todo 3; the store still holds it under user 2.
    await controller.fetch(Todos.getList.move, { id: 3 }, { userId: 1 });
    expect(rows(getState())).toEqual({
      '{"userId":"2"}': ['4'],
      '{"userId":"1"}': ['1', '2', '3'],
    });
  });

  it('adds to the lists its new values match when the entity was not stored', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(Todos.getList, { userId: 2 });
    await controller.fetch(Todos.getList.move, { id: 1 }, { userId: 2 });
    expect(rows(getState())).toEqual({ '{"userId":"2"}': ['3', '4', '1'] });
  });

  it('prepends with moveWith(unshift), set by a Collection subclass', async () => {
    class UnshiftCollection extends schema.Collection {
      constructor(members: [typeof Todo]) {
        super(members);
        this.move = this.moveWith(unshift);
      }
    }
    const Todos = resource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      Collection: UnshiftCollection,
    });
    expect(Todos.getList.schema.move).toBeInstanceOf(CollectionMover);
    const { controller, getState, collections } = storeWithChanges();
    await controller.fetch(Todos.getList, { userId: 2 });
    collections.length = 0;
    await controller.fetch(Todos.getList.move, { id: 1 }, { userId: 2 });
    expect(rows(getState())).toEqual({ '{"userId":"2"}': ['1', '3', '4'] });
    expect(collections[0]?.[0]?.kind).toBe('unshift');
  });

  it('shows the move at once when optimistic, and keeps it once the server agrees', async () => {
    const Todos = resource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      optimistic: true,
    });
    const { controller, getState } = createStore();
    await controller.fetch(Todos.getList, { userId: 1 });
    await controller.fetch(Todos.getList, { userId: 2 });
    server.setDelay(50);
    const moving = controller.fetch(Todos.getList.move, { id: 2 }, { userId: 2 });
    expect(rows(getState())).toEqual({
      '{"userId":"1"}': ['1'],
      '{"userId":"2"}': ['3', '4', '2'],
    });
    await moving;
    expect(rows(getState())).toEqual({
      '{"userId":"1"}': ['1'],
      '{"userId":"2"}': ['3', '4', '2'],
    });
  });

  it('refuses a Collection of union members, naming why', () => {
    class Note extends Todo {
      static override key = 'Note';
    }
    const feed = new schema.Collection([new schema.Union({ todo: Todo, note: Note }, 'type')]);
    expect(() => normalize(feed.move, { id: 1, type: 'todo' }, [{ id: 1 }, { userId: 2 }])).toThrow(
      "[Todo;Note].move takes entities of one Entity class (their lists are chosen by the entity's own fields), not the members of a schema.Union",
    );
  });

  it('moves between lists keyed by any text, __proto__ and constructor included', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.setResponse(Todos.getList, { userId: '__proto__' as never }, [
      { id: 1, userId: '__proto__' },
    ]);
    await controller.setResponse(Todos.getList, { userId: 'constructor' as never }, []);
    await controller.setResponse(
      Todos.getList.move,
      { id: 1 },
      { userId: 'constructor' as never },
      {
        id: 1,
        userId: 'constructor',
      },
    );
    expect(rows(getState())).toEqual({
      '{"userId":"__proto__"}': [],
      '{"userId":"constructor"}': ['1'],
    });
  });
});
