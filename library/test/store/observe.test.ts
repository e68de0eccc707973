import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  retrace,
  type Store,
  type StoreRecord,
  type TraceEvent,
} from '../../src/index.js';
import { Todo } from '../fixtures.js';

/** Responses are written with `setResponse`: nothing is fetched from this prefix. */
const Todos = createResource({
  path: '/todos/:id',
  schema: Todo,
  urlPrefix: 'http://127.0.0.1:9',
  body: {} as { title?: string },
  paginationField: 'page',
});
const todo = (id: number, title = `todo ${id}`) => ({ id, title, userId: 1 });

/** Every kind of store action, and each kind of collection change. */
function session({ controller }: Store) {
  controller.setResponse(Todos.getList, {}, [todo(1), todo(2)]);
  controller.setResponse(Todos.get, { id: 2 }, todo(2));
  controller.setResponse(Todos.getList.push, {}, { title: 'three' }, todo(3));
  controller.setResponse(Todos.getList.unshift, {}, { title: 'four' }, todo(4));
  controller.setResponse(Todos.getList.getPage, { page: 2 }, [todo(2), todo(5)]);
  controller.setResponse(Todos.partialUpdate, { id: 1 }, { title: 'one' }, todo(1, 'one'));
  controller.setResponse(Todos.delete, { id: 2 }, { id: 2 });
  controller.setError(Todos.get, { id: 9 }, new Error('not found'));
  controller.invalidate(Todos.get, { id: 2 });
  controller.expireAll(() => true);
  controller.resetEntireStore();
  controller.setResponse(Todos.getList, {}, [todo(6)]);
}

const eventsOf = (record: StoreRecord): readonly TraceEvent[] => record.trace?.events ?? [];

describe('store.observe', () => {
  it('traces every action for an observer that sets no `traces`', () => {
    const store = createStore();
    const records: StoreRecord[] = [];
    store.observe((record) => records.push(record));
    session(store);
    expect(records).toHaveLength(12);
    expect(records.every((record) => record.trace !== undefined)).toBe(true);
    expect(eventsOf(records[0]!).map((event) => event.type)).toEqual([
      'entities-added',
      'collection-changed',
    ]);
  });

  it('traces only the actions an observer asks for, and still reports every change', () => {
    const store = createStore();
    const records: StoreRecord[] = [];
    store.observe((record) => records.push(record), {
      traces: (action) => action.type === 'invalidate',
    });
    session(store);
    expect(records.map((record) => [record.action.type, record.trace !== undefined])).toEqual([
      ['setResponse', false],
      ['setResponse', false],
      ['setResponse', false],
      ['setResponse', false],
      ['setResponse', false],
      ['setResponse', false],
      ['setResponse', false],
      ['setResponse', false],
      ['invalidate', true],
      ['expireAll', false],
      ['reset', false],
      ['setResponse', false],
    ]);
  });

  it('traces an action when any one observer asks for it', () => {
    const store = createStore();
    const untraced: StoreRecord[] = [];
    const traced: StoreRecord[] = [];
    store.observe((record) => untraced.push(record), { traces: () => false });
    store.observe((record) => traced.push(record));
    store.controller.setResponse(Todos.getList, {}, [todo(1)]);
    expect(untraced[0]?.trace).toBe(traced[0]?.trace);
    expect(eventsOf(traced[0]!)).toHaveLength(2);
  });
});

describe('retrace', () => {
  it('works out from the state before the same states and traces the store made', () => {
    const store = createStore();
    const records: StoreRecord[] = [];
    store.observe((record) => records.push(record));
    session(store);
    const again = [
      ...retrace(
        records[0]!.before,
        records.map(({ action }) => ({ action, trace: undefined })),
      ),
    ];
    expect(again).toHaveLength(records.length);
    for (const [index, record] of again.entries()) {
      const original = records[index]!;
      expect(record.action).toBe(original.action);
      expect(record.after).toEqual(original.after);
      expect(record.trace.events).toEqual(eventsOf(original));
    }
    // The session's traces say something: the push, the page merge, the delete.
    const kinds = again.flatMap((record) =>
      record.trace.events.flatMap((event) =>
        event.type === 'collection-changed' ? [event.kind] : [],
      ),
    );
    expect(kinds).toEqual(expect.arrayContaining(['push', 'unshift', 'page-merge', 'invalidate']));
  });

  it('passes on the trace it is given for an action instead of making one', () => {
    const store = createStore();
    const records: StoreRecord[] = [];
    store.observe((record) => records.push(record));
    store.controller.setResponse(Todos.getList, {}, [todo(1)]);
    const [record] = records;
    const [again] = retrace(record!.before, [{ action: record!.action, trace: record!.trace }]);
    expect(again!.trace).toBe(record!.trace);
    expect(again!.after).toEqual(record!.after);
  });
});
