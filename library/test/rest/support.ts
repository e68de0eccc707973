import { createResource, Entity, isInvalid, type State } from '../../src/index.js';
import { PersistentMap } from '../../src/normalize/persistentMap.js';
import { plain } from '../fixtures.js';
import type { RecordedRequest, TestServer, TodoRecord } from '../helpers/server.js';

/** Shared entities and helpers of the REST layer tests (this file holds no tests). */

export class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  userId = 0;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

/** A user whose pk is the numeric id. */
export class User extends Entity {
  id = 0;
  username = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

/** A user whose pk is the username: a string pk. */
export class Member extends Entity {
  id = 0;
  username = '';
  name = '';
  pk() {
    return this.username;
  }
  static override key = 'Member';
}

/** The body a todo is created or replaced with. */
export type TodoBody = Partial<Omit<TodoRecord, 'id'>>;

/** The query parameters of `GET /todos` that the REST tests send (see `startServer`). */
export type TodoSearch = {
  userId?: number;
  orderBy?: string;
  sortBy?: string;
  per_page?: number;
  limit?: number;
};

/** The resource most REST tests use: `/todos/:id` of the test server, paginated by `page`. */
export function todoResource(urlPrefix: string) {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix,
    searchParams: {} as TodoSearch,
    body: {} as TodoBody,
    paginationField: 'page',
  });
}

/** `"METHOD /path?query"` of each request received from index `from` on. */
export function received(server: TestServer, from = 0): string[] {
  return server.requests.slice(from).map((request) => `${request.method} ${request.url}`);
}

/** The JSON body of a request (undefined when it had none). */
export function jsonBody(request: RecordedRequest | undefined): unknown {
  if (request === undefined) throw new Error('no request was received');
  return request.body === '' ? undefined : JSON.parse(request.body);
}

/** The last request the server received. */
export function lastRequest(server: TestServer): RecordedRequest {
  const request = server.requests.at(-1);
  if (request === undefined) throw new Error('the server received no request');
  return request;
}

/** The member pks of every stored row of a collection table, by row. */
export function rows(state: State, key = '[Todo]'): Record<string, unknown> {
  return plain(state.entities.get(key) ?? PersistentMap.empty());
}

/** The stored row of one entity (undefined when absent). */
export function row(state: State, pk: string, key = 'Todo'): unknown {
  return state.entities.get(key)?.get(pk);
}

/** Whether the table holds the INVALID marker for this pk. */
export function invalidated(state: State, pk: string, key = 'Todo'): boolean {
  return isInvalid(row(state, pk, key));
}

/** The ids of a list of entities (or records). */
export function ids(list: readonly { id: number }[] | undefined): number[] {
  if (list === undefined) throw new Error('expected a list but found nothing');
  return list.map((item) => item.id);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Tracks whether a promise settled yet (without making a rejection unhandled). */
export function track<T>(promise: Promise<T>): { readonly settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

/** Four todos: users 1 and 2, so pages of two and filtered lists differ. */
export const FOUR_TODOS: readonly TodoRecord[] = [
  { id: 1, title: 'write tests', completed: false, userId: 1 },
  { id: 2, title: 'fix bugs', completed: true, userId: 1 },
  { id: 3, title: 'ship', completed: false, userId: 2 },
  { id: 4, title: 'celebrate', completed: false, userId: 2 },
];
