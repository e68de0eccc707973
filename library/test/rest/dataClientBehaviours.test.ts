import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  Endpoint,
  Entity,
  SchemaError,
  schema,
} from '../../src/index.js';
import { feedItem, Link, Post, plain, Task } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, row, rows, Todo, track } from './support.js';

const server = serverPerTest({ todos: FOUR_TODOS });

describe('getOptimisticResponse throwing something that is not an Error', () => {
  /** Toggles a stored todo's `completed` on the server (PATCH), showing `toThrow` thrown at once. */
  function failingToggle(toThrow: unknown) {
    return new Endpoint(
      async ({ id }: { id: number }) => {
        const response = await fetch(`${server.url}/todos/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ completed: true }),
        });
        return response.json();
      },
      {
        name: 'failingToggle',
        schema: Todo,
        sideEffect: true,
        getOptimisticResponse() {
          throw toThrow;
        },
      },
    );
  }

  // Object.create(null) has no constructor: telling it from AbortOptimistic must not read one.
  // As in data-client, the request still goes and its answer is stored; the value thrown is the
  // call's error meanwhile (a mutation's error goes to the change-set, not to the result's meta).
  it.each([
    ['a string', 'failed string'],
    ['an object without a prototype', Object.create(null)],
  ])(
    '%s: shows nothing and reports the value as the call’s error, then the answer commits',
    async (_name, toThrow) => {
      const Todos = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
      const toggle = failingToggle(toThrow);
      const { controller, getState, observe } = createStore();
      await controller.fetch(Todos.get, { id: 1 });
      const before = getState().entities;
      const key = toggle.key({ id: 1 });
      const reported: unknown[] = [];
      observe(({ changes }) => {
        for (const change of changes.results)
          if (change.type === 'result-error' && change.key === key) reported.push(change.error);
      });
      server.setDelay(100);
      const pending = track(controller.fetch(toggle, { id: 1 }));
      expect(getState().entities).toBe(before);
      expect(reported).toEqual([toThrow]);
      expect(reported[0]).toBe(toThrow);
      expect(pending.settled).toBe(false);
      await pending.promise;
      expect(row(getState(), '1')).toMatchObject({ completed: true });
      expect(getState().optimistic).toEqual([]);
    },
  );
});

/** A user holding its tasks: the nested list is the one `getList({ userId })` stores. */
class Owner extends Entity {
  id = 0;
  tasks: Task[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Owner';
  static override schema = {
    tasks: new schema.Collection([Task], {
      nestKey: (parent: { id: number }) => ({ userId: parent.id }),
    }),
  };
}

describe('a push reaches nested and top-level lists of the same arguments', () => {
  function resources() {
    const Tasks = createResource({
      path: '/todos/:id',
      schema: Task,
      urlPrefix: server.url,
      searchParams: {} as { userId?: number },
      body: {} as { title?: string; userId?: number },
    });
    const Owners = createResource({ path: '/owners/:id', schema: Owner, urlPrefix: server.url });
    // One Collection both nested and top-level: Owner's own, as data-client's docs write it.
    return { Tasks: Tasks.extend({ getList: { schema: Owner.schema.tasks } }), Owners };
  }

  async function loaded() {
    const { Tasks, Owners } = resources();
    const store = createStore();
    server.respondNext({ body: { id: 1, tasks: [{ id: 10, title: 'write', userId: 1 }] } });
    await store.controller.fetch(Owners.get, { id: 1 });
    server.respondNext({ body: [{ id: 10, title: 'write', userId: 1 }] });
    await store.controller.fetch(Tasks.getList, { userId: 1 });
    return { Tasks, Owners, ...store };
  }

  function titles(list: readonly { title: string }[] | undefined) {
    return list?.map((task) => task.title);
  }

  it.each([
    ['push of a plain object', 'push', false],
    ['unshift of a plain object', 'unshift', false],
    ['push of a FormData', 'push', true],
    ['unshift of a FormData', 'unshift', true],
  ] as const)('%s', async (_name, merge, asForm) => {
    const { Tasks, Owners, controller, getState } = await loaded();
    const fields = { title: 'review', userId: 1 };
    let body: { title?: string; userId?: number } | FormData = fields;
    if (asForm) {
      const form = new FormData();
      form.set('title', fields.title);
      form.set('userId', String(fields.userId));
      body = form;
    }
    server.respondNext({ status: 201, body: { id: 11, ...fields } });
    await controller.fetch(Tasks.getList[merge], { userId: 1 }, body as never);
    const expected = merge === 'push' ? ['write', 'review'] : ['review', 'write'];
    const topLevel = controller.getResponse(Tasks.getList, { userId: 1 }, getState()).data;
    const owner = controller.getResponse(Owners.get, { id: 1 }, getState()).data;
    expect(titles(topLevel)).toEqual(expected);
    expect(titles(owner?.tasks)).toEqual(expected);
    // One row, read once: the parent's list is the top-level list itself.
    expect(owner?.tasks).toBe(topLevel);
    expect(rows(getState(), '[Task]')).toEqual({
      '{"userId":"1"}': merge === 'push' ? ['10', '11'] : ['11', '10'],
    });
  });
});

function feedResource() {
  return createResource({ path: '/feed/:id', schema: feedItem, urlPrefix: server.url });
}

describe('a union resource', () => {
  it.each(['push', 'unshift'] as const)(
    'getList.%s with no arguments adds to the list',
    async (merge) => {
      const Feed = feedResource();
      const { controller, getState } = createStore();
      server.respondNext({ body: [{ id: 1, type: 'post', title: 'hello' }] });
      await controller.fetch(Feed.getList);
      server.respondNext({ status: 201, body: { id: 2, type: 'link', url: 'https://b.example' } });
      const created = await controller.fetch(Feed.getList[merge], { type: 'link' });
      expect(created).toBeInstanceOf(Link);
      expect(server.requests.at(-1)?.url).toBe('/feed');
      const read = controller.getResponse(Feed.getList, getState()).data;
      const expected = merge === 'push' ? ['post 1', 'link 2'] : ['link 2', 'post 1'];
      expect(read?.map((item) => `${item.type} ${item.id}`)).toEqual(expected);
    },
  );

  it('an answer whose attribute names no member passes through as it came', async () => {
    const Feed = feedResource();
    const { controller, getState } = createStore();
    const unknown = { id: 7, type: 'video', src: 'clip.mp4' };
    server.respondNext({ body: unknown });
    const read = await controller.fetch(Feed.get, { id: 7 });
    expect(read).toEqual(unknown);
    expect(read).not.toBeInstanceOf(Entity);
    expect(controller.getResponse(Feed.get, { id: 7 }, getState()).data).toEqual(unknown);
    expect(plain(getState().entities).Post).toBeUndefined();
  });

  it('a push answered with null is recorded as an error, and the lists keep their members', async () => {
    const Feed = feedResource();
    const { controller, getState, observe } = createStore();
    const key = Feed.getList.push.key({ type: 'post' });
    const reported: unknown[] = [];
    observe(({ changes }) => {
      for (const change of changes.results)
        if (change.type === 'result-error' && change.key === key) reported.push(change.error);
    });
    server.respondNext({ body: [{ id: 1, type: 'post', title: 'hello' }] });
    await controller.fetch(Feed.getList);
    server.respondNext({ status: 201, body: null });
    const push = controller.fetch(Feed.getList.push, { type: 'post' });
    await expect(push).rejects.toThrow(SchemaError);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(SchemaError);
    expect(controller.getResponse(Feed.getList, getState()).data).toHaveLength(1);
  });

  it('null members of a union list are kept in their places', async () => {
    const { controller, getState } = createStore();
    server.respondNext({
      body: [{ id: 1, type: 'post', title: 'hello' }, null, { id: 2, type: 'link', url: 'u' }],
    });
    const list = new Endpoint(
      () => fetch(`${server.url}/feed`).then((response) => response.json()),
      { name: 'feedList', schema: [feedItem] },
    );
    const fetched = await controller.fetch(list);
    expect(fetched.map((item) => item?.constructor ?? item)).toEqual([Post, null, Link]);
    const read = controller.getResponse(list, getState()).data;
    expect(read?.map((item) => item?.constructor ?? item)).toEqual([Post, null, Link]);
  });
});

describe('a polymorphic schema.Array', () => {
  it('keeps a member whose type maps to a schema that is not an entity as the object', async () => {
    const mixed = new schema.Array(
      { post: Post, note: new schema.Object({ author: Post }) },
      'type',
    );
    const feed = new Endpoint(
      () => fetch(`${server.url}/feed`).then((response) => response.json()),
      { name: 'mixedFeed', schema: mixed },
    );
    const { controller, getState } = createStore();
    const note = { type: 'note', text: 'remember', author: { id: 3, type: 'post', title: 'by' } };
    server.respondNext({ body: [{ id: 1, type: 'post', title: 'hello' }, note] });
    await controller.fetch(feed);
    const read = controller.getResponse(feed, getState()).data as unknown[];
    expect(read[0]).toBeInstanceOf(Post);
    expect(read[1]).toMatchObject({ type: 'note', text: 'remember' });
    expect(read[1]).not.toBeInstanceOf(Entity);
  });
});

describe('schema.Invalidate of a schema.Union', () => {
  it('removes the member its answer names from the tables and lists, other types untouched', async () => {
    const Feed = feedResource();
    const removeItem = new Endpoint(
      ({ id }: { id: number }) =>
        fetch(`${server.url}/feed/${id}`, { method: 'DELETE' }).then((response) => response.json()),
      { name: 'removeFeedItem', schema: new schema.Invalidate(feedItem), sideEffect: true },
    );
    const { controller, getState } = createStore();
    server.respondNext({
      body: [
        { id: 1, type: 'post', title: 'hello' },
        { id: 1, type: 'link', url: 'u' },
      ],
    });
    await controller.fetch(Feed.getList);
    server.respondNext({ body: { id: 1, type: 'link' } });
    const removed = await controller.fetch(removeItem, { id: 1 });
    expect(removed).toBeInstanceOf(Link);
    const read = controller.getResponse(Feed.getList, getState()).data;
    expect(read?.map((item) => `${item.type} ${item.id}`)).toEqual(['post 1']);
    expect(controller.get(Post, { id: 1 }, getState())?.title).toBe('hello');
    expect(controller.get(Link, { id: 1 }, getState())).toBeUndefined();
  });
});
