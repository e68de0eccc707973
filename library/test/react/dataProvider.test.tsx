// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, createStore } from '../../src/index.js';
import { DataProvider, useCache, useController, useSuspense } from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { ErrorBoundary, renderInApp, requestLines, Todo, todoResource } from './support.js';

const server = serverPerTest();
let TodoResource: ReturnType<typeof todoResource>;

/** What the components below saw, render by render. */
let controllers: Controller[] = [];
let values: unknown[] = [];
/** Set by the rendered component: re-renders it, or changes what it reads. */
let rerender = () => {};
let chooseId: (id: number | null) => void = () => {};

beforeEach(() => {
  TodoResource = todoResource(server.url);
  controllers = [];
  values = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Records its controller on every render and shows todo `id` with a render count. */
function Probe({ id }: { id: number }) {
  const [count, setCount] = useState(0);
  rerender = () => setCount((value) => value + 1);
  controllers.push(useController());
  const todo = useSuspense(TodoResource.get, { id });
  return (
    <p>
      {todo.title} #{count}
    </p>
  );
}

function ControllerProbe() {
  controllers.push(useController());
  return null;
}

function CachedTitle({ id }: { id: number | null }) {
  const todo = useCache(TodoResource.get, id === null ? null : { id });
  values.push(todo);
  return <p>{todo === undefined ? 'not cached' : `cached: ${todo.title}`}</p>;
}

function SwitchableCachedTitle({ initial }: { initial: number | null }) {
  const [id, setId] = useState(initial);
  chooseId = setId;
  return <CachedTitle id={id} />;
}

function CachedList() {
  const todos = useCache(TodoResource.getList, { userId: 1 });
  values.push(todos);
  return <p>{todos === undefined ? 'no list' : todos.map((todo) => todo.title).join(', ')}</p>;
}

describe('DataProvider and useController', () => {
  it('creates its own store when none is given, kept across re-renders', async () => {
    renderInApp(<Probe id={1} />);
    await screen.findByText('write tests #0');
    act(() => rerender());
    expect(screen.getByText('write tests #1')).toBeTruthy();

    expect(controllers[0]).toBeInstanceOf(Controller);
    expect(new Set(controllers).size).toBe(1);
    // The data lives in that store: the re-render did not fetch again.
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
    const controller = controllers[0]!;
    const { data } = controller.getResponse(TodoResource.get, { id: 1 }, controller.getState());
    expect(data).toBeInstanceOf(Todo);
  });

  it('gives separate providers separate stores', () => {
    render(
      <>
        <DataProvider>
          <ControllerProbe />
        </DataProvider>
        <DataProvider>
          <ControllerProbe />
        </DataProvider>
      </>,
    );
    expect(controllers).toHaveLength(2);
    expect(controllers[0]).not.toBe(controllers[1]);
  });

  it('uses the store it is given: its controller, and the data already in it', async () => {
    const store = createStore();
    await store.controller.fetch(TodoResource.get, { id: 2 });
    const log = renderInApp(<Probe id={2} />, { store });
    // Rendered synchronously from the store: no fallback, no second request.
    expect(screen.getByText('fix bugs #0')).toBeTruthy();
    expect(controllers[0]).toBe(store.controller);
    expect(log.shown).toBe(0);
    expect(requestLines(server.requests)).toEqual(['GET /todos/2']);
  });

  it('hooks used outside a DataProvider throw an error that says so', () => {
    render(
      <ErrorBoundary>
        <ControllerProbe />
      </ErrorBoundary>,
      { onCaughtError: () => {} },
    );
    expect(screen.getByText(/^error:/).textContent).toContain(
      'RestLens hooks must be used inside <DataProvider>',
    );
    expect(controllers).toEqual([]);
  });
});

describe('useCache', () => {
  it('returns undefined and never fetches when nothing is stored', async () => {
    const log = renderInApp(<CachedTitle id={1} />);
    expect(screen.getByText('not cached')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toEqual([]);
    expect(values).toEqual([undefined]);
    expect(log.shown).toBe(0);
  });

  it('shows what another fetch stored, as entity instances, without a request of its own', async () => {
    const store = createStore();
    renderInApp(<CachedList />, { store });
    expect(screen.getByText('no list')).toBeTruthy();
    await act(() => store.controller.fetch(TodoResource.getList, { userId: 1 }));
    expect(screen.getByText('write tests, fix bugs')).toBeTruthy();
    const list = values.at(-1) as unknown[];
    expect(list.every((todo) => todo instanceof Todo)).toBe(true);
    expect(requestLines(server.requests)).toEqual(['GET /todos?userId=1']);
  });

  it('does not refetch stale data, and null arguments read nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = createStore();
    await store.controller.fetch(TodoResource.get, { id: 3 });
    renderInApp(<SwitchableCachedTitle initial={3} />, { store });
    expect(screen.getByText('cached: ship')).toBeTruthy();
    vi.setSystemTime(Date.now() + 120_000); // well past the default 60 s dataExpiryLength
    act(() => chooseId(null));
    expect(screen.getByText('not cached')).toBeTruthy();
    act(() => chooseId(3));
    expect(screen.getByText('cached: ship')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestLines(server.requests)).toEqual(['GET /todos/3']);
  });
});
