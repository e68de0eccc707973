/**
 * The "network" of both apps: an in-memory server behind a stand-in for `fetch`, so that both
 * libraries run their whole request path (URL, request init, `response.json()`) with no HTTP and
 * no timing noise from a socket. Responses are JSON text, as from a real server.
 */
import { LIST_SIZE } from '../protocol.js';

export interface UserData {
  id: number;
  name: string;
}

export interface TodoData {
  id: number;
  title: string;
  completed: boolean;
  author: UserData;
}

export interface ProjectData {
  id: number;
  name: string;
}

/** Every todo has this author, so one change of it reaches every row. */
export const AUTHOR_ID = 1;
export const PROJECT_ID = 1;

const users = new Map<number, UserData>([[AUTHOR_ID, { id: AUTHOR_ID, name: 'Ada' }]]);
const projects = new Map<number, ProjectData>([[PROJECT_ID, { id: PROJECT_ID, name: 'Launch' }]]);
/** Insertion order is the list's order; unshifted todos are kept in front. */
let todos = new Map<number, Omit<TodoData, 'author'>>();
let nextTodoId = 1;
for (let index = 0; index < LIST_SIZE; index++) addTodo(`Todo ${nextTodoId}`, 'end');

function addTodo(title: string, where: 'start' | 'end'): TodoData {
  const todo = { id: nextTodoId++, title, completed: false };
  todos = where === 'end' ? todos.set(todo.id, todo) : new Map([[todo.id, todo], ...todos]);
  return withAuthor(todo);
}

function withAuthor(todo: Omit<TodoData, 'author'>): TodoData {
  return { ...todo, author: users.get(AUTHOR_ID) as UserData };
}

/** The id the next created todo gets. */
export function peekNextTodoId(): number {
  return nextTodoId;
}

/** The ids in list order, as the server holds them. */
export function todoIds(): number[] {
  return [...todos.keys()];
}

type Handler = (id: number, body: Record<string, unknown>) => unknown;

const routes: Record<string, Handler> = {
  'GET todos': () => [...todos.values()].map(withAuthor),
  'GET todos/': (id) => withAuthor(found(todos, id)),
  'POST todos': (_, body) => addTodo(String(body.title), 'start'),
  'PATCH todos/': (id, body) => {
    const todo = { ...found(todos, id), ...body, id };
    todos.set(id, todo);
    return withAuthor(todo);
  },
  'DELETE todos/': (id) => {
    found(todos, id);
    todos.delete(id);
    return { id };
  },
  'GET users/': (id) => found(users, id),
  'PATCH users/': (id, body) => patch(users, id, body),
  'GET projects/': (id) => found(projects, id),
  'PATCH projects/': (id, body) => patch(projects, id, body),
};

function found<T>(table: Map<number, T>, id: number): T {
  const row = table.get(id);
  if (row === undefined) throw new Error(`no row ${id}`);
  return row;
}

function patch<T extends { id: number }>(
  table: Map<number, T>,
  id: number,
  body: Record<string, unknown>,
): T {
  const row = { ...found(table, id), ...body, id };
  table.set(id, row);
  return row;
}

/** `/todos` and `/todos/5` (an optional query string is ignored). */
const PATH = /^\/(\w+)(?:\/(\d+))?(?:\?.*)?$/;

/** Requests answered so far. */
export const served = { count: 0 };

async function serve(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  served.count++;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const match = PATH.exec(url);
  const method = (init?.method ?? 'GET').toUpperCase();
  const handler = match && routes[`${method} ${match[1]}${match[2] ? '/' : ''}`];
  if (!match || !handler) return new Response('not found', { status: 404 });
  const body = typeof init?.body === 'string' ? JSON.parse(init.body) : {};
  return new Response(JSON.stringify(handler(Number(match[2]), body)), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Routes the page's `fetch` to this server. */
export function installServer(): void {
  globalThis.fetch = serve;
}
