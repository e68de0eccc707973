import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createResource,
  createStore,
  ExpiryStatus,
  RestEndpoint,
  type State,
  schema,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, ids, invalidated, row, rows, Todo, type TodoBody } from './support.js';

/**
 * Answers that cross: a response to a request sent before a write was stored arrives after it.
 * The server answers each held request from its data as it was when the request arrived
 * (`holdNext`), as a slow network delivers an answer the server made before a later change.
 */

const server = serverPerTest({ todos: FOUR_TODOS });

function todoResource(optimistic = false) {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    searchParams: {} as { userId?: number },
    body: {} as TodoBody,
    optimistic,
  });
}

/**
 * Runs a test on the clock as it runs, and on a clock standing still: every request and answer
 * in one millisecond, where only the order they happened in tells them apart.
 */
const clocks = [
  { clock: 'a running clock', freeze: () => {} },
  {
    clock: 'a clock standing still (one millisecond)',
    freeze: () => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() }),
  },
];
afterEach(() => {
  vi.useRealTimers();
});

/** How `get({ id })` reads: the data and whether it must be fetched (and suspend). */
function readOne(
  store: ReturnType<typeof createStore>,
  R: ReturnType<typeof todoResource>,
  id: number,
) {
  const { data, expiryStatus } = store.controller.getResponse(R.get, { id }, store.getState());
  return { data, expiryStatus };
}

/** Todo 2 as a delete leaves it: INVALID, in no list, read as deleted. */
function expectDeleted(
  store: ReturnType<typeof createStore>,
  R: ReturnType<typeof todoResource>,
  state: State = store.getState(),
) {
  expect(invalidated(state, '2')).toBe(true);
  expect(rows(state)).toEqual({ '{}': ['1', '3', '4'] });
  expect(state.rowsHolding.get('Todo')?.get('2')).toBeUndefined();
  expect(ids(store.controller.getResponse(R.getList, {}, state).data)).toEqual([1, 3, 4]);
  expect(store.controller.get(Todo, { id: 2 }, state)).toBeUndefined();
  expect(readOne(store, R, 2)).toEqual({ data: undefined, expiryStatus: ExpiryStatus.Invalid });
}

describe.each(clocks)(
  'a delete stays deleted for answers to earlier requests, on $clock',
  ({ freeze }) => {
    it('a list requested before the delete leaves the deleted todo out', async () => {
      freeze();
      const R = todoResource();
      const store = createStore();
      await store.controller.fetch(R.getList, {});
      const held = server.holdNext();
      const list = store.controller.fetch(R.getList, {});
      await held.arrived;

      await store.controller.fetch(R.delete, { id: 2 });
      expectDeleted(store, R);
      held.release();
      // What the request resolves to is the answer as the server sent it.
      expect(ids(await list)).toEqual([1, 2, 3, 4]);

      expectDeleted(store, R);
      // The other todos of the answer are stored as usual.
      expect(row(store.getState(), '3')).toEqual(FOUR_TODOS[2]);
    });

    it('a list first requested before the delete makes no row holding the deleted todo', async () => {
      freeze();
      const R = todoResource();
      const store = createStore();
      await store.controller.fetch(R.get, { id: 2 });
      const held = server.holdNext();
      const list = store.controller.fetch(R.getList, {});
      await held.arrived;
      await store.controller.fetch(R.delete, { id: 2 });
      held.release();
      await list;
      expectDeleted(store, R);
    });

    it('a get requested before the delete reads as deleted, and suspends', async () => {
      freeze();
      const R = todoResource();
      const store = createStore();
      await store.controller.fetch(R.getList, {});
      const held = server.holdNext();
      const one = store.controller.fetch(R.get, { id: 2 });
      await held.arrived;
      await store.controller.fetch(R.delete, { id: 2 });
      held.release();
      expect(await one).toMatchObject({ id: 2, title: 'fix bugs' });
      expectDeleted(store, R);
    });

    it('an optimistic delete, answered before the list, keeps the todo out of it', async () => {
      freeze();
      const R = todoResource(true);
      const store = createStore();
      await store.controller.fetch(R.getList, {});
      const held = server.holdNext();
      const list = store.controller.fetch(R.getList, {});
      await held.arrived;
      await store.controller.fetch(R.delete, { id: 2 });
      held.release();
      await list;
      expectDeleted(store, R);
    });

    it('an optimistic delete still pending when the list answers keeps the todo out of it', async () => {
      freeze();
      const R = todoResource(true);
      const store = createStore();
      await store.controller.fetch(R.getList, {});
      const heldList = server.holdNext();
      const list = store.controller.fetch(R.getList, {});
      await heldList.arrived;
      const heldDelete = server.holdNext();
      const remove = store.controller.fetch(R.delete, { id: 2 });
      await heldDelete.arrived;
      expectDeleted(store, R);

      heldList.release();
      await list;
      expectDeleted(store, R);
      heldDelete.release();
      await remove;
      expectDeleted(store, R);
      expect(store.getState().optimistic).toEqual([]);
    });

    it('a delete named inside a response (a nested schema.Invalidate) keeps the todo out', async () => {
      freeze();
      const R = todoResource();
      // `POST /echo` answers the body it was sent: `{ removed: { id: 2 } }`.
      const archive = new RestEndpoint({
        urlPrefix: server.url,
        path: '/echo',
        method: 'POST',
        body: {} as { removed: { id: number } },
        schema: { removed: new schema.Invalidate(Todo) },
      });
      const store = createStore();
      await store.controller.fetch(R.getList, {});
      const held = server.holdNext();
      const list = store.controller.fetch(R.getList, {});
      await held.arrived;
      await store.controller.fetch(archive, { removed: { id: 2 } });
      expectDeleted(store, R);
      held.release();
      await list;
      expectDeleted(store, R);
    });
  },
);

describe.each(clocks)(
  'a request sent after the delete brings the entity back, on $clock',
  ({ freeze }) => {
    it('when the server made the todo again', async () => {
      freeze();
      const R = todoResource();
      const store = createStore();
      await store.controller.fetch(R.getList, {});
      await store.controller.fetch(R.delete, { id: 2 });
      server.todos.splice(1, 0, { id: 2, title: 'fix bugs again', completed: false, userId: 1 });

      await store.controller.fetch(R.getList, {});
      const state = store.getState();
      expect(row(state, '2')).toMatchObject({ title: 'fix bugs again' });
      expect(rows(state)).toEqual({ '{}': ['1', '2', '3', '4'] });
      expect(readOne(store, R, 2).data).toMatchObject({ id: 2, title: 'fix bugs again' });
    });

    it('in a store made from the state the delete was stored in', async () => {
      freeze();
      const R = todoResource();
      const first = createStore();
      await first.controller.fetch(R.getList, {});
      await first.controller.fetch(R.delete, { id: 2 });
      server.todos.splice(1, 0, { id: 2, title: 'fix bugs again', completed: false, userId: 1 });

      // Its requests are numbered after everything the state it started from holds.
      const second = createStore({ initialState: first.getState() });
      await second.controller.fetch(R.get, { id: 2 });
      expect(readOne(second, R, 2).data).toMatchObject({ id: 2, title: 'fix bugs again' });
    });

    it('setResponse, whose request is the moment it is written', async () => {
      freeze();
      const R = todoResource();
      const store = createStore();
      await store.controller.fetch(R.getList, {});
      await store.controller.fetch(R.delete, { id: 2 });

      await store.controller.setResponse(R.get, { id: 2 }, { id: 2, title: 'restored' });
      expect(readOne(store, R, 2)).toMatchObject({
        data: { id: 2, title: 'restored' },
        expiryStatus: ExpiryStatus.Valid,
      });
    });
  },
);

describe('concurrent optimistic updates of one todo, started in one millisecond', () => {
  /** The title the store shows for a todo now (committed data plus pending updates). */
  const titleShown = (store: ReturnType<typeof createStore>) =>
    store.controller.get(Todo, { id: 1 }, store.getState())?.title;

  it('the first failing leaves the second’s value shown until its own answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const R = todoResource(true);
    const store = createStore();
    await store.controller.fetch(R.get, { id: 1 });
    const heldFirst = server.holdNext();
    server.failNext(500);
    const first = store.controller.fetch(R.partialUpdate, { id: 1 }, { title: 'first' });
    await heldFirst.arrived;
    const heldSecond = server.holdNext();
    const second = store.controller.fetch(R.partialUpdate, { id: 1 }, { title: 'second' });
    await heldSecond.arrived;
    expect(titleShown(store)).toBe('second');

    heldFirst.release();
    await expect(first).rejects.toMatchObject({ status: 500 });
    expect(titleShown(store)).toBe('second');
    expect(store.getState().optimistic).toHaveLength(1);

    heldSecond.release();
    await second;
    expect(titleShown(store)).toBe('second');
    expect(store.getState().optimistic).toEqual([]);
  });

  it('answers arriving in reverse order leave the later update’s value, shown and stored', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const R = todoResource(true);
    const store = createStore();
    await store.controller.fetch(R.get, { id: 1 });
    const heldFirst = server.holdNext();
    const first = store.controller.fetch(R.partialUpdate, { id: 1 }, { title: 'first' });
    await heldFirst.arrived;
    const heldSecond = server.holdNext();
    const second = store.controller.fetch(R.partialUpdate, { id: 1 }, { title: 'second' });
    await heldSecond.arrived;

    heldSecond.release();
    await second;
    // The first update, still pending, was sent before the answer now stored: it shows nothing.
    expect(titleShown(store)).toBe('second');
    heldFirst.release();
    await first;
    expect(titleShown(store)).toBe('second');
    expect(row(store.getState(), '1')).toMatchObject({ title: 'second' });
  });

  it('three pushes in one handler: the first answering leaves the other two in the list', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const R = todoResource(true);
    const store = createStore();
    await store.controller.fetch(R.getList, {});
    const holds = [server.holdNext(), server.holdNext(), server.holdNext()];
    const titles = ['one', 'two', 'three'];
    const pushes = titles.map((title) =>
      store.controller.fetch(R.getList.push, {}, { title, userId: 1 }),
    );
    const titlesListed = () =>
      store.controller
        .getResponse(R.getList, {}, store.getState())
        .data?.map((todo) => todo.title)
        .slice(4);
    expect(titlesListed()).toEqual(titles);
    // Requests may reach the server in any order: release each push's answer by its body.
    const arrived = await Promise.all(holds.map((held) => held.arrived));
    const holdOf = (title: string) =>
      holds[arrived.findIndex((request) => JSON.parse(request.body).title === title)]!;

    holdOf('one').release();
    await pushes[0];
    expect(titlesListed()).toEqual(titles);
    expect(store.getState().optimistic).toHaveLength(2);

    holdOf('two').release();
    holdOf('three').release();
    await Promise.all(pushes);
    expect(titlesListed()).toEqual(titles);
    expect(store.getState().optimistic).toEqual([]);
  });
});
