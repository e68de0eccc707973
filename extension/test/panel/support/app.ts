import { vi } from 'vitest';
import {
  connectDevtools,
  type DevtoolsConnection,
} from '../../../../library/src/devtools/index.js';
import {
  createResource,
  createStore,
  type EndpointInterface,
  type Store,
  schema,
} from '../../../../library/src/index.js';
import { User } from '../../../../library/test/fixtures.js';
import type { TodoRecord } from '../../../../library/test/helpers/server.js';
import { Todo } from '../../../../library/test/rest/support.js';

/**
 * The page side of the panel tests (this file holds no tests): a todo app built with the real
 * library (createResource, createStore, connectDevtools) against an in-memory REST server that
 * stands in for `fetch`. The events the panel receives are the ones the library really makes.
 */

export const API = 'http://api.test';

export const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  urlPrefix: API,
  searchParams: {} as { userId?: number },
  body: {} as Partial<Todo>,
  paginationField: 'page',
}).extend('deleteMany', {
  path: '/todos',
  method: 'DELETE',
  schema: [new schema.Invalidate(Todo)],
  // The server answers the batch delete with an empty body: the ids come from the query.
  process(_value: unknown, params: { ids: string }) {
    return params.ids.split(',').map((id) => ({ id: Number(id) }));
  },
});

/** Every mutation shows its result before the server answers (and rolls back on error). */
export const OptimisticTodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  urlPrefix: API,
  body: {} as Partial<Todo>,
  optimistic: true,
});

export const UserResource = createResource({ path: '/users/:id', schema: User, urlPrefix: API });

/**
 * An in-memory REST API: lists newest first, two per page; DELETE answers an empty body; a
 * route can be made to fail once.
 */
export class FakeServer {
  readonly todos = new Map<number, TodoRecord>();
  readonly users = new Map<number, { id: number; name: string }>();
  readonly requests: string[] = [];
  pageSize = 2;
  private nextId = 1;
  private failures = new Set<string>();
  private held = new Map<string, Promise<void>>();

  constructor(titles: readonly string[] = []) {
    for (const title of titles) this.add({ title, userId: 1 });
  }

  add(fields: Partial<TodoRecord>): TodoRecord {
    const todo: TodoRecord = {
      id: this.nextId++,
      title: '',
      completed: false,
      userId: 1,
      ...fields,
    };
    this.todos.set(todo.id, todo);
    return todo;
  }

  /** The next `METHOD /path` request answers 500. */
  failNext(route: string): void {
    this.failures.add(route);
  }

  /** The next `METHOD /path` request waits until the returned function is called. */
  hold(route: string): () => void {
    let release = () => {};
    this.held.set(
      route,
      new Promise((resolve) => {
        release = resolve;
      }),
    );
    return () => release();
  }

  install(): void {
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      const route = `${init.method ?? 'GET'} ${new URL(String(input)).pathname}`;
      const held = this.held.get(route);
      if (held) {
        this.held.delete(route);
        await held;
      }
      return this.handle(String(input), init);
    });
  }

  private handle(address: string, init: RequestInit): Response {
    const url = new URL(address);
    const method = init.method ?? 'GET';
    const route = `${method} ${url.pathname}`;
    this.requests.push(`${method} ${url.pathname}${url.search}`);
    if (this.failures.delete(route)) return new Response('boom', { status: 500 });
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    const body = init.body ? (JSON.parse(String(init.body)) as Partial<TodoRecord>) : {};
    const id = Number(url.pathname.split('/')[2]);

    if (url.pathname === '/todos') {
      if (method === 'GET') {
        const userId = url.searchParams.get('userId');
        const page = Number(url.searchParams.get('page') ?? 1);
        const list = [...this.todos.values()]
          .filter((todo) => userId === null || todo.userId === Number(userId))
          .sort((a, b) => b.id - a.id);
        return json(list.slice((page - 1) * this.pageSize, page * this.pageSize));
      }
      if (method === 'POST')
        return json(this.add({ ...body, userId: Number(url.searchParams.get('userId') ?? 1) }));
      if (method === 'DELETE') {
        for (const each of (url.searchParams.get('ids') ?? '').split(','))
          this.todos.delete(Number(each));
        return new Response('', { status: 200 });
      }
    }
    if (url.pathname.startsWith('/todos/')) {
      const todo = this.todos.get(id);
      if (method === 'DELETE') {
        this.todos.delete(id);
        return new Response('', { status: 200 });
      }
      if (!todo) return json({ error: `no todo ${id}` }, 404);
      if (method === 'GET') return json(todo);
      if (method === 'PATCH' || method === 'PUT') {
        Object.assign(todo, body);
        return json(todo);
      }
    }
    if (url.pathname.startsWith('/users/') && method === 'GET') {
      const user = this.users.get(id);
      return user ? json(user) : new Response('not found', { status: 404 });
    }
    return new Response('no route', { status: 404 });
  }
}

/** One page load of the app: its store, connected to the devtools. */
export class TodoApp {
  /** Given its resources, as an app whose sessions are replayed on a page just loaded. */
  readonly store: Store = createStore({
    resources: [TodoResource, OptimisticTodoResource, UserResource],
  });
  readonly devtools: DevtoolsConnection;

  /**
   * `ringSize`: how many changes the page keeps (for a panel that opens later, or time travel);
   * `batchInterval`: how long events wait to go together (0 by default: the next task, so tests
   * settle quickly).
   */
  constructor(name = 'Todo app', ringSize?: number, batchInterval = 0) {
    this.devtools = connectDevtools(this.store, { name, batchInterval, ringSize });
  }

  get controller() {
    return this.store.controller;
  }

  /** Fetches a result and reads it from the store, as a component showing it would. */
  async show<E extends EndpointInterface>(endpoint: E, ...args: Parameters<E>): Promise<void> {
    await this.controller.fetch(endpoint, ...args);
    this.controller.getResponse(endpoint, ...args, this.store.getState());
  }

  close(): void {
    this.devtools.disconnect();
  }
}
