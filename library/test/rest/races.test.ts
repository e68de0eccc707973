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

/** A store that has fetched the list, for todos whose mutations are optimistic or not. */
async function storeWithList(optimistic = false) {
  const R = todoResource(optimistic);
  const store = createStore();
  await store.controller.fetch(R.getList, {});
  return { R, store };
}

/** Sends `request` and waits until it reaches the server, which holds its answer until `release`. */
async function sentAndHeld<T>(request: () => Promise<T>) {
  const held = server.holdNext();
  const answer = request();
  await held.arrived;
  return { answer, release: () => held.release() };
}

/** Starts `read`, whose answer the server holds until `write` is answered; what `read` gives. */
async function answeredAfter<T>(read: () => Promise<T>, write: () => Promise<unknown>): Promise<T> {
  const { answer, release } = await sentAndHeld(read);
  await write();
  release();
  return answer;
}

describe.each(clocks)(
  'a delete stays deleted for answers to earlier requests, on $clock',
  ({ freeze }) => {
    it('a list requested before the delete leaves the deleted todo out', async () => {
      freeze();
      const { R, store } = await storeWithList();
      const list = await answeredAfter(
        () => store.controller.fetch(R.getList, {}),
        async () => {
          await store.controller.fetch(R.delete, { id: 2 });
          expectDeleted(store, R);
        },
      );
      // What the request resolves to is the answer as the server sent it.
      expect(ids(list)).toEqual([1, 2, 3, 4]);

      expectDeleted(store, R);
      // The other todos of the answer are stored as usual.
      expect(row(store.getState(), '3')).toEqual(FOUR_TODOS[2]);
    });

    it('a list first requested before the delete makes no row holding the deleted todo', async () => {
      freeze();
      const R = todoResource();
      const store = createStore();
      await store.controller.fetch(R.get, { id: 2 });
      await answeredAfter(
        () => store.controller.fetch(R.getList, {}),
        () => store.controller.fetch(R.delete, { id: 2 }),
      );
      expectDeleted(store, R);
    });

    it('a get requested before the delete reads as deleted, and suspends', async () => {
      freeze();
      const { R, store } = await storeWithList();
      const one = await answeredAfter(
        () => store.controller.fetch(R.get, { id: 2 }),
        () => store.controller.fetch(R.delete, { id: 2 }),
      );
      expect(one).toMatchObject({ id: 2, title: 'fix bugs' });
      expectDeleted(store, R);
    });

    it('an optimistic delete, answered before the list, keeps the todo out of it', async () => {
      freeze();
      const { R, store } = await storeWithList(true);
      await answeredAfter(
        () => store.controller.fetch(R.getList, {}),
        () => store.controller.fetch(R.delete, { id: 2 }),
      );
      expectDeleted(store, R);
    });

    it('an optimistic delete still pending when the list answers keeps the todo out of it', async () => {
      freeze();
      const { R, store } = await storeWithList(true);
      const list = await sentAndHeld(() => store.controller.fetch(R.getList, {}));
      const remove = await sentAndHeld(() => store.controller.fetch(R.delete, { id: 2 }));
      expectDeleted(store, R);

      list.release();
      await list.answer;
      expectDeleted(store, R);
      remove.release();
      await remove.answer;
      expectDeleted(store, R);
      expect(store.getState().optimistic).toEqual([]);
    });

    it('a delete named inside a response (a nested schema.Invalidate) keeps the todo out', async () => {
      freeze();
      const { R, store } = await storeWithList();
      // `POST /echo` answers the body it was sent: `{ removed: { id: 2 } }`.
      const archive = new RestEndpoint({
        urlPrefix: server.url,
        path: '/echo',
        method: 'POST',
        body: {} as { removed: { id: number } },
        schema: { removed: new schema.Invalidate(Todo) },
      });
      await answeredAfter(
        () => store.controller.fetch(R.getList, {}),
        async () => {
          await store.controller.fetch(archive, { removed: { id: 2 } });
          expectDeleted(store, R);
        },
      );
      expectDeleted(store, R);
    });
  },
);

describe.each(clocks)(
  'a request sent after the delete brings the entity back, on $clock',
  ({ freeze }) => {
    it('when the server made the todo again', async () => {
      freeze();
      const { R, store } = await storeWithList();
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
      const { R, store } = await storeWithList();
      await store.controller.fetch(R.delete, { id: 2 });

      await store.controller.setResponse(R.get, { id: 2 }, { id: 2, title: 'restored' });
      expect(readOne(store, R, 2)).toMatchObject({
        data: { id: 2, title: 'restored' },
        expiryStatus: ExpiryStatus.Valid,
      });
    });
  },
);

describe('a list written while a read of it is in flight, in the same millisecond', () => {
  const written = [{ id: 1, title: 'written', completed: false, userId: 1 }];

  it('stays: the read was requested before it was written', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const { R, store } = await storeWithList();
    const read = await sentAndHeld(() => store.controller.fetch(R.getList, {}));
    store.controller.setResponse(R.getList, {}, written);
    read.release();
    expect(ids(await read.answer)).toEqual([1, 2, 3, 4]);
    expect(ids(store.controller.getResponse(R.getList, {}, store.getState()).data)).toEqual([1]);
  });

  it('stays for a result of no schema, which only the order of requests protects', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const store = createStore();
    const todo = new RestEndpoint({ urlPrefix: server.url, path: '/todos/:id' });
    const read = await sentAndHeld(() => store.controller.fetch(todo, { id: 1 }));
    store.controller.setResponse(todo, { id: 1 }, { id: 1, title: 'written' });
    read.release();
    expect(await read.answer).toMatchObject({ title: 'write tests' });
    expect(store.controller.getResponse(todo, { id: 1 }, store.getState()).data).toEqual({
      id: 1,
      title: 'written',
    });
  });

  it('stays when the read fails, and shows no error', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const { R, store } = await storeWithList();
    server.failNext(500);
    const read = await sentAndHeld(() => store.controller.fetch(R.getList, {}));
    store.controller.setResponse(R.getList, {}, written);
    read.release();
    await expect(read.answer).rejects.toMatchObject({ status: 500 });
    const state = store.getState();
    expect(state.meta.get(R.getList.key({}))?.error).toBeUndefined();
    expect(ids(store.controller.getResponse(R.getList, {}, state).data)).toEqual([1]);
  });
});

describe('concurrent optimistic updates of one todo, started in one millisecond', () => {
  /** The title the store shows for a todo now (committed data plus pending updates). */
  const titleShown = (store: ReturnType<typeof createStore>) =>
    store.controller.get(Todo, { id: 1 }, store.getState())?.title;
  /** An optimistic partial update of todo 1's title. */
  const update = (
    store: ReturnType<typeof createStore>,
    R: ReturnType<typeof todoResource>,
    title: string,
  ) => store.controller.fetch(R.partialUpdate, { id: 1 }, { title });

  it('the first failing leaves the second’s value shown until its own answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const R = todoResource(true);
    const store = createStore();
    await store.controller.fetch(R.get, { id: 1 });
    server.failNext(500);
    const first = await sentAndHeld(() => update(store, R, 'first'));
    const second = await sentAndHeld(() => update(store, R, 'second'));
    expect(titleShown(store)).toBe('second');

    first.release();
    await expect(first.answer).rejects.toMatchObject({ status: 500 });
    expect(titleShown(store)).toBe('second');
    expect(store.getState().optimistic).toHaveLength(1);

    second.release();
    await second.answer;
    expect(titleShown(store)).toBe('second');
    expect(store.getState().optimistic).toEqual([]);
  });

  it('answers arriving in reverse order leave the later update’s value, shown and stored', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const R = todoResource(true);
    const store = createStore();
    await store.controller.fetch(R.get, { id: 1 });
    const first = await sentAndHeld(() => update(store, R, 'first'));
    const second = await sentAndHeld(() => update(store, R, 'second'));

    second.release();
    await second.answer;
    // The first update, still pending, was sent before the answer now stored: it shows nothing.
    expect(titleShown(store)).toBe('second');
    first.release();
    await first.answer;
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
