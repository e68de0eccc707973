import { describe, expect, it } from 'vitest';
import {
  AbortOptimistic,
  type ChangeSet,
  Endpoint,
  type SnapshotInterface,
  type State,
  type StoreRecord,
  schema,
} from '../../src/index.js';
import { plain, Todo, todoList } from '../fixtures.js';
import type { TodoRecord } from '../helpers/server.js';
import { HttpError, requestJson } from '../helpers/todoApi.js';

import { ids, todoStorePerTest } from './support.js';

const { server, api, store } = todoStorePerTest();

const SLOW = 150;

/** The data of a state, as text: shows that a committed state was never written to. */
const dataOf = (state: State) =>
  JSON.stringify({
    entities: state.entities,
    endpoints: state.endpoints,
    meta: state.meta,
    indexes: state.indexes,
    entitiesMeta: state.entitiesMeta,
  });

const patch = (body: Partial<TodoRecord>): RequestInit => ({
  method: 'PATCH',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function optimisticPatch(
  getOptimisticResponse: (
    snapshot: SnapshotInterface,
    params: { id: number },
    body: Partial<TodoRecord>,
  ) => unknown = (_snapshot, params, body) => ({ id: params.id, ...body }),
) {
  return new Endpoint(
    (params: { id: number }, body: Partial<TodoRecord>) =>
      requestJson(`${server.url}/todos/${params.id}`, patch(body)),
    { name: 'optimisticPatch', schema: Todo, sideEffect: true, getOptimisticResponse },
  );
}

/** Stores the server's list; returns that committed state. */
async function committedList(): Promise<State> {
  await store.controller.fetch(api.getTodos, {});
  return store.getState();
}

describe('optimistic updates', () => {
  it('show before the server answers, then commit what the server answered', async () => {
    const { controller, getState } = store;
    const committed = await committedList();
    const committedText = dataOf(committed);
    const update = optimisticPatch();
    server.setDelay(SLOW);

    const done = controller.fetch(update, { id: 1 }, { title: 'optimistic' });
    // Shown at once, in the entity and in every result holding it.
    expect(plain(getState().entities).Todo?.['1']).toMatchObject({ title: 'optimistic' });
    expect(controller.getResponse(api.getTodos, {}, getState()).data?.[0]?.title).toBe(
      'optimistic',
    );
    expect(getState().optimistic).toHaveLength(1);

    // The server has the request but has not answered: its data is unchanged.
    await server.waitForRequest(2);
    expect(server.todos[0]?.title).toBe('write tests');
    expect(plain(getState().entities).Todo?.['1']).toMatchObject({ title: 'optimistic' });
    // Meanwhile someone else completes the todo on the server: the answer will carry it.
    server.todos[0]!.completed = true;

    const answered = await done;
    expect(answered).toMatchObject({ id: 1, title: 'optimistic', completed: true });
    const state = getState();
    expect(state.optimistic).toEqual([]);
    expect(plain(state.entities).Todo?.['1']).toEqual({
      id: 1,
      title: 'optimistic',
      completed: true,
      userId: 1,
    });
    expect(controller.getResponse(api.getTodos, {}, state).data?.[0]).toMatchObject({
      title: 'optimistic',
      completed: true,
    });
    // The committed state from before was never written to.
    expect(dataOf(committed)).toBe(committedText);
  });

  it('roll back to the committed state when the server fails', async () => {
    const { controller, getState } = store;
    const committed = await committedList();
    const committedText = dataOf(committed);
    const listBefore = controller.getResponse(api.getTodos, {}, committed).data;
    const update = optimisticPatch();
    server.setDelay(SLOW);
    server.failNext(500);

    const done = controller.fetch(update, { id: 2 }, { title: 'doomed', completed: false });
    expect(plain(getState().entities).Todo?.['2']).toMatchObject({
      title: 'doomed',
      completed: false,
    });
    await expect(done).rejects.toBeInstanceOf(HttpError);

    const state = getState();
    expect(state.optimistic).toEqual([]);
    expect(state.entities).toBe(committed.entities);
    expect(state.endpoints).toBe(committed.endpoints);
    expect(controller.getResponse(api.getTodos, {}, state).data).toEqual(listBefore);
    expect(controller.getResponse(api.getTodos, {}, state).data?.[1]?.title).toBe('fix bugs');
    // The error went to the caller; the store is the committed one as it was.
    expect(state.meta).toBe(committed.meta);
    expect(dataOf(committed)).toBe(committedText);
  });

  it('are skipped when the updater throws AbortOptimistic, and the answer still commits', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodo, { id: 1 });
    const committed = getState();
    const seen: unknown[] = [];
    // Only known todos are updated optimistically.
    const update = optimisticPatch((snapshot, params, body) => {
      const current = snapshot.getResponse(api.getTodo, params).data;
      seen.push(current);
      if (current === undefined) throw new AbortOptimistic();
      return { ...params, ...body };
    });
    server.setDelay(SLOW);

    const done = controller.fetch(update, { id: 3 }, { title: 'unknown before' });
    expect(seen).toEqual([undefined]);
    const during = getState();
    expect(during.entities).toBe(committed.entities);
    expect(during.endpoints).toBe(committed.endpoints);
    expect(during.meta).toBe(committed.meta);
    // The request is still queued until the server answers.
    expect(during.optimistic).toHaveLength(1);

    await done;
    expect(getState().optimistic).toEqual([]);
    expect(plain(getState().entities).Todo?.['3']).toMatchObject({ title: 'unknown before' });
  });

  it('skip a throwing updater (reporting its error) until the server answers', async () => {
    const { controller, getState } = store;
    const committed = await committedList();
    const broken = new Error('updater bug');
    const update = optimisticPatch(() => {
      throw broken;
    });
    server.setDelay(SLOW);
    const key = update.key({ id: 1 }, { title: 'x' });
    const reported: unknown[] = [];
    store.observe(({ changes }) => {
      for (const change of changes.results)
        if (change.type === 'result-error' && change.key === key) reported.push(change.error);
    });
    const done = controller.fetch(update, { id: 1 }, { title: 'x' });
    // Nothing is shown before the answer; the updater's error is reported to observers.
    expect(getState().entities).toBe(committed.entities);
    expect(reported).toEqual([broken]);
    await done;
    expect(plain(getState().entities).Todo?.['1']).toMatchObject({ title: 'x' });
  });

  it('apply in order, each updater seeing the ones before it', async () => {
    const { controller, getState } = store;
    await committedList();
    const fetchedAts: number[] = [];
    const exclaim = optimisticPatch((snapshot, params) => {
      fetchedAts.push(snapshot.fetchedAt);
      const current = snapshot.getResponse(api.getTodo, params).data as Todo;
      return { id: params.id, title: `${current.title}!` };
    });
    server.setDelay(SLOW);
    const before = Date.now();
    const first = controller.fetch(exclaim, { id: 1 }, { title: 'write tests!' });
    const second = controller.fetch(exclaim, { id: 1 }, { title: 'write tests!!' });
    expect(plain(getState().entities).Todo?.['1']).toMatchObject({ title: 'write tests!!' });
    expect(getState().optimistic).toHaveLength(2);
    for (const fetchedAt of fetchedAts) {
      expect(fetchedAt).toBeGreaterThanOrEqual(before);
      expect(fetchedAt).toBeLessThanOrEqual(Date.now());
    }

    await Promise.all([first, second]);
    expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(2);
    expect(getState().optimistic).toEqual([]);
    expect(plain(getState().entities).Todo?.['1']).toMatchObject({ title: 'write tests!!' });
  });

  it('create with a placeholder pk that the real one replaces on commit', async () => {
    const { controller, getState } = store;
    const committed = await committedList();
    const committedText = dataOf(committed);
    const create = new Endpoint(
      (_filter: { userId?: number }, body: Partial<TodoRecord>) =>
        requestJson(`${server.url}/todos`, { ...patch(body), method: 'POST' }),
      {
        name: 'optimisticCreate',
        schema: todoList.push,
        sideEffect: true,
        getOptimisticResponse: (_snapshot, _filter, body: Partial<TodoRecord>) => body,
      },
    );
    server.setDelay(SLOW);
    const done = controller.fetch(create, {}, { title: 'brand new', userId: 2 });

    const during = controller.getResponse(api.getTodos, {}, getState()).data!;
    expect(during.map((todo) => todo.title)).toEqual([
      'write tests',
      'fix bugs',
      'ship',
      'brand new',
    ]);
    const placeholder = (plain(getState().entities)['[Todo]']?.['{}'] as string[] | undefined)?.[3];
    expect(placeholder).toMatch(/^optimistic-/);

    const created = await done;
    expect(created.id).toBe(4);
    const state = getState();
    expect(plain(state.entities)['[Todo]']?.['{}']).toEqual(['1', '2', '3', '4']);
    expect(Object.keys(plain(state.entities).Todo ?? {})).toEqual(['1', '2', '3', '4']);
    expect(ids(controller.getResponse(api.getTodos, {}, state).data)).toEqual([1, 2, 3, 4]);
    expect(dataOf(committed)).toBe(committedText);
  });

  it('delete from the view only, and the item comes back when the delete fails', async () => {
    const { controller, getState } = store;
    const committed = await committedList();
    const committedText = dataOf(committed);
    const remove = new Endpoint(
      (params: { id: number }) =>
        requestJson(`${server.url}/todos/${params.id}`, { method: 'DELETE' }),
      {
        name: 'optimisticDelete',
        schema: new schema.Invalidate(Todo),
        sideEffect: true,
        getOptimisticResponse: (_snapshot, params: { id: number }) => params,
      },
    );
    server.setDelay(SLOW);
    server.failNext(503);

    const done = controller.fetch(remove, { id: 2 });
    expect(ids(controller.getResponse(api.getTodos, {}, getState()).data)).toEqual([1, 3]);
    expect(controller.getResponse(api.getTodo, { id: 2 }, getState()).data).toBeUndefined();
    // The committed state still has it.
    expect(plain(committed.entities)['[Todo]']?.['{}']).toEqual(['1', '2', '3']);

    await expect(done).rejects.toMatchObject({ status: 503 });
    expect(ids(controller.getResponse(api.getTodos, {}, getState()).data)).toEqual([1, 2, 3]);
    expect(getState().entities).toBe(committed.entities);
    expect(dataOf(committed)).toBe(committedText);
  });

  it('tell observers every row the view changed, rollbacks included', async () => {
    const { controller, observe } = store;
    await committedList();
    /** Per change: the Todo rows and collection rows the view may show differently after it. */
    const seen: string[][] = [];
    const rowsOf = ({ entities, collections }: ChangeSet) => [
      ...entities.flatMap(({ entity, added, updated, invalidated }) => [
        ...added.map((pk) => `${entity} ${pk}`),
        ...updated.map(({ pk }) => `${entity} ${pk}`),
        ...invalidated.map(({ pk }) => `${entity} ${pk}`),
      ]),
      ...collections.map(({ collection, row }) => `${collection} ${row}`),
    ];
    // The action's own items, and what the optimistic responses shown around it did.
    observe(({ changes }) => {
      const { before, after } = changes.optimistic ?? {};
      seen.push([changes, before, after].flatMap((part) => (part ? rowsOf(part) : [])));
    });
    const update = optimisticPatch();
    server.setDelay(SLOW);
    server.failNext(500);
    const first = controller.fetch(update, { id: 2 }, { title: 'doomed' });
    server.setDelay(SLOW * 2);
    const second = controller.fetch(update, { id: 3 }, { title: 'kept' });
    await expect(first).rejects.toBeInstanceOf(HttpError);
    await second;
    expect(seen.map((rows) => [...new Set(rows)].sort())).toEqual([
      ['Todo 2'], // the first optimistic update
      ['Todo 2', 'Todo 3'], // the second, with the first applied anew
      ['Todo 2', 'Todo 3'], // the first fails: its row rolls back, the second is applied anew
      ['Todo 3'], // the second's answer commits
    ]);
  });

  it("say in the answer's change-set that it settled the optimistic request: committed", async () => {
    const { controller, observe } = store;
    await committedList();
    const records: StoreRecord[] = [];
    observe((record) => records.push(record));
    server.setDelay(SLOW);
    await controller.fetch(optimisticPatch(), { id: 1 }, { title: 'sure' });
    expect(records.map(({ action }) => action.type)).toEqual(['fetch', 'setResponse']);
    expect(records.map(({ changes }) => changes.settled)).toEqual([undefined, 'committed']);
    // An answer to a request that showed nothing settles nothing.
    await controller.fetch(api.getTodo, { id: 1 });
    expect(records.at(-1)?.changes.settled).toBeUndefined();
  });

  it('say that an error settled it by rolling it back, an abort too', async () => {
    const { controller, observe } = store;
    await committedList();
    const settled: (string | undefined)[] = [];
    observe(({ action, changes }) => {
      if (action.type === 'setResponse') settled.push(changes.settled);
    });
    server.setDelay(SLOW);
    server.failNext(500);
    await expect(
      controller.fetch(optimisticPatch(), { id: 2 }, { title: 'doomed' }),
    ).rejects.toBeInstanceOf(HttpError);
    const aborted = new Endpoint(
      (_params: { id: number }) =>
        Promise.reject(new DOMException('the user went away', 'AbortError')),
      {
        name: 'abortedPatch',
        schema: Todo,
        sideEffect: true,
        getOptimisticResponse: (_snapshot, params) => ({ ...params, title: 'gone' }),
      },
    );
    await expect(controller.fetch(aborted, { id: 3 })).rejects.toThrow('the user went away');
    expect(settled).toEqual(['rolled-back', 'rolled-back']);
    expect(store.getState().optimistic).toEqual([]);
  });

  it('say what the optimistic responses shown around an action did to the view', async () => {
    const { controller, observe } = store;
    await committedList();
    /** Per change: the Todo pks its own items name, and its optimistic part's before and after. */
    const seen: { own: string[]; before?: string[]; after?: string[] }[] = [];
    const pks = (changes: ChangeSet | undefined) =>
      changes?.entities.flatMap(({ updated }) => updated.map(({ pk }) => pk));
    observe(({ changes }) => {
      const { optimistic } = changes;
      seen.push({
        own: pks(changes) ?? [],
        ...(optimistic ? { before: pks(optimistic.before), after: pks(optimistic.after) } : {}),
      });
    });
    const update = optimisticPatch();
    server.setDelay(SLOW);
    const first = controller.fetch(update, { id: 2 }, { title: 'first' });
    server.setDelay(SLOW * 2);
    const second = controller.fetch(update, { id: 3 }, { title: 'second' });
    await first;
    await second;
    controller.setResponse(api.getTodo, { id: 1 }, { id: 1, title: 'no optimism', userId: 1 });
    expect(seen).toEqual([
      // The first optimistic fetch: its own response, the only one shown after it.
      { own: ['2'], before: undefined, after: ['2'] },
      // The second: the first taken away and applied again, with its own.
      { own: ['3'], before: ['2'], after: ['2', '3'] },
      // The first's answer (the server's data is what it showed): the second still pending.
      { own: ['2'], before: ['2', '3'], after: ['3'] },
      // The second's answer: nothing pending after it.
      { own: ['3'], before: ['3'], after: undefined },
      // No optimistic response around: no optimistic part.
      { own: ['1'] },
    ]);
  });
});
