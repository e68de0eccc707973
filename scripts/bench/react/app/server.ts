/**
 * The "network" of both apps: an in-memory server behind a stand-in for `fetch`, so that both
 * libraries run their whole request path (URL, request init, `response.json()`) with no HTTP and
 * no timing noise from a socket. Responses are JSON text, as from a real server.
 */
import { makePks, uuidSequence } from '../../pks.js';
import { LIST_SIZE } from '../protocol.js';

export interface UserData {
  id: string;
  name: string;
}

export interface TodoData {
  id: string;
  title: string;
  completed: boolean;
  author: UserData;
}

export interface ProjectData {
  id: string;
  name: string;
}

// Every pk is a uuid, as the server of a real app mints them.
const [authorId, projectId] = makePks('uuid', 2, 2);
/** Every todo has this author, so one change of it reaches every row. */
export const AUTHOR_ID = authorId as string;
export const PROJECT_ID = projectId as string;

const users = new Map<string, UserData>([[AUTHOR_ID, { id: AUTHOR_ID, name: 'Ada' }]]);
const projects = new Map<string, ProjectData>([[PROJECT_ID, { id: PROJECT_ID, name: 'Launch' }]]);
/** Insertion order is the list's order; unshifted todos are kept in front. */
let todos = new Map<string, Omit<TodoData, 'author'>>();
const mintTodoId = uuidSequence(1);
let nextTodoId = mintTodoId();
for (let index = 0; index < LIST_SIZE; index++) addTodo(`Todo ${index + 1}`, 'end');

function addTodo(title: string, where: 'start' | 'end'): TodoData {
  const todo = { id: nextTodoId, title, completed: false };
  nextTodoId = mintTodoId();
  todos = where === 'end' ? todos.set(todo.id, todo) : new Map([[todo.id, todo], ...todos]);
  return withAuthor(todo);
}

function withAuthor(todo: Omit<TodoData, 'author'>): TodoData {
  return { ...todo, author: users.get(AUTHOR_ID) as UserData };
}

/** The id the next created todo gets. */
export function peekNextTodoId(): string {
  return nextTodoId;
}

/** The ids in list order, as the server holds them. */
export function todoIds(): string[] {
  return [...todos.keys()];
}

type Handler = (id: string, body: Record<string, unknown>) => unknown;

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

function found<T>(table: Map<string, T>, id: string): T {
  const row = table.get(id);
  if (row === undefined) throw new Error(`no row ${id}`);
  return row;
}

function patch<T extends { id: string }>(
  table: Map<string, T>,
  id: string,
  body: Record<string, unknown>,
): T {
  const row = { ...found(table, id), ...body, id };
  table.set(id, row);
  return row;
}

/** `/todos` and `/todos/<uuid>` (an optional query string is ignored). */
const PATH = /^\/(\w+)(?:\/([\w-]+))?(?:\?.*)?$/;

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
  return new Response(JSON.stringify(handler(match[2] ?? '', body)), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Routes the page's `fetch` to this server. */
export function installServer(): void {
  globalThis.fetch = serve;
}
