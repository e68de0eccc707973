import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { type FeedItem, seedFeed, seedTodos, seedUsers, type Todo, type User } from './data.js';

export interface DemoServerOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Where the built demo app (index.html, app.js) is served from. */
  staticDir?: string;
  /** Page size of `GET /todos?page=N` and `?cursor=ID`. */
  pageSize?: number;
}

export interface DemoServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};

/**
 * The demo's REST server (JSON everywhere):
 * - `GET /todos` (`userId` filter; pages of `pageSize`: `page=N` (1 by default) or
 *   `cursor=<last id>`; `all=1` for everything), `GET /todos/:id`,
 *   `POST /todos`, `PUT/PATCH /todos/:id`, `DELETE /todos/:id` (empty body), `DELETE /todos?ids=1,2`
 *   (or `?0=1&1=2`, how a list argument of a DELETE is sent)
 * - `GET /users`, `GET /users/:id` (with `?_embed=todos`, each user holds its todos)
 * - `GET /feed`, `GET /feed/:id`, `DELETE /feed/:id`: notes and links
 * - `POST /control/latency {ms}`, `POST /control/fail-next {status}`, `POST /control/reset`
 * and the demo app's static files.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const pageSize = options.pageSize ?? 3;
  let todos: Todo[] = seedTodos();
  let users: User[] = seedUsers();
  let feed: FeedItem[] = seedFeed();
  let nextId = todos.length + 1;
  let latency = 0;
  let failNext: number | undefined;

  const api = async (method: string, url: URL, body: unknown): Promise<[number, unknown]> => {
    const [, resource, id] = url.pathname.split('/');
    const params = url.searchParams;
    if (resource === 'control') return control(id, body);
    if (failNext !== undefined) {
      const status = failNext;
      failNext = undefined;
      return [status, { error: `failed on request (status ${status} requested)` }];
    }
    if (resource === 'users') {
      if (method !== 'GET') return [405, { error: 'users are read-only' }];
      const embed = (user: User) =>
        params.get('_embed') === 'todos'
          ? { ...user, todos: todos.filter((todo) => todo.userId === user.id) }
          : user;
      if (!id) return [200, users.map(embed)];
      const user = users.find((candidate) => candidate.id === Number(id));
      return user ? [200, embed(user)] : [404, { error: `no user ${id}` }];
    }
    if (resource === 'feed') return feedItems(method, id);
    if (resource !== 'todos') return [404, { error: `no route ${url.pathname}` }];
    if (!id) return todoCollection(method, params, body);
    const index = todos.findIndex((todo) => todo.id === Number(id));
    if (index === -1) return [404, { error: `no todo ${id}` }];
    const todo = todos[index] as Todo;
    switch (method) {
      case 'GET':
        return [200, todo];
      case 'PUT':
      case 'PATCH': {
        const updated = { ...todo, ...(body as Partial<Todo>), id: todo.id };
        todos[index] = updated;
        return [200, updated];
      }
      case 'DELETE':
        todos.splice(index, 1);
        return [200, ''];
      default:
        return [405, { error: `${method} not allowed` }];
    }
  };

  const todoCollection = (
    method: string,
    params: URLSearchParams,
    body: unknown,
  ): [number, unknown] => {
    if (method === 'POST') {
      const input = (body ?? {}) as Partial<Todo>;
      if (typeof input.title !== 'string' || input.title === '')
        return [400, { error: 'title is required' }];
      const todo: Todo = {
        completed: false,
        userId: 1,
        ...input,
        title: input.title,
        id: nextId++,
      };
      todos.push(todo);
      return [201, todo];
    }
    if (method === 'DELETE') {
      const listed = [...params].filter(([name]) => name === 'ids' || /^\d+$/.test(name));
      const ids = new Set(
        listed
          .flatMap(([, value]) => value.split(','))
          .filter(Boolean)
          .map(Number),
      );
      todos = todos.filter((todo) => !ids.has(todo.id));
      return [200, ''];
    }
    if (method !== 'GET') return [405, { error: `${method} not allowed` }];
    let list = todos;
    if (params.has('userId'))
      list = list.filter((todo) => todo.userId === Number(params.get('userId')));
    if (params.has('cursor')) {
      const after = list.findIndex((todo) => todo.id === Number(params.get('cursor')));
      return [200, list.slice(after + 1, after + 1 + pageSize)];
    }
    if (params.get('all') === '1') return [200, list];
    // Lists are paged: no `page` means the first one.
    const page = Math.max(1, Number(params.get('page') ?? 1));
    return [200, list.slice((page - 1) * pageSize, page * pageSize)];
  };

  const feedItems = (method: string, id: string | undefined): [number, unknown] => {
    if (!id) return method === 'GET' ? [200, feed] : [405, { error: `${method} not allowed` }];
    const item = feed.find((candidate) => candidate.id === Number(id));
    if (!item) return [404, { error: `no feed item ${id}` }];
    if (method === 'GET') return [200, item];
    if (method !== 'DELETE') return [405, { error: `${method} not allowed` }];
    feed = feed.filter((candidate) => candidate !== item);
    return [200, item];
  };

  const control = (action: string | undefined, body: unknown): [number, unknown] => {
    const input = (body ?? {}) as { ms?: number; status?: number };
    switch (action) {
      case 'latency':
        latency = Math.max(0, Number(input.ms ?? 0));
        return [200, { latency }];
      case 'fail-next':
        failNext = Number(input.status ?? 500);
        return [200, { failNext }];
      case 'reset':
        todos = seedTodos();
        users = seedUsers();
        feed = seedFeed();
        nextId = todos.length + 1;
        latency = 0;
        failNext = undefined;
        return [200, { reset: true }];
      case 'state':
        return [200, { todos, users, latency }];
      default:
        return [404, { error: `no control ${action}` }];
    }
  };

  const serveStatic = async (pathname: string, response: ServerResponse) => {
    const dir = options.staticDir;
    const path = normalize(pathname)
      .replace(/^(\.\.[/\\])+/, '')
      .slice(1);
    const file = path === '' || path.endsWith('/') ? `${path}index.html` : path;
    if (!dir) return false;
    try {
      const content = await readFile(join(dir, file));
      response.writeHead(200, {
        'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      });
      response.end(content);
      return true;
    } catch {
      return false;
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const isApi = /^\/(todos|users|feed|control)(\/|$)/.test(url.pathname);
    if (!isApi && request.method === 'GET' && (await serveStatic(url.pathname, response))) return;
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      respond(response, 400, { error: 'the body is not JSON' });
      return;
    }
    const [status, payload] = await api(request.method ?? 'GET', url, body);
    if (latency > 0 && !url.pathname.startsWith('/control'))
      await new Promise((resolve) => setTimeout(resolve, latency));
    respond(response, status, payload);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) =>
      respond(response, 500, { error: error.message }),
    );
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function respond(response: ServerResponse, status: number, payload: unknown) {
  // DELETE answers with an empty body, as many real APIs do.
  const body = payload === '' ? '' : JSON.stringify(payload);
  response.writeHead(status, body === '' ? {} : { 'Content-Type': 'application/json' });
  response.end(body);
}
