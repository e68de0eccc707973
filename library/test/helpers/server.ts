import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A todo as the test server stores and serves it. */
export interface TodoRecord {
  id: number;
  title: string;
  completed: boolean;
  userId: number;
}

/** A user as the test server stores and serves it (`/users`, `/users/:id`). */
export interface UserRecord {
  id: number;
  username: string;
  name: string;
}

/**
 * How `DELETE /todos/:id` (and `/users/:id`, `/users/:userId/todos/:id`) answers:
 * - `'no-content'`: `204 No Content` (the default)
 * - `'empty'`: `200` with an empty body and no content type
 * - `'id-json'`: `200`, the id as a JSON string, e.g. `"5"`
 * - `'id-text'`: `200`, `text/plain`, the id as plain text, e.g. `5`
 * - `'object'`: `200`, `{ "id": 5 }`
 */
export type DeleteResponseForm = 'no-content' | 'empty' | 'id-json' | 'id-text' | 'object';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** The path and query, e.g. `/todos?userId=1`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw request body ('' when there was none). */
  body: string;
  /** `Date.now()` when the request (with its body) had arrived. */
  receivedAt: number;
  /** Set when the client closed the connection before the whole answer was sent (an abort). */
  closedEarly?: true;
}

/** A canned answer for the next request, whatever it asks for. */
export interface CannedResponse {
  status?: number;
  /** Sent as JSON unless it is a string and `contentType` is not JSON. */
  body?: unknown;
  /** `application/json` by default; e.g. `text/plain` to answer non-JSON text. */
  contentType?: string;
  /** Sent exactly as given (instead of `body`), e.g. broken JSON under a JSON content type. */
  rawBody?: string;
  /**
   * With `rawBody`: the `Content-Length` announced, larger than the body; the connection is
   * closed once the body is written, so the answer arrives cut short.
   */
  announcedLength?: number;
  /**
   * A body that arrives slowly: the status, the headers and the first half of the body are sent
   * at once, the other half this many ms later.
   */
  bodyDelay?: number;
}

export interface ServerOptions {
  /** The todos the server starts with (copied); three todos of users 1 and 2 by default. */
  todos?: readonly TodoRecord[];
  /** Page size of `GET /todos?page=N` (pages count from 1). Default 2. */
  pageSize?: number;
  /** The users the server starts with (copied); two users by default. */
  users?: readonly UserRecord[];
}

export interface TestServer {
  /** The base address, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** The server's data; tests may read and change it directly. */
  todos: TodoRecord[];
  /** The server's users; tests may read and change them directly. */
  users: UserRecord[];
  /** Chooses how single deletes answer from now on (see DeleteResponseForm). */
  setDeleteResponse(form: DeleteResponseForm): void;
  /** The next request is answered with this HTTP status and a JSON error body. */
  failNext(status: number, body?: unknown): void;
  /** The next request is answered with `response`, whatever it asks for. */
  respondNext(response: CannedResponse): void;
  /** Every answer waits this long (ms) after its request arrived; 0 turns slow mode off. */
  setDelay(ms: number): void;
  /**
   * The next request is answered from the data as it is when the request arrives, but the answer
   * is sent only on `release()`: an answer overtaken by later requests and their answers.
   */
  holdNext(): HeldAnswer;
  /** Resolves with the next request that arrives (or the `count`-th one received overall). */
  waitForRequest(count?: number): Promise<RecordedRequest>;
  /**
   * Stops listening and drops open connections, so later requests fail as network errors.
   * Closing twice is harmless.
   */
  close(): Promise<void>;
}

/** An answer `holdNext` keeps back. */
export interface HeldAnswer {
  /** Resolves with the held request once it has arrived (and its answer is made). */
  arrived: Promise<RecordedRequest>;
  /** Sends the answer (at once when it is made later). */
  release(): void;
}

export const DEFAULT_USERS: readonly UserRecord[] = [
  { id: 1, username: 'ada', name: 'Ada Lovelace' },
  { id: 2, username: 'alan', name: 'Alan Turing' },
];

export const DEFAULT_TODOS: readonly TodoRecord[] = [
  { id: 1, title: 'write tests', completed: false, userId: 1 },
  { id: 2, title: 'fix bugs', completed: true, userId: 1 },
  { id: 3, title: 'ship', completed: false, userId: 2 },
];

const JSON_TYPE = 'application/json';

/** `/echo` and `/echo/:id` (the segment as sent, still percent-encoded). */
const ECHO_ROUTE = /^\/echo(?:\/([^/]+))?\/?$/;

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) serving in-memory todos:
 *
 * - `GET /todos` — all todos; `?userId=N` filters, `?page=N` returns one page of `pageSize`
 * - `GET /todos/:id`, `POST /todos`, `PUT /todos/:id`, `PATCH /todos/:id`, `DELETE /todos/:id`
 *   (DELETE answers `204 No Content`, or as `setDeleteResponse` chose)
 *
 * Also (added for the REST layer tests; none of it changes the answers above):
 *
 * - `GET /todos`: `?cursor=N` returns the page after the todo with id N (cursor pagination),
 *   `?per_page=N` sets the page size (without page or cursor: the first N), `?orderBy=field`
 *   sorts ascending by that field
 * - `DELETE /todos?ids=1,2` — batch delete: removes the listed todos, answers `200` with an
 *   empty body (content type JSON)
 * - `POST /todos/:id/toggle` — flips `completed`, answers the todo
 * - `/users`, `/users/:id` — users: GET (list / one), POST, PUT, PATCH, DELETE; `:id` may also be
 *   the username
 * - `/users/:userId/todos` and `/users/:userId/todos/:id` — the todos of one user (same verbs and
 *   query options as `/todos`; a todo of another user is 404)
 * - `GET /paged/todos?skip=S&limit=L` (also `userId`) — `{ results, total, limit, skip, link }`,
 *   `link` being the next page's path or `''` after the last one; `POST /paged/todos` and
 *   `/paged/todos/:id` act as `POST /todos` and `/todos/:id`
 * - `/echo` — answers with what it received, decoded as a server decodes it: `GET /echo/:id`
 *   answers `{ id, text: 'echo' }` (`id` being the decoded path segment), `GET /echo` one
 *   `{ id: name, text: value }` per query parameter (in the order received), `POST /echo` the
 *   body (`201`), `PUT` / `PATCH /echo/:id` the body with `id`, `DELETE /echo/:id` `204`
 *
 * Unknown routes answer 404 and unknown ids 404, with a JSON `{ error }` body.
 */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const pageSize = options.pageSize ?? 2;
  const todos: TodoRecord[] = (options.todos ?? DEFAULT_TODOS).map((todo) => ({ ...todo }));
  const users: UserRecord[] = (options.users ?? DEFAULT_USERS).map((user) => ({ ...user }));
  const requests: RecordedRequest[] = [];
  const canned: CannedResponse[] = [];
  const waiters: { count: number; resolve: (request: RecordedRequest) => void }[] = [];
  let delay = 0;
  /** The holds `holdNext` asked for, for the next requests in order. */
  const holds: Hold[] = [];
  /** Answers waiting in slow mode; `close` cancels them. */
  const pending = new Set<ReturnType<typeof setTimeout>>();

  const send = (res: ServerResponse, status: number, body?: unknown, contentType = JSON_TYPE) => {
    if (status === 204 || body === undefined) {
      res.writeHead(status).end();
      return;
    }
    const text =
      typeof body === 'string' && !contentType.includes('json') ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': contentType }).end(text);
  };

  const route = (request: RecordedRequest, res: ServerResponse) => {
    const next = canned.shift();
    if (next?.rawBody !== undefined && next.announcedLength !== undefined) {
      res.writeHead(next.status ?? 200, {
        'content-type': next.contentType ?? JSON_TYPE,
        'content-length': next.announcedLength,
      });
      res.write(next.rawBody, () => res.socket?.destroy());
      return;
    }
    if (next?.bodyDelay !== undefined) {
      const text = next.rawBody ?? JSON.stringify(next.body);
      const half = Math.ceil(text.length / 2);
      res.writeHead(next.status ?? 200, { 'content-type': next.contentType ?? JSON_TYPE });
      res.write(text.slice(0, half));
      const timer = setTimeout(() => {
        pending.delete(timer);
        res.end(text.slice(half));
      }, next.bodyDelay);
      pending.add(timer);
      return;
    }
    if (next?.rawBody !== undefined) {
      res
        .writeHead(next.status ?? 200, { 'content-type': next.contentType ?? JSON_TYPE })
        .end(next.rawBody);
      return;
    }
    if (next) return send(res, next.status ?? 200, next.body, next.contentType);

    const url = new URL(request.url, 'http://localhost');
    if (routeExtra(request, url, res)) return;
    const match = /^\/todos(?:\/([^/]+))?\/?$/.exec(url.pathname);
    if (!match) return send(res, 404, { error: `no route for ${request.method} ${url.pathname}` });
    const id = match[1] === undefined ? undefined : Number(match[1]);
    const body = parseBody(request);
    if (body === undefined) return send(res, 400, { error: 'the request body is not JSON' });

    if (id === undefined) {
      if (request.method === 'GET') return send(res, 200, todoList(todos, url));
      if (request.method === 'POST') {
        return create(res, todos, {
          title: '',
          completed: false,
          userId: Number(url.searchParams.get('userId') ?? 0),
          ...(body as Partial<TodoRecord>),
          id: nextId(todos),
        });
      }
      // The list URL patches the todo its body names (`getList.remove` sends it so).
      const named = todos.findIndex((todo) => todo.id === Number(body.id));
      if (request.method === 'PATCH' && named !== -1)
        return answerRecord(
          request,
          res,
          todos,
          named,
          { title: '', completed: false, userId: 0 },
          body,
          '/todos',
        );
      return send(res, 405, { error: `${request.method} /todos is not allowed` });
    }

    const index = todos.findIndex((todo) => todo.id === id);
    if (todos[index] === undefined) return send(res, 404, { error: `no todo ${match[1]}` });
    const blank = { title: '', completed: false, userId: 0 };
    return answerRecord(request, res, todos, index, blank, body, '/todos/:id');
  };

  // ---- Shared by the routes above and below ----

  const parseBody = (request: RecordedRequest): Record<string, unknown> | undefined => {
    if (request.body === '') return {};
    try {
      return JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };

  const nextId = (records: readonly { id: number }[]) =>
    Math.max(0, ...records.map((record) => record.id)) + 1;

  /** Stores a new record and answers it with `201`. */
  const create = <T>(res: ServerResponse, records: T[], created: T) => {
    records.push(created);
    return send(res, 201, created);
  };

  /**
   * GET, PUT (replaces the record with `blank` overlaid by the body), PATCH and DELETE of
   * `records[index]` (which exists); any other method answers 405 naming `path`.
   */
  const answerRecord = <T extends { id: number }>(
    request: RecordedRequest,
    res: ServerResponse,
    records: T[],
    index: number,
    blank: Omit<T, 'id'>,
    body: Record<string, unknown>,
    path: string,
  ) => {
    const record = records[index] as T;
    switch (request.method) {
      case 'GET':
        return send(res, 200, record);
      case 'PUT': {
        const replaced = { ...blank, ...(body as Partial<T>), id: record.id } as T;
        records[index] = replaced;
        return send(res, 200, replaced);
      }
      case 'PATCH': {
        const patched: T = { ...record, ...(body as Partial<T>), id: record.id };
        records[index] = patched;
        return send(res, 200, patched);
      }
      case 'DELETE':
        records.splice(index, 1);
        return sendDeleted(res, record.id);
      default:
        return send(res, 405, { error: `${request.method} ${path} is not allowed` });
    }
  };

  /** The todos of `list` that match the `userId` query parameter, if there is one. */
  const filterByUser = (list: TodoRecord[], url: URL): TodoRecord[] => {
    const userId = url.searchParams.get('userId');
    return userId === null ? list : list.filter((todo) => String(todo.userId) === userId);
  };

  /** `GET` of a todo list: filtered by `userId`, one page with `page`, then the list extras. */
  const todoList = (list: TodoRecord[], url: URL): TodoRecord[] => {
    let out = filterByUser(list, url);
    const page = url.searchParams.get('page');
    if (page !== null) {
      const start = (Number(page) - 1) * pageSizeOf(url);
      out = out.slice(start, start + pageSizeOf(url));
    }
    return listExtras(out, url, page !== null);
  };

  // ---- Routes added for the REST layer tests (users, nested todos, batch delete, …) ----

  let deleteForm: DeleteResponseForm = 'no-content';

  /** Answers a single delete in the form `setDeleteResponse` chose. */
  const sendDeleted = (res: ServerResponse, id: number) => {
    switch (deleteForm) {
      case 'no-content':
        return send(res, 204);
      case 'empty':
        return send(res, 200);
      case 'id-json':
        return send(res, 200, String(id));
      case 'id-text':
        return send(res, 200, String(id), 'text/plain');
      case 'object':
        return send(res, 200, { id });
    }
  };

  const pageSizeOf = (url: URL) => {
    const perPage = url.searchParams.get('per_page');
    return perPage === null ? pageSize : Number(perPage);
  };

  /** `orderBy`, `cursor` and `per_page` (without page or cursor) of a todo list query. */
  const listExtras = (list: TodoRecord[], url: URL, paged: boolean): TodoRecord[] => {
    let out = list;
    const orderBy = url.searchParams.get('orderBy') as keyof TodoRecord | null;
    if (orderBy !== null) {
      out = out
        .slice()
        .sort((a, b) => (a[orderBy] < b[orderBy] ? -1 : a[orderBy] > b[orderBy] ? 1 : 0));
    }
    const cursor = url.searchParams.get('cursor');
    if (cursor !== null) {
      const after = out.findIndex((todo) => String(todo.id) === cursor);
      return after === -1 ? [] : out.slice(after + 1, after + 1 + pageSizeOf(url));
    }
    if (!paged && url.searchParams.has('per_page')) return out.slice(0, pageSizeOf(url));
    return out;
  };

  /** The todo routes scoped to one user (`userId` undefined: all todos), beyond `/todos`. */
  const todoRoutes = (
    request: RecordedRequest,
    url: URL,
    res: ServerResponse,
    userId: number | undefined,
    idText: string | undefined,
    body: Record<string, unknown>,
  ) => {
    const mine = (todo: TodoRecord) => userId === undefined || todo.userId === userId;
    if (idText === undefined) {
      if (request.method === 'GET') return send(res, 200, todoList(todos.filter(mine), url));
      if (request.method === 'POST') {
        return create(res, todos, {
          title: '',
          completed: false,
          ...(body as Partial<TodoRecord>),
          userId: userId ?? Number(body.userId ?? 0),
          id: nextId(todos),
        });
      }
      return send(res, 405, { error: `${request.method} ${url.pathname} is not allowed` });
    }
    const index = todos.findIndex((todo) => String(todo.id) === idText && mine(todo));
    if (todos[index] === undefined) return send(res, 404, { error: `no todo ${idText}` });
    const blank = { title: '', completed: false, userId: userId ?? 0 };
    return answerRecord(request, res, todos, index, blank, body, url.pathname);
  };

  const userRoutes = (
    request: RecordedRequest,
    url: URL,
    res: ServerResponse,
    idText: string | undefined,
    body: Record<string, unknown>,
  ) => {
    if (idText === undefined) {
      if (request.method === 'GET') return send(res, 200, users);
      if (request.method === 'POST') {
        return create(res, users, {
          username: '',
          name: '',
          ...(body as Partial<UserRecord>),
          id: nextId(users),
        });
      }
      return send(res, 405, { error: `${request.method} /users is not allowed` });
    }
    const index = users.findIndex((user) => String(user.id) === idText || user.username === idText);
    if (users[index] === undefined) return send(res, 404, { error: `no user ${idText}` });
    const blank = { username: '', name: '' };
    return answerRecord(request, res, users, index, blank, body, url.pathname);
  };

  /** `/echo`: what the request carried, decoded (see startServer). */
  const echoRoute = (
    request: RecordedRequest,
    url: URL,
    res: ServerResponse,
    segment: string | undefined,
    body: Record<string, unknown>,
  ) => {
    const id = segment === undefined ? undefined : decodeURIComponent(segment);
    if (id === undefined && request.method === 'GET')
      return send(
        res,
        200,
        [...url.searchParams].map(([name, value]) => ({ id: name, text: value })),
      );
    if (id === undefined && request.method === 'POST') return send(res, 201, body);
    if (id !== undefined && request.method === 'GET') return send(res, 200, { id, text: 'echo' });
    if (id !== undefined && (request.method === 'PUT' || request.method === 'PATCH'))
      return send(res, 200, { ...body, id });
    if (id !== undefined && request.method === 'DELETE') return send(res, 204);
    return send(res, 405, { error: `${request.method} ${url.pathname} is not allowed` });
  };

  const EXTRA_ROUTES = [
    /^\/todos\/([^/]+)\/toggle\/?$/,
    /^\/users(?:\/([^/]+))?\/?$/,
    /^\/users\/([^/]+)\/todos(?:\/([^/]+))?\/?$/,
    /^\/paged\/todos(?:\/([^/]+))?\/?$/,
    ECHO_ROUTE,
  ];

  /** Answers the added routes; false leaves the request to the original `/todos` routes. */
  const routeExtra = (request: RecordedRequest, url: URL, res: ServerResponse): boolean => {
    const path = url.pathname;
    const batchDelete =
      request.method === 'DELETE' && /^\/todos\/?$/.test(path) && url.searchParams.has('ids');
    if (!batchDelete && !EXTRA_ROUTES.some((pattern) => pattern.test(path))) return false;
    answerExtra(request, url, res);
    return true;
  };

  const answerExtra = (request: RecordedRequest, url: URL, res: ServerResponse) => {
    const path = url.pathname;
    // Batch delete: DELETE /todos?ids=1,2 (or ?ids=1&ids=2) answers an empty body.
    if (request.method === 'DELETE' && url.searchParams.has('ids')) {
      const ids = new Set(
        url.searchParams
          .getAll('ids')
          .flatMap((ids) => ids.split(','))
          .filter(Boolean),
      );
      for (let i = todos.length - 1; i >= 0; i--) {
        if (ids.has(String(todos[i]?.id))) todos.splice(i, 1);
      }
      res.writeHead(200, { 'content-type': JSON_TYPE }).end('');
      return;
    }
    const [toggleRoute, usersRoute, nestedRoute, pagedRoute] = EXTRA_ROUTES as [
      RegExp,
      RegExp,
      RegExp,
      RegExp,
    ];
    const toggle = toggleRoute.exec(path);
    const userMatch = usersRoute.exec(path);
    const nested = nestedRoute.exec(path);
    const paged = pagedRoute.exec(path);
    const body = parseBody(request);
    if (body === undefined) return send(res, 400, { error: 'the request body is not JSON' });
    if (toggle) {
      if (request.method !== 'POST')
        return send(res, 405, { error: `${request.method} ${path} is not allowed` });
      const index = todos.findIndex((todo) => String(todo.id) === toggle[1]);
      const todo = todos[index];
      if (todo === undefined) return send(res, 404, { error: `no todo ${toggle[1]}` });
      const toggled = { ...todo, completed: !todo.completed };
      todos[index] = toggled;
      return send(res, 200, toggled);
    }
    const echo = ECHO_ROUTE.exec(path);
    if (echo) return echoRoute(request, url, res, echo[1], body);
    if (userMatch) return userRoutes(request, url, res, userMatch[1], body);
    if (nested) return todoRoutes(request, url, res, Number(nested[1]), nested[2], body);
    // `/paged/todos/:id` and `POST /paged/todos` act as `/todos/:id` and `POST /todos`.
    if (paged?.[1] !== undefined || request.method !== 'GET')
      return todoRoutes(request, url, res, undefined, paged?.[1], body);
    // GET /paged/todos
    const list = filterByUser(todos, url);
    const skip = Number(url.searchParams.get('skip') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? pageSize);
    const rest = new URLSearchParams(url.searchParams);
    rest.set('skip', String(skip + limit));
    rest.set('limit', String(limit));
    rest.sort();
    return send(res, 200, {
      results: list.slice(skip, skip + limit),
      total: list.length,
      limit,
      skip,
      link: skip + limit < list.length ? `/paged/todos?${rest}` : '',
    });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(request);
      res.on('close', () => {
        if (!res.writableFinished) request.closedEarly = true;
      });
      for (const waiter of waiters.slice()) {
        if (requests.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(requests[waiter.count - 1] as RecordedRequest);
        }
      }
      const answer = () => {
        try {
          route(request, res);
        } catch (error) {
          send(res, 500, { error: String(error) });
        }
      };
      const hold = holds.shift();
      if (hold) {
        hold.keep(res);
        answer();
        hold.arrive(request);
      } else if (delay > 0) {
        const timer = setTimeout(() => {
          pending.delete(timer);
          answer();
        }, delay);
        pending.add(timer);
      } else answer();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    todos,
    users,
    setDeleteResponse(form) {
      deleteForm = form;
    },
    failNext(status, body = { error: `failing on purpose with ${status}` }) {
      canned.push({ status, body });
    },
    respondNext(response) {
      canned.push(response);
    },
    setDelay(ms) {
      delay = ms;
    },
    holdNext() {
      const { held, hold } = holdAnswer();
      holds.push(hold);
      return held;
    },
    waitForRequest(count = requests.length + 1) {
      const received = requests[count - 1];
      if (received) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      if (!server.listening) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** The server's side of a HeldAnswer. */
interface Hold {
  /** Keeps what is written to `res` until the answer is released. */
  keep(res: ServerResponse): void;
  arrive(request: RecordedRequest): void;
}

/** A held answer: what is written to the response waits until `release()`. */
function holdAnswer(): { held: HeldAnswer; hold: Hold } {
  let released = false;
  let writes: (() => void)[] = [];
  let arrive: (request: RecordedRequest) => void = () => {};
  const arrived = new Promise<RecordedRequest>((resolve) => {
    arrive = resolve;
  });
  const send = () => {
    for (const write of writes) write();
    writes = [];
  };
  return {
    held: {
      arrived,
      release() {
        released = true;
        send();
      },
    },
    hold: {
      keep(res) {
        // The answers written here are one `writeHead(...)` then one `end(...)`.
        const writeHead = res.writeHead.bind(res);
        const end = res.end.bind(res);
        res.writeHead = ((...args: Parameters<typeof writeHead>) => {
          writes.push(() => writeHead(...args));
          if (released) send();
          return res;
        }) as typeof res.writeHead;
        res.end = ((...args: Parameters<typeof end>) => {
          writes.push(() => end(...args));
          if (released) send();
          return res;
        }) as typeof res.end;
      },
      arrive,
    },
  };
}
