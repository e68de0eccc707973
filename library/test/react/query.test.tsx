// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResource, createStore, Query, type Store, schema } from '../../src/index.js';
import { DataProvider, useCache, useSuspense } from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import type { TodoRecord } from '../helpers/server.js';
import { Todo, User } from '../rest/support.js';
import { ErrorBoundary } from './support.js';

const TODOS: TodoRecord[] = [1, 2, 3, 4].map((id) => ({
  id,
  title: `todo ${id}`,
  completed: false,
  userId: (id % 2) + 1,
}));

const server = serverPerTest({ todos: TODOS });

let TodoResource: ReturnType<typeof todoResource>;
let UserResource: ReturnType<typeof userResource>;
function todoResource() {
  return createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
}
function userResource() {
  return createResource({ path: '/users/:id', schema: User, urlPrefix: server.url });
}

const todosOf = new Query(new schema.All(Todo), (todos, { userId }: { userId: number }) =>
  todos.filter((todo) => todo.userId === userId),
);
const todoCount = new Query(new schema.All(Todo), (todos) => todos.length);

let renders: string[] = [];
/** The components that rendered since the last call (each once, however often). */
function renderedSince(): string[] {
  const names = [...new Set(renders)].sort();
  renders = [];
  return names;
}

function UserTodos({ userId }: { userId: number }) {
  const todos = useCache(todosOf, { userId });
  renders.push(`user ${userId}`);
  return <p>{`user ${userId}: ${todos?.map((todo) => todo.id).join(',') ?? 'none'}`}</p>;
}

function Count() {
  const count = useCache(todoCount);
  renders.push('count');
  return <p>{`count: ${count ?? 'none'}`}</p>;
}

function mount(store: Store) {
  render(
    <StrictMode>
      <DataProvider store={store}>
        <UserTodos userId={1} />
        <UserTodos userId={2} />
        <Count />
      </DataProvider>
    </StrictMode>,
  );
}

async function mountFetched(store: Store) {
  await act(() => store.controller.fetch(TodoResource.getList, {}));
  mount(store);
  expect(screen.getByText('user 1: 2,4')).toBeTruthy();
  expect(screen.getByText('count: 4')).toBeTruthy();
  renderedSince();
}

beforeEach(() => {
  TodoResource = todoResource();
  UserResource = userResource();
  renders = [];
});
afterEach(cleanup);

describe('useCache(query)', () => {
  it('reads nothing before any todo is stored, then the todos once a list is fetched', async () => {
    const store = createStore();
    mount(store);
    expect(screen.getByText('count: none')).toBeTruthy();
    expect(screen.getByText('user 2: none')).toBeTruthy();
    await act(() => store.controller.fetch(TodoResource.getList, {}));
    expect(screen.getByText('count: 4')).toBeTruthy();
    expect(screen.getByText('user 2: 1,3')).toBeTruthy();
  });

  it('re-renders when a todo is added, by any endpoint', async () => {
    const store = createStore();
    await mountFetched(store);
    await act(() => store.controller.fetch(TodoResource.getList.push, { title: 'new', userId: 1 }));
    expect(screen.getByText('count: 5')).toBeTruthy();
    expect(screen.getByText('user 1: 2,4,5')).toBeTruthy();
    // Every reader of the table renders: a new filtered array, as data-client's Query gives.
    expect(renderedSince()).toEqual(['count', 'user 1', 'user 2']);

    // A todo no list holds, stored by a get, is in the table too.
    await act(() =>
      store.controller.setResponse(
        TodoResource.get,
        { id: 9 },
        { id: 9, title: 'nine', completed: false, userId: 2 },
      ),
    );
    expect(screen.getByText('count: 6')).toBeTruthy();
    expect(screen.getByText('user 2: 1,3,9')).toBeTruthy();
    expect(renderedSince()).toEqual(['count', 'user 1', 'user 2']);
  });

  it('re-renders when a todo is deleted', async () => {
    const store = createStore();
    await mountFetched(store);
    await act(() => store.controller.fetch(TodoResource.delete, { id: 3 }));
    expect(screen.getByText('count: 3')).toBeTruthy();
    expect(screen.getByText('user 2: 1')).toBeTruthy();
    expect(renderedSince()).toEqual(['count', 'user 1', 'user 2']);
  });

  it('does not re-render on a change to another entity type', async () => {
    const store = createStore();
    await mountFetched(store);
    await act(() =>
      store.controller.setResponse(UserResource.get, { id: 1 }, { id: 1, name: 'Ada' }),
    );
    expect(renderedSince()).toEqual([]);
  });
});

describe('useSuspense(query)', () => {
  it('is refused: a Query has nothing to fetch (data-client types refuse it too)', () => {
    const store = createStore();
    // Untyped, as a JavaScript caller would write it: the types refuse it (see query.test-d.ts).
    const useSuspenseUntyped = useSuspense as (query: unknown) => unknown;
    const Suspending = () => {
      useSuspenseUntyped(todoCount);
      return null;
    };
    render(
      <DataProvider store={store}>
        <ErrorBoundary>
          <Suspending />
        </ErrorBoundary>
      </DataProvider>,
      { onCaughtError: () => {} },
    );
    expect(screen.getByText(/^error:/).textContent).toContain('only endpoints can be fetched');
  });
});
