import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createResource,
  createStore,
  NetworkError,
  RestEndpoint,
  type RestGenerics,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, Todo } from './support.js';

/**
 * Aborting a request with an AbortSignal (`endpoint.extend({ signal })`): the caller's promise
 * rejects with the AbortError fetch makes, the store keeps what it had, and a request shared by
 * several callers goes on while any of them still waits for it.
 */

const server = serverPerTest({ todos: FOUR_TODOS });

/** Resolves when the next response's status and headers have arrived (its body may not have). */
let headersArrived: Promise<void>;
let onHeaders: () => void;
beforeEach(() => {
  headersArrived = new Promise((resolve) => {
    onHeaders = resolve;
  });
});

/** Tells `headersArrived` when a response's headers are in, before its body is read. */
class HeadersWatched<O extends RestGenerics = any> extends RestEndpoint<O> {
  override async fetchResponse(url: string, init: RequestInit): Promise<Response> {
    const response = await super.fetchResponse(url, init);
    onHeaders();
    return response;
  }
}

function todoResource() {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    Endpoint: HeadersWatched,
  });
}

/** What a promise rejected with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** The first todo as the server sends it, for an answer whose body arrives slowly. */
const SLOW_TODO = { body: FOUR_TODOS[0], bodyDelay: 2_000 };
/** The same, for a test that waits for the whole body after an abort. */
const SLOWISH_TODO = { body: FOUR_TODOS[0], bodyDelay: 300 };

describe('an aborted request', () => {
  it('rejects with the AbortError fetch made when aborted before the headers arrive', async () => {
    const TodoResource = todoResource();
    const abort = new AbortController();
    server.setDelay(2_000);
    const fetched = rejection(TodoResource.get.extend({ signal: abort.signal })({ id: 1 }));
    await server.waitForRequest();
    abort.abort();
    const error = await fetched;
    expect(error).toBe(abort.signal.reason);
    expect((error as Error).name).toBe('AbortError');
  });

  it('rejects with the AbortError fetch made when aborted while the body arrives', async () => {
    const TodoResource = todoResource();
    const abort = new AbortController();
    server.respondNext(SLOW_TODO);
    const fetched = rejection(TodoResource.get.extend({ signal: abort.signal })({ id: 1 }));
    await headersArrived;
    abort.abort();
    const error = await fetched;
    expect(error).not.toBeInstanceOf(NetworkError);
    expect(error).toBe(abort.signal.reason);
    expect((error as Error).name).toBe('AbortError');
  });

  it('rejects with the reason given to abort(), as fetch does, also while the body arrives', async () => {
    const TodoResource = todoResource();
    const abort = new AbortController();
    const reason = new Error('the user left the page');
    server.respondNext(SLOW_TODO);
    const fetched = rejection(TodoResource.get.extend({ signal: abort.signal })({ id: 1 }));
    await headersArrived;
    abort.abort(reason);
    expect(await fetched).toBe(reason);
  });

  it.each([
    ['before the headers arrive', 'headers'],
    ['while the body arrives', 'body'],
  ] as const)(
    'stores no error when aborted %s: the key keeps what it had',
    async (_when, stage) => {
      const TodoResource = todoResource();
      const { controller, getState } = createStore();
      await controller.fetch(TodoResource.get, { id: 1 });
      await controller.expireAll(TodoResource.get);
      const key = TodoResource.get.key({ id: 1 });
      const before = getState().meta.get(key);
      const abort = new AbortController();
      if (stage === 'headers') server.setDelay(2_000);
      else server.respondNext(SLOW_TODO);
      const fetched = rejection(
        controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 }),
      );
      await (stage === 'headers' ? server.waitForRequest(2) : headersArrived);
      abort.abort();
      expect((await fetched) as Error).toMatchObject({ name: 'AbortError' });
      expect(getState().meta.get(key)).toBe(before);
      expect(controller.getError(TodoResource.get, { id: 1 }, getState())).toBeUndefined();
      expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data?.title).toBe(
        'write tests',
      );
      expect(controller.fetching()).toEqual([]);
    },
  );

  it('stores nothing for a key that held nothing', async () => {
    const TodoResource = todoResource();
    const { controller, getState } = createStore();
    const abort = new AbortController();
    server.respondNext(SLOW_TODO);
    const fetched = rejection(
      controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 }),
    );
    await headersArrived;
    abort.abort();
    await fetched;
    expect(getState().meta.get(TodoResource.get.key({ id: 1 }))).toBeUndefined();
    expect(getState().endpoints.size).toBe(0);
  });

  it('with a signal aborted already, rejects with its reason, sends nothing, stores nothing', async () => {
    const TodoResource = todoResource();
    const { controller, getState } = createStore();
    const abort = new AbortController();
    abort.abort();
    const error = await rejection(
      controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 }),
    );
    expect(error).toBe(abort.signal.reason);
    expect(server.requests).toEqual([]);
    expect(getState().meta.get(TodoResource.get.key({ id: 1 }))).toBeUndefined();
  });

  it('of an optimistic mutation, rolls its optimistic response back and stores no error', async () => {
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      optimistic: true,
    });
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.get, { id: 1 });
    const abort = new AbortController();
    server.setDelay(2_000);
    const update = rejection(
      controller.fetch(
        TodoResource.partialUpdate.extend({ signal: abort.signal }),
        { id: 1 },
        { title: 'renamed' },
      ),
    );
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data?.title).toBe(
      'renamed',
    );
    await server.waitForRequest(2);
    abort.abort();
    expect((await update) as Error).toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(getState().optimistic).toEqual([]));
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data?.title).toBe(
      'write tests',
    );
    expect(controller.getError(TodoResource.get, { id: 1 }, getState())).toBeUndefined();
  });
});

describe('a request shared by several callers', () => {
  it('goes on for the others when one caller aborts: only that caller rejects', async () => {
    const TodoResource = todoResource();
    const { controller, getState } = createStore();
    const abort = new AbortController();
    server.respondNext(SLOWISH_TODO);
    const aborted = rejection(
      controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 }),
    );
    const other = controller.fetch(TodoResource.get, { id: 1 });
    await headersArrived;
    abort.abort();
    expect((await aborted) as Error).toMatchObject({ name: 'AbortError' });
    expect((await other).title).toBe('write tests');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.closedEarly).toBeUndefined();
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data?.title).toBe(
      'write tests',
    );
    expect(controller.getError(TodoResource.get, { id: 1 }, getState())).toBeUndefined();
  });

  it('goes on when the caller that started it aborts and a later one has a signal of its own', async () => {
    const TodoResource = todoResource();
    const { controller } = createStore();
    const first = new AbortController();
    const second = new AbortController();
    server.respondNext(SLOWISH_TODO);
    const aborted = rejection(
      controller.fetch(TodoResource.get.extend({ signal: first.signal }), { id: 1 }),
    );
    const waiting = controller.fetch(TodoResource.get.extend({ signal: second.signal }), { id: 1 });
    await headersArrived;
    first.abort();
    await aborted;
    expect((await waiting).title).toBe('write tests');
    expect(server.requests).toHaveLength(1);
  });

  it('is aborted itself once every caller has aborted: the connection closes, nothing is stored', async () => {
    const TodoResource = todoResource();
    const { controller, getState } = createStore();
    const first = new AbortController();
    const second = new AbortController();
    server.respondNext(SLOW_TODO);
    const one = rejection(
      controller.fetch(TodoResource.get.extend({ signal: first.signal }), { id: 1 }),
    );
    const two = rejection(
      controller.fetch(TodoResource.get.extend({ signal: second.signal }), { id: 1 }),
    );
    await headersArrived;
    first.abort();
    second.abort();
    expect(await one).toBe(first.signal.reason);
    expect(await two).toBe(second.signal.reason);
    await vi.waitFor(() => expect(server.requests[0]?.closedEarly).toBe(true));
    expect(getState().meta.get(TodoResource.get.key({ id: 1 }))).toBeUndefined();
    expect(controller.fetching()).toEqual([]);
  });

  it('is not joined once every caller has aborted: a new caller starts a new request', async () => {
    const TodoResource = todoResource();
    const { controller } = createStore();
    const abort = new AbortController();
    server.respondNext(SLOW_TODO);
    const aborted = rejection(
      controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 }),
    );
    await headersArrived;
    abort.abort();
    const next = controller.fetch(TodoResource.get, { id: 1 });
    await aborted;
    expect((await next).title).toBe('write tests');
    expect(server.requests).toHaveLength(2);
  });
});
