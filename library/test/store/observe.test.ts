import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  Endpoint,
  type Store,
  type StoreRecord,
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

function observed(store = createStore()) {
  const records: StoreRecord[] = [];
  const stop = store.observe((record) => records.push(record));
  return { store, records, stop };
}

describe('store.observe', () => {
  it('reports every action that changed the store, in order, with its change-set', () => {
    const { store, records } = observed();
    session(store);
    expect(records.map((record) => record.action.type)).toEqual([
      ...Array(8).fill('setResponse'),
      'invalidate',
      'expireAll',
      'reset',
      'setResponse',
    ]);
    const kinds = records.flatMap((record) => record.changes.collections.map((c) => c.kind));
    expect(kinds).toEqual(['replace', 'push', 'unshift', 'page-merge', 'invalidate', 'replace']);
    expect(records[5]?.changes.entities[0]?.updated).toEqual([
      { pk: '1', fields: [{ field: 'title', before: 'todo 1', after: 'one' }] },
    ]);
    expect(records[10]?.changes.reset).toBe(true);
  });

  it('gives the committed states around each action: each one starts where the last ended', () => {
    const { store, records } = observed();
    const initial = store.getState();
    session(store);
    expect(records[0]?.before).toBe(initial);
    for (let index = 1; index < records.length; index++)
      expect(records[index]?.before).toBe(records[index - 1]?.after);
    expect(records.at(-1)?.after).toBe(store.getState());
    // Each state stays as it was: the first one still holds one list of two todos.
    expect(store.controller.get(Todos.getList.schema!, {}, records[0]!.after)).toHaveLength(2);
    expect(store.controller.get(Todos.getList.schema!, {}, records.at(-1)!.after)).toHaveLength(1);
  });

  it('says nothing of an action that changed nothing', () => {
    const { store, records } = observed();
    store.controller.invalidateAll(() => true); // nothing stored
    store.controller.expireAll(() => true);
    expect(records).toEqual([]);
  });

  it('an optimistic fetch: its optimistic changes, and the state components see as `view`', async () => {
    const { store, records } = observed();
    store.controller.setResponse(Todos.getList, {}, [todo(1)]);
    let answer: (value: unknown) => void = () => {};
    const create = new Endpoint(
      (_body: { title: string }) => new Promise((resolve) => (answer = resolve)),
      {
        name: 'create',
        schema: Todos.getList.push.schema,
        sideEffect: true,
        key: () => 'POST create',
        getOptimisticResponse: (_snapshot: unknown, body: { title: string }) => ({
          id: 'optimistic',
          ...body,
        }),
      },
    );
    const done = store.controller.fetch(create, { title: 'soon' });
    const optimistic = records.at(-1)!;
    expect(optimistic.action.type).toBe('fetch');
    expect(optimistic.changes.collections).toMatchObject([
      { kind: 'push', inserted: [{ index: 1, pks: ['optimistic'] }] },
    ]);
    expect(optimistic.after.optimistic).toHaveLength(1);
    expect(optimistic.view).toBe(store.getState());
    expect(store.controller.get(Todo, { id: 'optimistic' }, optimistic.view)).toBeDefined();
    expect(store.controller.get(Todo, { id: 'optimistic' }, optimistic.after)).toBeUndefined();
    answer({ id: 7, title: 'soon' });
    await done;
    const settled = records.at(-1)!;
    expect(settled.action.type).toBe('setResponse');
    expect(settled.view).toBe(settled.after);
    expect(settled.after.optimistic).toEqual([]);
  });

  it('stops reporting once the observer unsubscribes; other observers go on', () => {
    const first = observed();
    const second: StoreRecord[] = [];
    first.store.observe((record) => second.push(record));
    first.store.controller.setResponse(Todos.get, { id: 1 }, todo(1));
    first.stop();
    first.store.controller.setResponse(Todos.get, { id: 2 }, todo(2));
    expect(first.records).toHaveLength(1);
    expect(second).toHaveLength(2);
  });
});
