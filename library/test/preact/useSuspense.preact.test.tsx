// @vitest-environment jsdom
/** @jsxImportSource preact */
/**
 * useSuspense under preact/compat: the `preact` project of vitest.config.ts aliases `react`,
 * `react-dom` and `react/jsx-runtime` to preact, so the library's hooks and DataProvider run on
 * preact here. Rendering uses preact's own `render` and the `Suspense` of preact/compat.
 */
import { type ComponentChildren, type FunctionComponent, render } from 'preact';
import { useState as compatUseState, Suspense } from 'preact/compat';
import { act } from 'preact/test-utils';
import { useState as reactUseState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createResource, createStore } from '../../src/index.js';
import { DataProvider as ReactTypedDataProvider, useSuspense } from '../../src/react/index.js';
import type { Store } from '../../src/store/createStore.js';
import { serverPerTest } from '../helpers/perTest.js';
import { Todo } from '../rest/support.js';

/**
 * The library is typed against React; in this project its `react` is preact/compat, so its
 * DataProvider is a preact component taking preact children. Only the type changes here.
 */
const DataProvider = ReactTypedDataProvider as unknown as FunctionComponent<{
  store?: Store;
  children?: ComponentChildren;
}>;

const server = serverPerTest();
let container: HTMLElement;
let TodoResource: ReturnType<typeof todoResource>;

function todoResource(urlPrefix: string) {
  return createResource({ path: '/todos/:id', schema: Todo, urlPrefix });
}

beforeEach(() => {
  TodoResource = todoResource(server.url);
  container = document.createElement('div');
  document.body.append(container);
});
afterEach(() => {
  render(null, container);
  container.remove();
});

/** What `Title` rendered, render by render. */
let seen: unknown[] = [];
beforeEach(() => {
  seen = [];
});

function Title({ id }: { id: number }) {
  const todo = useSuspense(TodoResource.get, { id });
  seen.push(todo);
  return <p>{`todo ${todo.id}: ${todo.title}`}</p>;
}

function List() {
  const todos = useSuspense(TodoResource.getList, {});
  return (
    <ul>
      {todos.map((todo) => (
        <li key={todo.id}>{todo.title}</li>
      ))}
    </ul>
  );
}

function Nothing() {
  const todo = useSuspense(TodoResource.get, null);
  return <p>{todo === undefined ? 'none' : 'some'}</p>;
}

describe('useSuspense under preact/compat', () => {
  it('runs on preact: `react` is preact/compat in this project', () => {
    expect(reactUseState).toBe(compatUseState);
  });

  it('suspends with the preact/compat Suspense fallback, then renders the fetched entity', async () => {
    server.setDelay(30);
    act(() => {
      render(
        <DataProvider>
          <Suspense fallback={<p>loading</p>}>
            <Title id={1} />
          </Suspense>
        </DataProvider>,
        container,
      );
    });
    expect(container.textContent).toBe('loading');

    await vi.waitFor(() => expect(container.textContent).toBe('todo 1: write tests'));
    expect(seen.at(-1)).toBeInstanceOf(Todo);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /todos/1',
    ]);
  });

  it('a list drops a deleted todo, and null args fetch nothing', async () => {
    const store = createStore();
    act(() => {
      render(
        <DataProvider store={store}>
          <Suspense fallback={<p>loading</p>}>
            <Nothing />
            <List />
          </Suspense>
        </DataProvider>,
        container,
      );
    });
    await vi.waitFor(() => expect(container.querySelectorAll('li')).toHaveLength(3));
    expect(container.querySelector('p')?.textContent).toBe('none');

    await act(async () => {
      await store.controller.fetch(TodoResource.delete, { id: 2 });
    });
    expect([...container.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'write tests',
      'ship',
    ]);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /todos',
      'DELETE /todos/2',
    ]);
  });
});
