/**
 * The scale benchmark's page: a store filled with seeded todos, the devtools bridge, and the
 * writes the runner asks for (see protocol.ts).
 */
import { connectDevtools } from '../../../library/src/devtools/index.js';
import { createStore, type Store } from '../../../library/src/index.js';
import { endpoint, Todo, todoCollection, User } from '../contenders/ours.js';
import { makeTodos, type TodoData } from '../data.js';
import { BIG_COLLECTION, COLLECTIONS, type PageWatch, type ScaleApi } from './protocol.js';

const getList = endpoint('getList', todoCollection);
const create = endpoint('create', todoCollection.push, true);
const update = endpoint('update', Todo, true);
const saveUser = endpoint('saveUser', User, true);
/** The small table: the todos' authors (written with ids of their own, not the todos'). */
const USERS = 20;
/** New todos made with the seed, for the pushes (a fifth of the writes) of a run. */
const NEW_TODOS = 40_000;

let store: Store | undefined;
let todos: TodoData[] = [];
let newTodos: TodoData[] = [];
let written = 0;

const theStore = (): Store => {
  if (!store) throw new Error('seed the page first');
  return store;
};

/** The next update of a stored todo (a new title), or every fifth write a new todo in a list. */
function write(target: Store) {
  written++;
  if (written % 5 === 0) {
    const todo = newTodos[(written / 5) % NEW_TODOS];
    target.controller.setResponse(create, { list: written % COLLECTIONS }, todo);
    return;
  }
  const todo = todos[(written * 7919) % todos.length] as TodoData;
  target.controller.setResponse(update, { id: todo.id }, { ...todo, title: `edit ${written}` });
}

let longestTask = 0;
let snapshotChars = 0;
let listChars = 0;
let posted: Record<string, number> = {};
let lastPost = -1;

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
}).observe({ type: 'longtask' });
window.addEventListener('message', (event) => {
  const data = event.data as { tag?: unknown; source?: unknown; kind?: string; data?: unknown };
  if (data?.tag !== 'restlens' || data.source !== 'page' || data.kind === undefined) return;
  posted[data.kind] = (posted[data.kind] ?? 0) + 1;
  if (typeof data.data === 'string') {
    if (data.kind === 'snapshot') snapshotChars += data.data.length;
    if (data.kind === 'members') listChars += data.data.length;
  }
  lastPost = performance.now();
});

const timed = (work: () => void) => {
  const start = performance.now();
  work();
  return performance.now() - start;
};

const api: ScaleApi = {
  seed(size, ringSize) {
    return timed(() => {
      store = createStore();
      connectDevtools(store, { ringSize, name: 'scale' });
      todos = makeTodos(size);
      newTodos = makeTodos(NEW_TODOS, size);
      const { controller } = store;
      controller.setResponse(getList, { list: 0 }, todos.slice(0, BIG_COLLECTION));
      // The other lists share the todos out among them.
      const per = Math.ceil(size / (COLLECTIONS - 1));
      for (let list = 1; list < COLLECTIONS; list++)
        controller.setResponse(getList, { list }, todos.slice((list - 1) * per, list * per));
    });
  },
  updates(count) {
    const target = theStore();
    return timed(() => {
      for (let n = 0; n < count; n++) write(target);
    });
  },
  async burst(count, spreadMs) {
    const target = theStore();
    // A round of writes every 10 ms, each at its time (as responses arrive), whatever the last took.
    const every = 10;
    const rounds = Math.max(1, Math.round(spreadMs / every));
    const start = performance.now();
    for (let round = 0, done = 0; round < rounds; round++) {
      const wait = start + round * every - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      for (const end = Math.round(((round + 1) * count) / rounds); done < end; done++)
        write(target);
    }
    const writesMs = performance.now() - start;
    // What the devtools post after the last write (a batch every 50 ms) is part of their cost.
    while (lastPost >= 0 && performance.now() - lastPost < 120)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return writesMs;
  },
  smallWrites(count) {
    const target = theStore();
    return timed(() => {
      for (let n = 0; n < count; n++)
        target.controller.setResponse(
          saveUser,
          { id: n % USERS },
          { id: n % USERS, name: `user ${n}` },
        );
    });
  },
  watch() {
    longestTask = 0;
    snapshotChars = 0;
    listChars = 0;
    posted = {};
    lastPost = -1;
  },
  watched(): PageWatch {
    return {
      longestTaskMs: longestTask,
      snapshotChars,
      listChars,
      posted,
      quietMs: lastPost < 0 ? -1 : performance.now() - lastPost,
    };
  },
  somePk: () => `${todos[Math.floor(todos.length / 2)]?.id}`,
};
window.__SCALE__ = api;
