/**
 * The scale benchmark's page: a store filled with seeded todos, the devtools bridge, and the
 * writes the runner asks for (see protocol.ts).
 */
import { connectDevtools } from '../../../library/src/devtools/index.js';
import { createResource, createStore, type Store } from '../../../library/src/index.js';
import { endpoint, Todo, todoCollection, User } from '../contenders/ours.js';
import { makeTodos, type TodoData } from '../data.js';
import { makePks, type Pk } from '../pks.js';
import { seededRandom } from '../random.js';
import {
  BIG_COLLECTION,
  COLLECTIONS,
  type MixedWrites,
  type PageWatch,
  QUIET_MS,
  type ScaleApi,
} from './protocol.js';

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

/** The app's resource, for the mixed writes (`seedApp`). */
const R = createResource({ path: '/users/:userId/todos/:id', schema: Todo });
/** New todos made with the app's seed, for the pushes of the mixed writes (400 a round). */
const APP_NEW_TODOS = 10_000;
/** The seed of the lists' owners' ids (sparse, as a large service's accounts are numbered). */
const OWNERS_SEED = 0x05e2;

/**
 * What the app's server holds, as the page's writes change it: the todos stored now (each with
 * its list's owner), so that an update or a delete names a stored todo.
 */
const app = {
  owners: [] as number[],
  stored: [] as TodoData[],
  ownerOf: new Map<Pk, number>(),
  positionOf: new Map<Pk, number>(),
  newTodos: [] as TodoData[],
  pushed: 0,
  /** The store's changes since the bridge connected: the seq of the last event. */
  changes: 0,
  plan: [] as (() => void)[],
  writesEnd: -1,
};

function storeTodo(todo: TodoData, owner: number) {
  app.positionOf.set(todo.id, app.stored.length);
  app.stored.push(todo);
  app.ownerOf.set(todo.id, owner);
}

function dropTodo(todo: TodoData) {
  const position = app.positionOf.get(todo.id) as number;
  const last = app.stored.pop() as TodoData;
  if (last !== todo) {
    app.stored[position] = last;
    app.positionOf.set(last.id, position);
  }
  app.positionOf.delete(todo.id);
  app.ownerOf.delete(todo.id);
}

/** A todo as a response brings it: objects of its own, as after `JSON.parse`. */
const asResponse = (todo: TodoData): TodoData => ({ ...todo, author: { ...todo.author } });

let longestTask = 0;
let snapshotChars = 0;
let listChars = 0;
let posted: Record<string, number> = {};
let lastPost = -1;
let lastEventsPost = -1;

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
}).observe({ type: 'longtask' });
/** Counts one message the store posted (its greeting on the window, the rest on its port). */
function noteStoreMessage(event: MessageEvent) {
  const data = event.data as { tag?: unknown; source?: unknown; kind?: string; data?: unknown };
  if (data?.tag !== 'restlens' || data.source !== 'page' || data.kind === undefined) return;
  posted[data.kind] = (posted[data.kind] ?? 0) + 1;
  if (typeof data.data === 'string') {
    if (data.kind === 'snapshot') snapshotChars += data.data.length;
    if (data.kind === 'members') listChars += data.data.length;
  }
  lastPost = performance.now();
  if (data.kind === 'events') lastEventsPost = lastPost;
}
window.addEventListener('message', (event) => {
  noteStoreMessage(event);
  // A store's greeting hands over the port it posts on: the page listens there too.
  const port = event.ports[0];
  if (port === undefined) return;
  port.addEventListener('message', noteStoreMessage);
  port.start();
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
  seedApp(size, lists) {
    const ms = timed(() => {
      store = createStore();
      connectDevtools(store);
      const all = makeTodos(size);
      app.newTodos = makeTodos(APP_NEW_TODOS, size);
      app.owners = makePks('sparse', lists, OWNERS_SEED);
      const { controller } = store;
      // One list of a tenth of the todos, the others sharing the rest evenly.
      const big = Math.round(size / 10);
      const rest = size - big;
      app.owners.forEach((owner, list) => {
        const members =
          list === 0
            ? all.slice(0, big)
            : all.slice(
                big + Math.floor(((list - 1) * rest) / (lists - 1)),
                big + Math.floor((list * rest) / (lists - 1)),
              );
        for (const todo of members) storeTodo(todo, owner);
        controller.setResponse(R.getList, { userId: owner }, members.map(asResponse));
        app.changes++;
      });
    });
    return { ms, lastSeq: app.changes };
  },
  planMixed(count, seed) {
    const { controller } = theStore();
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    const pushes = Math.round(count * 0.4);
    const updates = Math.round(count * 0.4);
    const kinds: ('push' | 'update' | 'delete')[] = [
      ...Array(pushes).fill('push'),
      ...Array(updates).fill('update'),
      ...Array(count - pushes - updates).fill('delete'),
    ];
    // Fisher–Yates: the order an app's responses come in.
    for (let index = kinds.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [kinds[index], kinds[other]] = [kinds[other]!, kinds[index]!];
    }
    // Named, for CPU profiles.
    app.plan = kinds.map((kind) => {
      if (kind === 'push') {
        const todo = app.newTodos[app.pushed++];
        if (!todo) throw new Error('no new todos left: make more with the seed');
        const userId = pick(app.owners);
        storeTodo(todo, userId);
        const body = { title: todo.title, completed: todo.completed };
        const response = asResponse(todo);
        return function pushTodo() {
          controller.setResponse(R.getList.push, { userId }, body, response);
        };
      }
      const todo = pick(app.stored);
      const params = { userId: app.ownerOf.get(todo.id) as number, id: todo.id };
      if (kind === 'delete') {
        dropTodo(todo);
        const response = { id: todo.id };
        return function deleteTodo() {
          controller.setResponse(R.delete, params, response);
        };
      }
      // A PATCH of `completed`, answered with the whole todo.
      const changed = { ...todo, completed: !todo.completed };
      app.stored[app.positionOf.get(todo.id) as number] = changed;
      const body = { completed: changed.completed };
      const response = asResponse(changed);
      return function updateTodo() {
        controller.setResponse(R.partialUpdate, params, body, response);
      };
    });
    return { pushes, updates, deletes: count - pushes - updates, lastSeq: app.changes + count };
  },
  mixedWrites(): MixedWrites {
    const writes = app.plan;
    app.plan = [];
    const start = performance.now();
    for (const write of writes) write();
    const end = performance.now();
    app.writesEnd = end;
    app.changes += writes.length;
    return { wallMs: end - start, endedAt: performance.timeOrigin + end, lastSeq: app.changes };
  },
  async settle() {
    const quiet = () => performance.now() - Math.max(lastPost, app.writesEnd);
    while (quiet() < QUIET_MS)
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS - quiet() + 1));
    return {
      eventsPostedAt:
        lastEventsPost > app.writesEnd ? performance.timeOrigin + lastEventsPost : undefined,
    };
  },
  now: () => performance.timeOrigin + performance.now(),
};
window.__SCALE__ = api;
