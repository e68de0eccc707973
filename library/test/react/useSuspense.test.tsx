// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, type EndpointInterface, NetworkError } from '../../src/index.js';
import { useSuspense } from '../../src/react/index.js';
import type { Store } from '../../src/store/createStore.js';
import { serverPerTest } from '../helpers/perTest.js';
import {
  App,
  FallbackLog,
  isShown,
  renderInApp,
  requestLines,
  Todo,
  todoResource,
  User,
  userResource,
} from './support.js';

const server = serverPerTest();
let TodoResource: ReturnType<typeof todoResource>;

beforeEach(() => {
  TodoResource = todoResource(server.url);
});
afterEach(cleanup);

/** Every value `TodoTitle` rendered, to check what useSuspense returned. */
let seen: unknown[] = [];
beforeEach(() => {
  seen = [];
});

function TodoTitle({ id }: { id: number }) {
  const todo = useSuspense(TodoResource.get, { id });
  seen.push(todo);
  return (
    <p>
      todo {todo.id}: {todo.title}
      {todo.author ? ` by ${todo.author.name}` : ' (no author)'}
    </p>
  );
}

function TodoList({ userId }: { userId?: number }) {
  const todos = useSuspense(TodoResource.getList, userId === undefined ? {} : { userId });
  seen.push(todos);
  return (
    <ul>
      {todos.map((todo) => (
        <li key={todo.id}>{todo.title}</li>
      ))}
    </ul>
  );
}

/** Reads nothing until its button chooses todo 1. */
function MaybeTodo() {
  const [id, setId] = useState<number | null>(null);
  const todo = useSuspense(TodoResource.get, id === null ? null : { id });
  seen.push(todo);
  return (
    <button type="button" onClick={() => setId(1)}>
      {todo === undefined ? 'nothing chosen' : todo.title}
    </button>
  );
}

/** An endpoint that reads one todo by id, like `TodoResource.get` and its extensions. */
type TodoReader = EndpointInterface<
  (params: { id: number }) => Promise<Todo>,
  typeof Todo,
  undefined
>;

/** Todo 1's title and how often the test re-rendered it (`handle.rerender()`). */
function RerenderableTitle({
  endpoint,
  handle,
}: {
  endpoint: TodoReader;
  handle: { rerender: () => void };
}) {
  const [count, setCount] = useState(0);
  handle.rerender = () => setCount((value) => value + 1);
  const todo = useSuspense(endpoint, { id: 1 });
  return (
    <p>
      {todo.title} #{count}
    </p>
  );
}

function PlainTitle({ endpoint }: { endpoint: TodoReader }) {
  return <p>{useSuspense(endpoint, { id: 1 }).title}</p>;
}

/** A fresh error boundary (and Suspense) around the title each time `retry` is clicked. */
function RetryShell({ store, endpoint }: { store: Store; endpoint: TodoReader }) {
  const [attempt, setAttempt] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setAttempt(attempt + 1)}>
        retry
      </button>
      <App store={store} log={new FallbackLog()} key={attempt}>
        <PlainTitle endpoint={endpoint} />
      </App>
    </>
  );
}

describe('useSuspense: first read', () => {
  it('shows the Suspense fallback until the server answers, then renders entity instances', async () => {
    server.setDelay(50);
    const log = renderInApp(<TodoTitle id={1} />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(screen.queryByText(/todo 1/)).toBeNull();

    expect((await screen.findByText('todo 1: write tests (no author)')).tagName).toBe('P');
    expect(screen.queryByText('loading')).toBeNull();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
    const last = seen.at(-1);
    expect(last).toBeInstanceOf(Todo);
    expect(last).toMatchObject({ id: 1, title: 'write tests', completed: false, userId: 1 });
    expect(log.shown).toBe(1);
  });

  it('renders a list as an array of entity instances, fetched once', async () => {
    renderInApp(<TodoList userId={1} />);
    expect(screen.getByText('loading')).toBeTruthy();
    await screen.findByText('fix bugs');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'write tests',
      'fix bugs',
    ]);
    const list = seen.at(-1) as unknown[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.every((todo) => todo instanceof Todo)).toBe(true);
    expect(requestLines(server.requests)).toEqual(['GET /todos?userId=1']);
  });

  it('does not fetch again when the data is fresh (a second reader of the same key)', async () => {
    renderInApp(
      <>
        <TodoTitle id={2} />
        <TodoTitle id={2} />
      </>,
    );
    expect(await screen.findAllByText('todo 2: fix bugs (no author)')).toHaveLength(2);
    expect(requestLines(server.requests)).toEqual(['GET /todos/2']);
  });
});

describe('useSuspense: errors go to the error boundary', () => {
  it('a 500 answer is thrown to the boundary as a NetworkError with status 500', async () => {
    server.failNext(500);
    const { caught: errors } = renderInApp(<TodoTitle id={1} />, { onCaughtError: () => {} });
    const alert = await screen.findByText(/^error:/);
    expect(alert.textContent).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/todos\/1: 500/);
    expect(alert.textContent).toContain('(status 500)');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(NetworkError);
    expect(seen).toEqual([]);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('a 404 for an unknown id reaches the boundary with status 404', async () => {
    renderInApp(<TodoTitle id={99} />, { onCaughtError: () => {} });
    expect((await screen.findByText(/^error:/)).textContent).toContain('(status 404)');
    expect(requestLines(server.requests)).toEqual(['GET /todos/99']);
  });
});

describe('useSuspense: invalidation', () => {
  it('re-suspends and refetches when the entity it requires is deleted', async () => {
    const store = createStore();
    const log = renderInApp(<TodoTitle id={1} />, { store });
    await screen.findByText('todo 1: write tests (no author)');
    expect(log.shown).toBe(1);

    // The server acknowledges the delete but keeps the todo, so the refetch finds it again.
    server.respondNext({ status: 204 });
    server.setDelay(50);
    await act(() => store.controller.fetch(TodoResource.delete, { id: 1 }));
    expect(screen.getByText('loading')).toBeTruthy();
    expect(isShown(/todo 1/)).toBe(false);

    await waitFor(() => expect(screen.queryByText('loading')).toBeNull());
    expect(isShown('todo 1: write tests (no author)')).toBe(true);
    expect(log.shown).toBe(2);
    expect(requestLines(server.requests)).toEqual([
      'GET /todos/1',
      'DELETE /todos/1',
      'GET /todos/1',
    ]);
    expect(seen.at(-1)).toBeInstanceOf(Todo);
  });

  it('shows the 404 of the refetch when the server really deleted the entity', async () => {
    const store = createStore();
    renderInApp(<TodoTitle id={1} />, { store, onCaughtError: () => {} });
    await screen.findByText('todo 1: write tests (no author)');
    await act(() => store.controller.fetch(TodoResource.delete, { id: 1 }));
    expect((await screen.findByText(/^error:/)).textContent).toContain('(status 404)');
    expect(requestLines(server.requests)).toEqual([
      'GET /todos/1',
      'DELETE /todos/1',
      'GET /todos/1',
    ]);
  });

  it('a list drops the deleted todo without suspending or refetching', async () => {
    const store = createStore();
    const log = renderInApp(<TodoList />, { store });
    await screen.findByText('ship');
    expect(screen.getAllByRole('listitem')).toHaveLength(3);

    await act(() => store.controller.fetch(TodoResource.delete, { id: 2 }));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'write tests',
      'ship',
    ]);
    expect(log.shown).toBe(1);
    expect(requestLines(server.requests)).toEqual(['GET /todos', 'DELETE /todos/2']);
    const list = seen.at(-1) as Todo[];
    expect(list.map((todo) => todo.id)).toEqual([1, 3]);
  });

  it('an optional nested entity that is deleted just disappears from its parent', async () => {
    const UserResource = userResource(server.url);
    const store = createStore();
    server.respondNext({
      body: {
        id: 1,
        title: 'write tests',
        completed: false,
        userId: 7,
        author: { id: 7, name: 'Ann' },
      },
    });
    const log = renderInApp(<TodoTitle id={1} />, { store });
    await screen.findByText('todo 1: write tests by Ann');
    expect(seen.at(-1)).toMatchObject({ author: { id: 7, name: 'Ann' } });
    expect((seen.at(-1) as Todo).author).toBeInstanceOf(User);

    server.respondNext({ status: 204 });
    await act(() => store.controller.fetch(UserResource.delete, { id: 7 }));
    expect(screen.getByText('todo 1: write tests (no author)')).toBeTruthy();
    expect((seen.at(-1) as Todo).author).toBeUndefined();
    expect(log.shown).toBe(1);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'DELETE /users/7']);
  });

  it('controller.invalidate makes the reader suspend and fetch again', async () => {
    const store = createStore();
    const log = renderInApp(<TodoTitle id={3} />, { store });
    await screen.findByText('todo 3: ship (no author)');
    server.todos[2]!.title = 'shipped';
    server.setDelay(50);
    act(() => {
      store.controller.invalidate(TodoResource.get, { id: 3 });
    });
    expect(screen.getByText('loading')).toBeTruthy();
    await screen.findByText('todo 3: shipped (no author)');
    expect(log.shown).toBe(2);
    expect(requestLines(server.requests)).toEqual(['GET /todos/3', 'GET /todos/3']);
  });

  it('controller.expireAll keeps the data shown and refetches it in the background', async () => {
    const store = createStore();
    const log = renderInApp(<TodoTitle id={3} />, { store });
    await screen.findByText('todo 3: ship (no author)');
    server.todos[2]!.title = 'shipped';
    server.setDelay(50);
    act(() => {
      store.controller.expireAll({ testKey: (key) => key.endsWith('/todos/3') });
    });
    const refetch = await server.waitForRequest(2);
    expect(`${refetch.method} ${refetch.url}`).toBe('GET /todos/3');
    expect(isShown('todo 3: ship (no author)')).toBe(true);
    await screen.findByText('todo 3: shipped (no author)');
    expect(log.shown).toBe(1);
    expect(requestLines(server.requests)).toEqual(['GET /todos/3', 'GET /todos/3']);
  });
});

describe('useSuspense: null arguments', () => {
  it('null means "do not fetch": undefined is rendered and the server sees no request', async () => {
    const log = renderInApp(<MaybeTodo />);
    expect(screen.getByRole('button').textContent).toBe('nothing chosen');
    // Give a request that should not exist the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toEqual([]);
    expect(seen).toEqual([undefined]);
    expect(log.shown).toBe(0);

    // Real arguments later fetch as usual.
    act(() => screen.getByRole('button').click());
    expect(await screen.findByText('write tests')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });
});

describe('useSuspense: stale data', () => {
  // Only `Date` is faked, so expiry is exact while the server, fetch and React run in real time.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

  it('shows stale data while it refetches in the background, then the new data', async () => {
    const Fast = todoResource(server.url, { dataExpiryLength: 100 });
    const handle = { rerender: () => {} };
    const log = renderInApp(<RerenderableTitle endpoint={Fast.get} handle={handle} />);
    await screen.findByText('write tests #0');

    // Within dataExpiryLength a re-render uses the stored data.
    later(99);
    act(() => handle.rerender());
    expect(screen.getByText('write tests #1')).toBeTruthy();

    later(2);
    server.todos[0]!.title = 'tests written';
    server.setDelay(50);
    act(() => handle.rerender());
    const refetch = await server.waitForRequest(2);
    expect(`${refetch.method} ${refetch.url}`).toBe('GET /todos/1');
    // While the refetch is under way the stale title stays on screen, without a fallback.
    expect(isShown('write tests #2')).toBe(true);
    expect(screen.queryByText('loading')).toBeNull();

    await screen.findByText('tests written #2');
    expect(log.shown).toBe(1);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/1']);
  });

  it('fresh data is not refetched on a re-render', async () => {
    const handle = { rerender: () => {} };
    renderInApp(<RerenderableTitle endpoint={TodoResource.get} handle={handle} />);
    await screen.findByText('write tests #0');
    later(59_000); // the default dataExpiryLength is 60 s
    act(() => handle.rerender());
    expect(screen.getByText('write tests #1')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('an endpoint with invalidIfStale suspends instead of showing stale data', async () => {
    const Strict = todoResource(server.url, { dataExpiryLength: 100 }).get.extend({
      invalidIfStale: true,
    });
    const handle = { rerender: () => {} };
    const log = renderInApp(<RerenderableTitle endpoint={Strict} handle={handle} />);
    await screen.findByText('write tests #0');
    // Fresh data is shown as it is, although the status is "invalid if stale".
    later(99);
    act(() => handle.rerender());
    expect(isShown('write tests #1')).toBe(true);
    expect(log.shown).toBe(1);

    later(2);
    server.todos[0]!.title = 'tests written';
    server.setDelay(50);
    act(() => handle.rerender());
    expect(screen.getByText('loading')).toBeTruthy();
    expect(isShown('write tests #1')).toBe(false);
    await screen.findByText('tests written #2');
    expect(log.shown).toBe(2);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/1']);
  });

  it('keeps an error until errorExpiryLength passes, then a remount fetches again', async () => {
    const Retry = TodoResource.get.extend({ errorExpiryLength: 100 });
    const store = createStore();
    server.failNext(500);
    render(<RetryShell store={store} endpoint={Retry} />, { onCaughtError: () => {} });
    expect((await screen.findByText(/^error:/)).textContent).toContain('(status 500)');

    // Within errorExpiryLength a new boundary shows the stored error without a request.
    later(99);
    act(() => screen.getByText('retry').click());
    expect(screen.getByText(/^error:/).textContent).toContain('(status 500)');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);

    later(2);
    act(() => screen.getByText('retry').click());
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('write tests')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/1']);
  });
});

describe('hooks given something that is not an endpoint', () => {
  it('throw an error naming the hook (a misspelt member is undefined), and send nothing', async () => {
    const misspelt = (TodoResource as unknown as Record<string, unknown>).getlist;
    // As a JavaScript caller may write it: the types do not stop the mistake.
    const useSuspenseAsJavaScript = useSuspense as (...args: unknown[]) => unknown;
    function Misspelt() {
      useSuspenseAsJavaScript(misspelt, {});
      return <p>never</p>;
    }
    const log = renderInApp(<Misspelt />, { onCaughtError: () => {} });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'error: useSuspense: the first argument must be an endpoint (such as TodoResource.get), not undefined (status undefined)',
    );
    expect(log.caught).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });
});
