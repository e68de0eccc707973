// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import type { StoreEvent } from '../../src/devtools/protocol/effects.js';
import type { Encoded } from '../../src/devtools/protocol/messages.js';
import {
  createResource,
  createStore,
  type EndpointInterface,
  type Store,
  schema,
} from '../../src/index.js';
import { Todo } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import type { DeleteResponseForm } from '../helpers/server.js';
import { effectsOf, joinSnapshot, PanelStandIn } from './support.js';

/** `/todos/:id` of the test server, with page pagination; `optimistic` mutations on request. */
function todoResource(urlPrefix: string, optimistic = false) {
  const resource = createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix,
    searchParams: {} as { userId?: number },
    body: {} as { title?: string; completed?: boolean; userId?: number },
    paginationField: 'page',
    optimistic,
  });
  // Batch delete: `DELETE /todos?ids=1,3` answers nothing; the ids come from the URL params.
  return resource.extend('deleteMany', {
    path: '/todos',
    method: 'DELETE',
    schema: [new schema.Invalidate(Todo)],
    process(_value: unknown, params: { ids: string }) {
      return params.ids.split(',').map((id) => ({ id: Number(id) }));
    },
  });
}

const server = serverPerTest();
const NOTED = 'noted as they happen (a panel connected)';
const LATER = 'sent when a panel connects (history)';

describe.each([NOTED, LATER])('effects %s', (mode) => {
  let Todos: ReturnType<typeof todoResource>;
  let store: Store;
  let panel: PanelStandIn;
  let connection: DevtoolsConnection;
  /** The last seq the tests have seen. */
  let seen = 0;

  beforeEach(() => {
    Todos = todoResource(server.url);
    store = createStore();
    panel = new PanelStandIn();
    // Answers in one task, however slow the machine: the tests read them right after a command.
    connection = connectDevtools(store, { sliceMs: 60_000 });
    seen = 0;
  });
  afterEach(() => {
    connection.disconnect();
    panel.restore();
  });

  /**
   * The events since the previous call, as the panel receives them (through a resync). Noted as
   * they happen, the bridge stays connected after the first call; sent later, the panel
   * disconnects after each one, so that the changes until the next are kept in the ring only.
   */
  function newEvents(): StoreEvent[] {
    const events = panel.pull(connection.storeId, seen);
    if (mode === LATER) panel.send({ kind: 'disconnect' });
    seen = events.at(-1)?.seq ?? seen;
    return events;
  }

  /** The one event since the previous call. */
  function newEvent(): StoreEvent {
    const events = newEvents();
    expect(events).toHaveLength(1);
    return events[0]!;
  }

  const key = (method: string, path: string) => `${method} ${server.url}${path}`;

  /** Fetches a result and reads it from the store, as a mounted component would. */
  async function fetchAndRead<E extends EndpointInterface>(endpoint: E, ...args: Parameters<E>) {
    await store.controller.fetch(endpoint, ...args);
    store.controller.getResponse(endpoint, ...args, store.getState());
  }

  describe('collections', () => {
    beforeEach(async () => {
      await store.controller.fetch(Todos.getList, {});
      newEvents();
    });

    it('push: the action as sent, the entity added, and its place at the end of the list', async () => {
      await store.controller.fetch(Todos.getList.push, {}, { title: 'new' });
      const event = newEvent();
      expect(event.action).toEqual({
        type: 'setResponse',
        endpoint: 'Todo.getList.push',
        key: key('POST', '/todos'),
        method: 'POST',
        url: `${server.url}/todos`,
        mutation: true,
        args: [{}, { title: 'new' }],
        body: { title: 'new' },
        response: { id: 4, title: 'new', completed: false, userId: 0 },
        duration: expect.any(Number),
        // The app called it (where from: only while a panel is connected, see why.test.tsx).
        cause: expect.objectContaining({ reason: { kind: 'app' } }),
      });
      expect(event.effects).toEqual([
        // Each entity with its label, what the panel names it by, and its row, which the panel
        // shows without asking for it.
        {
          type: 'entities-added',
          entity: 'Todo',
          pks: ['4'],
          labels: ['new'],
          rows: [{ id: 4, title: 'new', completed: false, userId: 0 }],
        },
        {
          type: 'collection-changed',
          collection: '[Todo]',
          row: '{}',
          kind: 'push',
          lengthBefore: 3,
          lengthAfter: 4,
          inserted: [{ index: 3, pks: ['4'] }],
          duplicates: [],
          removed: [],
        },
        // A mutation's answer went into the tables; the store keeps no result for its key.
        {
          type: 'result-stored',
          key: key('POST', '/todos'),
          endpoint: 'Todo.getList.push',
          expiresAt: expect.any(Number),
          kept: false,
        },
      ]);
      // The row the effect names, as the panel gets it: a `rows` command, at the event's seq.
      expect(panel.rows(connection.storeId, 'Todo', ['4'])).toMatchObject({
        seq: event.seq,
        table: 'Todo',
        rows: { '4': { id: 4, title: 'new', completed: false, userId: 0 } },
      });
    });

    it('unshift: inserted at index 0', async () => {
      await store.controller.fetch(Todos.getList.unshift, {}, { title: 'first' });
      expect(effectsOf(newEvent(), 'collection-changed')).toEqual([
        {
          type: 'collection-changed',
          collection: '[Todo]',
          row: '{}',
          kind: 'unshift',
          lengthBefore: 3,
          lengthAfter: 4,
          inserted: [{ index: 0, pks: ['4'] }],
          duplicates: [],
          removed: [],
        },
      ]);
    });

    it('getPage: a page-merge listing the duplicates it skipped', async () => {
      server.todos.push({ id: 4, title: 'four', completed: false, userId: 1 });
      await store.controller.fetch(Todos.getList.getPage, { page: 2 }); // answers 3 and 4
      const event = newEvent();
      expect(event.action).toMatchObject({
        endpoint: 'Todo.getList.getPage',
        url: `${server.url}/todos?page=2`,
        args: [{ page: 2 }],
      });
      expect(effectsOf(event, 'entities-added')).toEqual([
        {
          type: 'entities-added',
          entity: 'Todo',
          pks: ['4'],
          labels: [server.todos[3]?.title],
          rows: [server.todos[3]],
        },
      ]);
      expect(effectsOf(event, 'collection-changed')).toEqual([
        {
          type: 'collection-changed',
          collection: '[Todo]',
          row: '{}',
          kind: 'page-merge',
          lengthBefore: 3,
          lengthAfter: 4,
          inserted: [{ index: 3, pks: ['4'] }],
          duplicates: ['3'],
          removed: [],
        },
      ]);

      await store.controller.fetch(Todos.getList.getPage, { page: 1 }); // 1 and 2: both known
      expect(effectsOf(newEvent(), 'collection-changed')).toEqual([
        expect.objectContaining({
          kind: 'page-merge',
          lengthBefore: 4,
          lengthAfter: 4,
          inserted: [],
          duplicates: ['1', '2'],
        }),
      ]);
    });

    it('a refetched entity reports the fields that changed, with their values before and after', async () => {
      (server.todos[0] as { title: string }).title = 'renamed';
      await store.controller.fetch(Todos.get, { id: 1 });
      const event = newEvent();
      expect(effectsOf(event, 'entities-updated')).toEqual([
        {
          type: 'entities-updated',
          entity: 'Todo',
          updates: [
            { pk: '1', fields: [{ field: 'title', before: 'write tests', after: 'renamed' }] },
          ],
          labels: ['renamed'],
        },
      ]);
      expect(effectsOf(event, 'result-stored')).toEqual([
        {
          type: 'result-stored',
          key: key('GET', '/todos/1'),
          endpoint: 'Todo.get',
          expiresAt: expect.any(Number),
          kept: true,
          result: '1',
        },
      ]);
      expect(panel.rows(connection.storeId, 'Todo', ['1'])).toMatchObject({
        seq: event.seq,
        rows: { '1': { id: 1, title: 'renamed', completed: false, userId: 1 } },
      });
    });
  });

  describe('delete', () => {
    const forms: [DeleteResponseForm, unknown, 'url-params' | 'response'][] = [
      ['no-content', { id: 2 }, 'url-params'],
      ['empty', { id: 2 }, 'url-params'],
      ['id-json', '2', 'response'],
      ['id-text', '2', 'response'], // the id as text names it too
      ['object', { id: 2 }, 'response'],
    ];

    it.each(forms)(
      'answered %s: the pk, where it came from, and what it did',
      async (form, from, via) => {
        await fetchAndRead(Todos.get, { id: 2 });
        await fetchAndRead(Todos.get, { id: 3 });
        await fetchAndRead(Todos.getList, {});
        newEvents();
        server.setDeleteResponse(form);
        await store.controller.fetch(Todos.delete, { id: 2 });
        expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/todos/2' });
        const event = newEvent();
        expect(event.action).toMatchObject({
          type: 'setResponse',
          endpoint: 'Todo.delete',
          method: 'DELETE',
          mutation: true,
          args: [{ id: 2 }],
        });
        // With what it was just before: its label and its fields.
        expect(effectsOf(event, 'entity-invalidated')).toEqual([
          {
            type: 'entity-invalidated',
            entity: 'Todo',
            pk: '2',
            from,
            via,
            label: 'fix bugs',
            last: { id: 2, title: 'fix bugs', completed: true, userId: 1 },
          },
        ]);
        expect(effectsOf(event, 'collection-changed')).toEqual([
          {
            type: 'collection-changed',
            collection: '[Todo]',
            row: '{}',
            kind: 'invalidate',
            lengthBefore: 3,
            lengthAfter: 2,
            inserted: [],
            duplicates: [],
            removed: ['2'],
          },
        ]);
        // `get {id: 2}` now suspends; the list only lost a member; `get {id: 3}` is untouched.
        expect(effectsOf(event, 'result-suspends', 'result-lost-member')).toEqual([
          { type: 'result-suspends', key: key('GET', '/todos/2'), endpoint: 'Todo.get' },
          { type: 'result-lost-member', key: key('GET', '/todos'), endpoint: 'Todo.getList' },
        ]);
      },
    );

    it('a delete names the results that lost a member whether or not the app had read them yet', async () => {
      // Fetched, never read: no component rendered the list before the delete.
      await store.controller.fetch(Todos.getList, {});
      newEvents();
      await store.controller.fetch(Todos.delete, { id: 2 });
      expect(effectsOf(newEvent(), 'result-suspends', 'result-lost-member')).toEqual([
        { type: 'result-lost-member', key: key('GET', '/todos'), endpoint: 'Todo.getList' },
      ]);
    });

    it('a delete after thousands of writes names the readers the store holds then: each result as it was last written', async () => {
      const { controller } = store;
      const todo = (id: number, title: string) => ({ id, title, completed: false, userId: 1 });
      await fetchAndRead(Todos.getList, {});
      // Written again and again: only the last write of each result counts.
      for (let round = 0; round < 1500; round++)
        controller.setResponse(Todos.get, { id: 2 }, todo(2, `title ${round}`));
      // Dropped, then stored again: it reads todo 2 once more.
      controller.setResponse(Todos.get, { id: 3 }, todo(3, 'three'));
      controller.invalidate(Todos.get, { id: 3 });
      controller.setResponse(Todos.get, { id: 3 }, todo(2, 'two, through the key of 3'));
      // Stored, then dropped: nothing reads through it any more.
      controller.setResponse(Todos.get, { id: 4 }, todo(2, 'two, through the key of 4'));
      controller.invalidate(Todos.get, { id: 4 });
      newEvents();
      controller.setResponse(Todos.delete, { id: 2 }, { id: 2 });
      expect(effectsOf(newEvent(), 'result-suspends', 'result-lost-member')).toEqual([
        { type: 'result-lost-member', key: key('GET', '/todos'), endpoint: 'Todo.getList' },
        { type: 'result-suspends', key: key('GET', '/todos/2'), endpoint: 'Todo.get' },
        { type: 'result-suspends', key: key('GET', '/todos/3'), endpoint: 'Todo.get' },
      ]);
    });

    it('batch delete: every entity invalidated, each removal from the list, every reader', async () => {
      await fetchAndRead(Todos.get, { id: 1 });
      await fetchAndRead(Todos.get, { id: 2 });
      await fetchAndRead(Todos.getList, {});
      await fetchAndRead(Todos.getList, { userId: 2 }); // holds only todo 3
      newEvents();
      await store.controller.fetch(Todos.deleteMany, { ids: '1,3' });
      expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/todos?ids=1%2C3' });
      expect(server.todos.map((todo) => todo.id)).toEqual([2]);
      const event = newEvent();
      expect(event.action).toMatchObject({ endpoint: 'Todo.deleteMany', args: [{ ids: '1,3' }] });
      expect(effectsOf(event, 'entity-invalidated')).toEqual([
        expect.objectContaining({
          pk: '1',
          from: { id: 1 },
          via: 'response',
          label: 'write tests',
        }),
        expect.objectContaining({ pk: '3', from: { id: 3 }, via: 'response', label: 'ship' }),
      ]);
      const removals = effectsOf(event, 'collection-changed').map(
        ({ row, kind, removed, lengthBefore, lengthAfter }) => ({
          row,
          kind,
          removed,
          lengthBefore,
          lengthAfter,
        }),
      );
      expect(removals).toEqual([
        { row: '{}', kind: 'invalidate', removed: ['1'], lengthBefore: 3, lengthAfter: 2 },
        { row: '{}', kind: 'invalidate', removed: ['3'], lengthBefore: 2, lengthAfter: 1 },
        {
          row: '{"userId":"2"}',
          kind: 'invalidate',
          removed: ['3'],
          lengthBefore: 1,
          lengthAfter: 0,
        },
      ]);
      const readers = effectsOf(event, 'result-suspends', 'result-lost-member');
      expect(readers).toHaveLength(3);
      expect(readers).toEqual(
        expect.arrayContaining([
          { type: 'result-suspends', key: key('GET', '/todos/1'), endpoint: 'Todo.get' },
          { type: 'result-lost-member', key: key('GET', '/todos'), endpoint: 'Todo.getList' },
          {
            type: 'result-lost-member',
            key: key('GET', '/todos?userId=2'),
            endpoint: 'Todo.getList',
          },
        ]),
      );
      expect(readers).not.toContainEqual(expect.objectContaining({ key: key('GET', '/todos/2') }));
    });
  });

  describe('optimistic mutations', () => {
    let Optimistic: ReturnType<typeof todoResource>;
    beforeEach(async () => {
      Optimistic = todoResource(server.url, true);
      await store.controller.fetch(Optimistic.get, { id: 1 });
      newEvents();
    });

    it('apply, then commit: two events told apart by action.optimistic', async () => {
      const done = store.controller.fetch(Optimistic.update, { id: 1 }, { title: 'soon' });
      done.catch(() => {}); // awaited below; no unhandled rejection if an assertion fails first
      const applied = newEvent();
      expect(applied.action).toMatchObject({
        type: 'fetch',
        endpoint: 'Todo.update',
        optimistic: 'applied',
        body: { title: 'soon' },
      });
      expect(applied.action).not.toHaveProperty('response');
      expect(effectsOf(applied, 'entities-updated')).toEqual([
        {
          type: 'entities-updated',
          entity: 'Todo',
          updates: [
            { pk: '1', fields: [{ field: 'title', before: 'write tests', after: 'soon' }] },
          ],
          labels: ['soon'],
        },
      ]);
      // The optimistic row is what the store shows now, and what a `rows` command answers.
      expect(panel.rows(connection.storeId, 'Todo', ['1']).rows).toEqual({
        '1': { id: 1, title: 'soon', completed: false, userId: 1 },
      });
      await done;
      const committed = newEvent();
      expect(committed.action).toMatchObject({
        type: 'setResponse',
        endpoint: 'Todo.update',
        optimistic: 'committed',
        response: { id: 1, title: 'soon', completed: false, userId: 0 },
      });
      expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({ title: 'soon' });
    });

    it('an optimistic delete: the event that applies it and the one that commits it name the same list that lost a member', async () => {
      await store.controller.fetch(Optimistic.getList, {});
      newEvents();
      const done = store.controller.fetch(Optimistic.delete, { id: 2 });
      done.catch(() => {}); // awaited below
      const lost = [
        { type: 'result-lost-member', key: key('GET', '/todos'), endpoint: 'Todo.getList' },
      ];
      const deleted = {
        label: 'fix bugs',
        last: { id: 2, title: 'fix bugs', completed: true, userId: 1 },
      };
      const applied = newEvent();
      expect(effectsOf(applied, 'result-lost-member')).toEqual(lost);
      expect(effectsOf(applied, 'entity-invalidated')).toEqual([expect.objectContaining(deleted)]);
      await done;
      // The view already lacked the member and the row: the commit still names what the delete
      // did, and what the entity was.
      const committed = newEvent();
      expect(effectsOf(committed, 'result-lost-member')).toEqual(lost);
      expect(effectsOf(committed, 'entity-invalidated')).toEqual([
        expect.objectContaining(deleted),
      ]);
    });

    it('apply, then roll back: the error, and the store back as it was', async () => {
      server.failNext(500);
      const done = store.controller.fetch(Optimistic.update, { id: 1 }, { title: 'never' });
      done.catch(() => {}); // awaited below; no unhandled rejection if an assertion fails first
      expect(newEvent().action.optimistic).toBe('applied');
      expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({ title: 'never' });
      await expect(done).rejects.toMatchObject({ status: 500 });
      const rolledBack = newEvent();
      expect(rolledBack.action).toMatchObject({
        type: 'setResponse',
        endpoint: 'Todo.update',
        optimistic: 'rolled-back',
        error: { '@t': 'error', status: 500 },
      });
      expect(effectsOf(rolledBack, 'result-error')).toEqual([
        {
          type: 'result-error',
          key: key('PUT', '/todos/1'),
          endpoint: 'Todo.update',
          error: expect.objectContaining({ '@t': 'error', status: 500 }),
          kept: false,
        },
      ]);
      expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({
        title: 'write tests',
      });
    });

    it('a connected panel gets a snapshot after a rollback, since effects alone cannot undo', async () => {
      const live = connectDevtools(store, { batchInterval: 1, sliceMs: 60_000 });
      try {
        panel.connect(0, live.storeId);
        server.failNext(500);
        await store.controller
          .fetch(Optimistic.update, { id: 1 }, { title: 'never' })
          .catch(() => {});
        const mark = panel.mark;
        await vi.waitFor(() => expect(panel.snapshots(live.storeId, mark)).not.toEqual([]));
        const kinds = panel.since(mark, live.storeId).map((message) => message.kind);
        expect(kinds.indexOf('snapshot')).toBeGreaterThan(kinds.indexOf('events'));
        const rolledBack = panel
          .events(live.storeId)
          .find((e) => e.action.optimistic === 'rolled-back');
        expect(rolledBack).toBeDefined();
        const snapshot = joinSnapshot(panel.since(mark, live.storeId));
        expect(snapshot.pks?.Todo).toContain('1');
        expect(snapshot.optimistic).toEqual([]);
        // The rows a panel reads after it are the store's, the optimistic title gone.
        expect(panel.rows(live.storeId, 'Todo', ['1']).rows['1']).toMatchObject({
          title: 'write tests',
        });
      } finally {
        live.disconnect();
      }
    });

    it('a resync over a rollback sends the missing events, then a snapshot', async () => {
      server.failNext(500);
      await store.controller
        .fetch(Optimistic.update, { id: 1 }, { title: 'never' })
        .catch(() => {});
      const mark = panel.mark;
      const answer = panel.connect(seen, connection.storeId);
      expect(answer.map((message) => message.kind)).toEqual([
        'hello',
        'events',
        'snapshot',
        'members',
      ]);
      expect(
        panel.events(connection.storeId, mark).map((event) => event.action.optimistic),
      ).toEqual(['applied', 'rolled-back']);
      const snapshot = joinSnapshot(panel.since(mark, connection.storeId));
      expect(snapshot.optimistic).toEqual([]);
      expect(panel.rows(connection.storeId, 'Todo', ['1']).rows['1']).toMatchObject({
        title: 'write tests',
      });
    });

    it('a mutation that is not optimistic carries no optimistic flag', async () => {
      await store.controller.fetch(Todos.update, { id: 1 }, { title: 'plain' });
      const event = newEvent();
      expect(event.action.type).toBe('setResponse');
      expect(event.action).not.toHaveProperty('optimistic');
    });
  });

  describe('invalidate, expireAll, reset', () => {
    beforeEach(async () => {
      await store.controller.fetch(Todos.get, { id: 1 });
      await store.controller.fetch(Todos.getList, {});
      newEvents();
    });

    it('invalidate: the result key invalidated', () => {
      store.controller.invalidate(Todos.get, { id: 1 });
      expect(newEvent()).toMatchObject({
        action: { type: 'invalidate', key: key('GET', '/todos/1') },
        effects: [{ type: 'result-invalidated', key: key('GET', '/todos/1') }],
      });
    });

    it('invalidateAll: every key it matched', () => {
      store.controller.invalidateAll(() => true);
      const event = newEvent();
      expect(event.action).toEqual({
        type: 'invalidateAll',
        cause: expect.objectContaining({ reason: { kind: 'app' } }),
      });
      expect(
        effectsOf(event, 'result-invalidated')
          .map((effect) => effect.key)
          .sort(),
      ).toEqual([key('GET', '/todos'), key('GET', '/todos/1')].sort());
    });

    it('expireAll: every key it expired', () => {
      store.controller.expireAll(Todos.getList);
      expect(newEvent()).toMatchObject({
        action: { type: 'expireAll' },
        effects: [{ type: 'result-expired', key: key('GET', '/todos') }],
      });
    });

    it('reset: store-reset', () => {
      store.controller.resetEntireStore();
      expect(newEvent()).toMatchObject({
        action: { type: 'reset' },
        effects: [{ type: 'store-reset' }],
      });
    });

    it('a failed GET: result-error with the error encoded', async () => {
      server.failNext(404);
      await store.controller.fetch(Todos.get, { id: 9 }).catch(() => {});
      expect(effectsOf(newEvent(), 'result-error')).toEqual([
        {
          type: 'result-error',
          key: key('GET', '/todos/9'),
          endpoint: 'Todo.get',
          error: expect.objectContaining({ '@t': 'error', status: 404 }),
          kept: true,
        },
      ]);
    });
  });

  describe('values on the wire', () => {
    /** A value's length once on the wire. */
    const wireLength = (value: unknown) => JSON.stringify(value).length;
    /** A read's values are previews of at most about 2 KB (the bridge's cap, plus markers). */
    const READ_PREVIEW = 2 * 1024 + 256;

    it('a very long response field is cut with a visible marker in the event', () => {
      const long = 'x'.repeat(20_000);
      // A mutation: its values keep up to 16 KB, so the string cap (10 000) cuts this one.
      store.controller.setResponse(
        Todos.partialUpdate,
        { id: 7 },
        { title: 'x' },
        { id: 7, title: long },
      );
      const event = newEvent();
      expect((event.action.response as Record<string, unknown>).title).toEqual({
        '@t': 'truncated',
        reason: 'length',
        omitted: 10_000,
        preview: 'x'.repeat(10_000),
      });
      // The store itself keeps the whole value.
      expect(store.getState().entities.get('Todo')?.get('7')).toMatchObject({ title: long });
    });

    it("a read's answer is a preview of at most about 2 KB: the first todos, then a size marker", async () => {
      for (let id = 4; id <= 200; id++)
        server.todos.push({ id, title: `todo number ${id}`, completed: false, userId: 1 });
      await store.controller.fetch(Todos.getList, {});
      const event = newEvent();
      const response = event.action.response as Encoded[];
      expect(wireLength(response)).toBeLessThanOrEqual(READ_PREVIEW);
      const kept = response.slice(0, -1);
      expect(kept.length).toBeGreaterThan(5);
      // The todos in order; the last one shown may itself be cut short.
      expect(kept.slice(0, -1)).toEqual(server.todos.slice(0, kept.length - 1));
      expect(kept.at(-1)).toMatchObject({ id: kept.length });
      expect(response.at(-1)).toEqual({
        '@t': 'truncated',
        reason: 'size',
        omitted: 200 - kept.length,
      });
      // The store holds every todo; the panel reads the rows it shows with a `rows` command.
      expect(store.getState().entities.get('Todo')?.size).toBe(200);
      expect(panel.rows(connection.storeId, 'Todo', ['200']).rows).toEqual({
        '200': { id: 200, title: 'todo number 200', completed: false, userId: 1 },
      });
    });

    it("one long text field of a read is cut to the preview's size too", () => {
      const long = 'x'.repeat(20_000);
      store.controller.setResponse(Todos.get, { id: 7 }, { id: 7, title: long });
      const response = newEvent().action.response as Record<string, Encoded>;
      expect(wireLength(response)).toBeLessThanOrEqual(READ_PREVIEW);
      expect(response.id).toBe(7);
      const title = response.title as {
        '@t': string;
        reason: string;
        omitted: number;
        preview: string;
      };
      expect(title).toMatchObject({ '@t': 'truncated', reason: 'size' });
      expect(title.preview).toBe('x'.repeat(title.preview.length));
      expect(title.preview.length).toBeGreaterThanOrEqual(512);
      expect(title.omitted + title.preview.length).toBe(20_000);
      expect(store.getState().entities.get('Todo')?.get('7')).toMatchObject({ title: long });
    });

    it("a mutation's body and answer are kept whole up to 16 KB, and cut with a marker past it", async () => {
      const title = 'y'.repeat(9_500); // far over a read's preview, under a mutation's cap
      await store.controller.fetch(Todos.getList.push, {}, { title, userId: 1 });
      const whole = newEvent();
      expect(whole.action.body).toEqual({ title, userId: 1 });
      expect(whole.action.args).toEqual([{}, { title, userId: 1 }]);
      expect(whole.action.response).toEqual({ id: 4, title, completed: false, userId: 1 });

      // Two long fields, 18 000 characters together: the second is cut at what the cap leaves.
      const body = { title: 'p'.repeat(9_000), notes: 'q'.repeat(9_000) } as { title: string };
      await store.controller.fetch(Todos.getList.push, {}, body);
      const cut = newEvent();
      for (const value of [cut.action.body, cut.action.response]) {
        const fields = value as Record<string, Encoded>;
        expect(wireLength(fields)).toBeLessThanOrEqual(16 * 1024 + 256);
        expect(fields.title).toBe('p'.repeat(9_000));
        expect(fields.notes).toMatchObject({ '@t': 'truncated', reason: 'size' });
      }
      expect(server.requests.at(-1)?.body).toBe(JSON.stringify(body)); // the request itself was whole
    });
  });

  describe('times', () => {
    it.each([
      ['a request of a few ms', () => Date.now() - 5],
      ['a request started in 1970 (a duration past 2³¹ ms)', () => 1],
    ])('keeps the exact time, duration and expiry of %s', (_name, startedAt) => {
      const args = [{ id: 1 }] as const;
      const fetchedAt = startedAt();
      const before = Date.now();
      store.controller.resolve(Todos.get, {
        args,
        response: { id: 1, title: 'one', completed: false, userId: 1 },
        fetchedAt,
      });
      const after = Date.now();
      const event = newEvent();
      const meta = store.getState().meta.get(Todos.get.key(...args));
      expect(event.time).toBeGreaterThanOrEqual(before);
      expect(event.time).toBeLessThanOrEqual(after);
      expect(event.action.duration).toBe((meta?.date ?? Number.NaN) - fetchedAt);
      expect(effectsOf(event, 'result-stored')).toMatchObject([{ expiresAt: meta?.expiresAt }]);
    });
  });
});
