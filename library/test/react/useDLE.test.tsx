// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, NetworkError } from '../../src/index.js';
import { DataProvider, useDLE, useFetch, useSuspense } from '../../src/react/index.js';
import type { Store } from '../../src/store/createStore.js';
import { serverPerTest } from '../helpers/perTest.js';
import { isShown, renderInApp, requestLines, todoResource } from './support.js';

const server = serverPerTest();
let TodoResource: ReturnType<typeof todoResource>;
let store: Store;

beforeEach(() => {
  TodoResource = todoResource(server.url);
  store = createStore();
});
afterEach(cleanup);

/** Every `{ data, loading, error }` the component rendered with. */
let states: { title: string | undefined; loading: boolean; error: unknown }[] = [];
beforeEach(() => {
  states = [];
});

function TodoState({ id }: { id: number | null }) {
  const { data, loading, error } = useDLE(TodoResource.get, id === null ? null : { id });
  states.push({ title: data?.title, loading, error });
  if (loading) return <p>loading todo</p>;
  if (error) return <p role="alert">failed with {String(error.status)}</p>;
  return <p>{data ? `title: ${data.title}` : 'nothing'}</p>;
}

function inProvider(children: React.ReactNode) {
  return render(<DataProvider store={store}>{children}</DataProvider>);
}

describe('useDLE: data, loading and error without suspending', () => {
  it('renders loading (no data, no fallback) until the server answers, then the entity', async () => {
    inProvider(<TodoState id={1} />);
    expect(screen.getByText('loading todo')).toBeTruthy();
    expect(states[0]).toEqual({ title: undefined, loading: true, error: undefined });
    expect(await screen.findByText('title: write tests')).toBeTruthy();
    expect(states.at(-1)).toEqual({ title: 'write tests', loading: false, error: undefined });
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('gives an HTTP failure as `error` (a NetworkError with its status) instead of throwing', async () => {
    server.failNext(404);
    inProvider(<TodoState id={1} />);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'failed with 404');
    const last = states.at(-1);
    expect(last?.loading).toBe(false);
    expect(last?.error).toBeInstanceOf(NetworkError);
    // The stored error is kept (errorExpiryLength): no request again on later renders.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('null arguments fetch nothing: no data, not loading', async () => {
    inProvider(<TodoState id={null} />);
    expect(screen.getByText('nothing')).toBeTruthy();
    expect(states).toEqual([{ title: undefined, loading: false, error: undefined }]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.requests).toEqual([]);
  });

  it('shares the stored data with useSuspense readers: one request for both', async () => {
    function Title() {
      return <p>suspense: {useSuspense(TodoResource.get, { id: 1 }).title}</p>;
    }
    renderInApp(
      <>
        <TodoState id={1} />
        <Title />
      </>,
      { store },
    );
    expect(await screen.findByText('suspense: write tests')).toBeTruthy();
    expect(screen.getByText('title: write tests')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('goes back to loading when the entity is invalidated, and shows the refetched data', async () => {
    inProvider(<TodoState id={1} />);
    await screen.findByText('title: write tests');
    server.todos[0]!.title = 'tests written';
    await act(() => store.controller.invalidate(TodoResource.get, { id: 1 }));
    expect(await screen.findByText('title: tests written')).toBeTruthy();
    expect(states.some((state, i) => i > 0 && state.loading)).toBe(true);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/1']);
  });

  it('follows its arguments: a new id loads that todo', async () => {
    function Chooser() {
      const [id, setId] = useState(1);
      return (
        <>
          <button type="button" onClick={() => setId(3)}>
            third
          </button>
          <TodoState id={id} />
        </>
      );
    }
    inProvider(<Chooser />);
    await screen.findByText('title: write tests');
    act(() => screen.getByText('third').click());
    expect(screen.getByText('loading todo')).toBeTruthy();
    expect(await screen.findByText('title: ship')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/3']);
  });
});

describe('useDLE and useFetch: stale data', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('useDLE keeps showing stale data (not loading) while it refetches', async () => {
    const Fast = todoResource(server.url, { dataExpiryLength: 100 });
    function FastState() {
      const { data, loading } = useDLE(Fast.get, { id: 1 });
      return <p>{loading ? 'loading todo' : `title: ${data?.title}`}</p>;
    }
    const { rerender } = inProvider(<FastState />);
    await screen.findByText('title: write tests');
    vi.setSystemTime(Date.now() + 101);
    server.todos[0]!.title = 'tests written';
    server.setDelay(50);
    rerender(
      <DataProvider store={store}>
        <FastState />
      </DataProvider>,
    );
    await server.waitForRequest(2);
    expect(isShown('title: write tests')).toBe(true);
    expect(await screen.findByText('title: tests written')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/1']);
  });
});

describe('useFetch: fetch without reading', () => {
  it('returns the promise of the fetch while data is missing, then undefined once stored', async () => {
    const returned: (Promise<unknown> | undefined)[] = [];
    function Prefetch() {
      returned.push(useFetch(TodoResource.get, { id: 2 }));
      return null;
    }
    inProvider(<Prefetch />);
    const first = returned[0];
    expect(first).toBeInstanceOf(Promise);
    const todo = await first;
    expect(todo).toMatchObject({ id: 2, title: 'fix bugs' });
    // The fetch stored the todo: readers find it without a request of their own.
    expect(
      store.controller.getResponse(TodoResource.get, { id: 2 }, store.getState()).data,
    ).toMatchObject({
      title: 'fix bugs',
    });
    // Stored, the todo reads as fresh: the render that follows fetches nothing.
    await waitFor(() => expect(returned.at(-1)).toBeUndefined());
    expect(requestLines(server.requests)).toEqual(['GET /todos/2']);
  });

  it('returns undefined and fetches nothing for null arguments or fresh data', async () => {
    const returned: (Promise<unknown> | undefined)[] = [];
    function Prefetch({ id }: { id: number | null }) {
      returned.push(useFetch(TodoResource.get, id === null ? null : { id }));
      return null;
    }
    await act(() => store.controller.fetch(TodoResource.get, { id: 1 }));
    inProvider(
      <>
        <Prefetch id={null} />
        <Prefetch id={1} />
      </>,
    );
    expect(returned).toEqual([undefined, undefined]);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('a failed fetch rejects the returned promise, and an ignored one is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      server.failNext(500);
      const returned: (Promise<unknown> | undefined)[] = [];
      function Prefetch() {
        returned.push(useFetch(TodoResource.get, { id: 1 }));
        return null;
      }
      inProvider(<Prefetch />);
      await expect(returned[0]).rejects.toMatchObject({ status: 500 });

      server.failNext(500);
      function Ignoring() {
        useFetch(TodoResource.get, { id: 2 });
        return null;
      }
      inProvider(<Ignoring />);
      await server.waitForRequest(2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(store.getState().meta.get(TodoResource.get.key({ id: 2 }))?.error).toMatchObject({
        status: 500,
      });
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('fetches stale data again at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const Fast = todoResource(server.url, { dataExpiryLength: 100 });
      await act(() => store.controller.fetch(Fast.get, { id: 1 }));
      vi.setSystemTime(Date.now() + 101);
      const returned: (Promise<unknown> | undefined)[] = [];
      function Prefetch() {
        returned.push(useFetch(Fast.get, { id: 1 }));
        return null;
      }
      inProvider(<Prefetch />);
      expect(returned[0]).toBeInstanceOf(Promise);
      await returned[0];
      expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/1']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('useDLE: a store of its own', () => {
  it('reads from the DataProvider it is under', async () => {
    const other = createStore();
    await other.controller.fetch(TodoResource.get, { id: 3 });
    render(
      <DataProvider store={other}>
        <TodoState id={3} />
      </DataProvider>,
    );
    expect(screen.getByText('title: ship')).toBeTruthy();
    expect(states).toEqual([{ title: 'ship', loading: false, error: undefined }]);
  });
});
