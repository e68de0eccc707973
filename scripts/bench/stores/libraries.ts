/**
 * The stores of the app-shaped suite, each library through its public API: a resource
 * `createResource({ path: '/users/:userId/todos/:id', schema: Todo })`, one `R.getList` per user,
 * every write one `controller.setResponse` as a response lands, every read
 * `controller.getResponse`. The `Todo` and `User` entities are the core suite's (contenders/).
 */
import { createResource as createReferenceResource } from '@data-client/rest';
import { connectDevtools } from '../../../library/src/devtools/index.js';
import { createResource, createStore, type Store } from '../../../library/src/index.js';
import { Todo } from '../contenders/ours.js';
import { createReferenceStore, Todo as ReferenceTodo } from '../contenders/reference.js';
import type { TodoData } from '../data.js';
import { keepAsTheRingDoes } from '../keptRing.js';
import { pageWithoutPanel } from '../pageWindow.js';
import type { Pk } from '../pks.js';
import { type Push, pushOf, type UserList } from './fixture.js';

const PATH = '/users/:userId/todos/:id';

/** A store as an app drives it, with the writes the suite measures. */
export interface AppStore {
  /** `R.getList.push` with `{ userId }`: the new todo posted, and as the server answers it. */
  push(push: Push): void;
  /** `R.partialUpdate` of a stored todo, answered with it, `completed` flipped. */
  partialUpdate(response: TodoData): void;
  /** `R.delete` of a stored todo, answered with `{ id }`. */
  delete(todo: TodoData): void;
  /** The user's list as a component reads it: each todo's id and `completed`. */
  readList(userId: number): ListView | undefined;
  /** Undoes `push` into `list` (see each library). */
  undoPush(push: Push, list: UserList): void;
  /** Undoes the delete of `todo` from `list` (see each library). */
  restoreDeleted(todo: TodoData, list: UserList): void;
}

/** What the suite's checks compare of a list (the same for every library). */
export type ListView = { id: Pk; completed: boolean }[];

export interface AppLibrary {
  readonly name: string;
  /**
   * A store that fetched every list, one `setResponse` each, as an app's lists land: whatever
   * is attached to the store (the devtools bridge) sees them land.
   */
  seededStore(lists: readonly UserList[]): AppStore;
}

function listView(data: unknown): ListView | undefined {
  if (!Array.isArray(data)) return undefined;
  return data.map(({ id, completed }: { id: Pk; completed: boolean }) => ({ id, completed }));
}

/** A store that can be given a list as `R.getList` answers it. */
interface Seedable {
  setList(userId: number, todos: TodoData[]): void;
}

/** `store` once every list has landed in it. */
function seeded<S extends Seedable>(store: S, lists: readonly UserList[]): S {
  for (const { userId, todos } of lists) store.setList(userId, todos);
  return store;
}

// ─── ours ────────────────────────────────────────────────────────────────────────────────────────

const TodoResource = createResource({ path: PATH, schema: Todo });

/** Our store with `attach` run on it first (the devtools bridge, say). */
function oursStore(attach?: (store: Store) => void) {
  const store = createStore();
  attach?.(store);
  const { controller } = store;
  return {
    setList: (userId: number, todos: TodoData[]) =>
      controller.setResponse(TodoResource.getList, { userId }, todos),
    push: ({ userId, body, todo }: Push) =>
      controller.setResponse(TodoResource.getList.push, { userId }, body, todo),
    partialUpdate: (response: TodoData) =>
      controller.setResponse(
        TodoResource.partialUpdate,
        { userId: response.userId, id: response.id },
        { completed: response.completed },
        response,
      ),
    delete: (todo: TodoData) =>
      controller.setResponse(
        TodoResource.delete,
        { userId: todo.userId, id: todo.id },
        { id: todo.id },
      ),
    readList: (userId: number) =>
      listView(controller.getResponse(TodoResource.getList, { userId }, store.getState()).data),
  };
}

/**
 * Our store as the suite drives it: one write undoes another. A push is undone by deleting the
 * pushed todo, and a delete by pushing the todo back (our delete removes it from its lists, so
 * the list gets it again, at its end). Not by fetching the list again: at 100k a list holds up
 * to 10k todos, and such refetches between samples took most of the budget and left the
 * collector old garbage that it then gathered inside the timed writes.
 */
function oursAppStore(attach?: (store: Store) => void): AppStore & Seedable {
  const store = oursStore(attach);
  return {
    ...store,
    undoPush: ({ todo }) => store.delete(todo),
    restoreDeleted: (todo) => store.push(pushOf(todo)),
  };
}

function oursLibrary(name: string, attach?: (store: Store) => void): AppLibrary {
  return { name, seededStore: (lists) => seeded(oursAppStore(attach), lists) };
}

/** Our library, a plain store. */
export const ours = oursLibrary('ours');

/** Our library keeping each change as the bridge's ring does, and nothing else (keptRing.ts). */
export const oursKeepingOnly = oursLibrary('ours + changes kept', keepAsTheRingDoes);

/** Our library with the devtools bridge connected to each store and no panel open. */
export const oursWithBridge = oursLibrary('ours + bridge', (store) => {
  connectDevtools(store, { window: pageWithoutPanel });
});

// ─── reference: @data-client/rest 0.9.9 ────────────────────────────────────────────────────────────

const ReferenceResource = createReferenceResource({ path: PATH, schema: ReferenceTodo });

function referenceStore() {
  const { controller, getState } = createReferenceStore();
  return {
    setList: (userId: number, todos: TodoData[]) =>
      void controller.setResponse(ReferenceResource.getList, { userId }, todos),
    push: ({ userId, body, todo }: Push) =>
      void controller.setResponse(ReferenceResource.getList.push, { userId }, body, todo),
    partialUpdate: (response: TodoData) =>
      void controller.setResponse(
        ReferenceResource.partialUpdate,
        { userId: response.userId, id: response.id },
        { completed: response.completed },
        response,
      ),
    delete: (todo: TodoData) =>
      void controller.setResponse(
        ReferenceResource.delete,
        { userId: todo.userId, id: todo.id },
        { id: todo.id },
      ),
    readList: (userId: number) =>
      listView(controller.getResponse(ReferenceResource.getList, { userId }, getState()).data),
  };
}

/**
 * The reference's store as the suite drives it. data-client keeps a deleted todo's pk in its
 * lists (hidden while the todo is invalid): deleting a pushed todo, or pushing a deleted one
 * back, would leave the list otherwise than seeded, so its list is fetched again. Its samples
 * take a few writes each (a write copies its tables), so these refetches stay few.
 */
function referenceAppStore(): AppStore & Seedable {
  const store = referenceStore();
  const refetchList = ({ userId, todos }: UserList) => store.setList(userId, todos);
  return {
    ...store,
    undoPush: (_push, list) => refetchList(list),
    restoreDeleted: (_todo, list) => refetchList(list),
  };
}

/** @data-client/rest 0.9.9's createResource on Controller + createReducer (contenders/reference). */
export const reference: AppLibrary = {
  name: 'reference',
  seededStore: (lists) => seeded(referenceAppStore(), lists),
};
