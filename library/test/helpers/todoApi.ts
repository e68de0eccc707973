import {
  Endpoint,
  type ErrorPolicy,
  paginatedFilter,
  paginatedMerge,
  schema,
} from '../../src/index.js';
import { Todo, todoList } from '../fixtures.js';
import type { TodoRecord } from './server.js';

/** An HTTP answer outside 2xx; `body` is what the server sent (JSON or text). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Fetches `url` with the global `fetch`: JSON bodies are parsed, anything else is returned as
 * text, `204` as `undefined`; a status outside 2xx throws an HttpError. A network failure rejects
 * with fetch's own TypeError.
 */
export async function requestJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, init);
  const type = response.headers.get('content-type') ?? '';
  const body =
    response.status === 204
      ? undefined
      : type.includes('json')
        ? await response.json()
        : await response.text();
  if (!response.ok) {
    throw new HttpError(
      response.status,
      body,
      `${init.method ?? 'GET'} ${url} failed with ${response.status}`,
    );
  }
  return body;
}

/** 5xx errors are soft (the data held before keeps showing), everything else is hard. */
export function statusErrorPolicy(error: unknown): ErrorPolicy {
  return error instanceof HttpError && error.status >= 500 ? 'soft' : 'hard';
}

/** `?a=1&b=2` from the defined values of `params` ('' when there are none). */
export function queryString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

const jsonBody = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A page lands in the list stored under the same arguments without `page`. */
export const removePageCursor = (...args: readonly unknown[]): readonly unknown[] => {
  const { page: _page, ...rest } = (args[0] ?? {}) as Record<string, unknown>;
  return [rest];
};

export type TodoFilter = { userId?: number };

/**
 * The endpoints of the test server's `/todos` resource, built with the plain `Endpoint` class
 * (keys are the default `name + JSON(args)`):
 *
 * - `getTodos(filter)` — `GET /todos`, schema `todoList`
 * - `getTodoPage({...filter, page})` — `GET /todos?page=N`, merged into `getTodos(filter)`
 * - `getTodo({id})` — `GET /todos/:id`, schema `Todo`
 * - `createTodo(filter, body)` / `unshiftTodo(filter, body)` — `POST /todos`, `todoList.push` /
 *   `.unshift`
 * - `updateTodo({id}, body)` — `PUT`, `patchTodo({id}, body)` — `PATCH`, schema `Todo`
 * - `deleteTodo({id})` — `DELETE` (204), schema `schema.Invalidate(Todo)`; an empty answer
 *   invalidates by the URL params
 */
export function todoApi(baseUrl: string) {
  const errorPolicy = statusErrorPolicy;
  return {
    getTodos: new Endpoint(
      (filter: TodoFilter = {}) => requestJson(`${baseUrl}/todos${queryString(filter)}`),
      { name: 'getTodos', schema: todoList, errorPolicy },
    ),
    getTodoPage: new Endpoint(
      (params: TodoFilter & { page: number }) =>
        requestJson(`${baseUrl}/todos${queryString(params)}`),
      {
        name: 'getTodoPage',
        schema: todoList.addWith(paginatedMerge, paginatedFilter(removePageCursor)),
        errorPolicy,
      },
    ),
    getTodo: new Endpoint(
      (params: { id: number }) => requestJson(`${baseUrl}/todos/${params.id}`),
      { name: 'getTodo', schema: Todo, errorPolicy },
    ),
    createTodo: new Endpoint(
      (filter: TodoFilter, body: Partial<TodoRecord>) =>
        requestJson(`${baseUrl}/todos${queryString(filter)}`, jsonBody('POST', body)),
      { name: 'createTodo', schema: todoList.push, sideEffect: true, errorPolicy },
    ),
    unshiftTodo: new Endpoint(
      (filter: TodoFilter, body: Partial<TodoRecord>) =>
        requestJson(`${baseUrl}/todos${queryString(filter)}`, jsonBody('POST', body)),
      { name: 'unshiftTodo', schema: todoList.unshift, sideEffect: true, errorPolicy },
    ),
    updateTodo: new Endpoint(
      (params: { id: number }, body: Partial<TodoRecord>) =>
        requestJson(`${baseUrl}/todos/${params.id}`, jsonBody('PUT', body)),
      { name: 'updateTodo', schema: Todo, sideEffect: true, errorPolicy },
    ),
    patchTodo: new Endpoint(
      (params: { id: number }, body: Partial<TodoRecord>) =>
        requestJson(`${baseUrl}/todos/${params.id}`, jsonBody('PATCH', body)),
      { name: 'patchTodo', schema: Todo, sideEffect: true, errorPolicy },
    ),
    deleteTodo: new Endpoint(
      async (params: { id: number }) => {
        const body = await requestJson(`${baseUrl}/todos/${params.id}`, { method: 'DELETE' });
        return body === undefined || body === '' ? params : body;
      },
      {
        name: 'deleteTodo',
        schema: new schema.Invalidate(Todo),
        sideEffect: true,
        errorPolicy,
      },
    ),
  };
}

export type TodoApi = ReturnType<typeof todoApi>;
