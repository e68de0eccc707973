// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, NetworkError, type Store } from '../../src/index.js';
import { DataProvider, useError } from '../../src/react/index.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { requestLines, todoResource } from './support.js';

const server = serverPerTest();
const TodoResource = perTest(() => todoResource(server.url));
// Not a perTest stand-in: hooks keep a registry per store object.
let store: Store;
beforeEach(() => {
  store = createStore();
});
afterEach(cleanup);

/** Every error the component rendered with. */
let seen: unknown[] = [];
afterEach(() => {
  seen = [];
});

function TodoError({ id }: { id: number | null }) {
  const error = useError(TodoResource.get, id === null ? null : { id });
  seen.push(error);
  return <p>{error === undefined ? `todo ${id}: no error` : `todo ${id}: ${error.status}`}</p>;
}

function mount(id: number | null = 1) {
  render(
    <DataProvider store={store}>
      <TodoError id={id} />
    </DataProvider>,
  );
}

/** Fetches todo `id`, which the test expects to fail. */
async function fetchFailing(id: number) {
  await act(() => store.controller.fetch(TodoResource.get, { id }).catch(() => undefined));
}

describe('useError', () => {
  it('shows the error of a failed fetch when it is stored, and fetches nothing itself', async () => {
    mount();
    expect(screen.getByText('todo 1: no error')).toBeTruthy();
    server.failNext(404);
    await fetchFailing(1);
    expect(screen.getByText('todo 1: 404')).toBeTruthy();
    expect(seen.at(-1)).toBeInstanceOf(NetworkError);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('re-renders without the error once a refetch stores the data', async () => {
    server.failNext(404);
    await fetchFailing(1);
    mount();
    expect(screen.getByText('todo 1: 404')).toBeTruthy();
    await act(() => store.controller.fetch(TodoResource.get, { id: 1 }));
    expect(screen.getByText('todo 1: no error')).toBeTruthy();
  });

  it('a soft error (5xx) shows only while there is no data to show', async () => {
    mount(2);
    server.failNext(503);
    await fetchFailing(2);
    expect(screen.getByText('todo 2: 503')).toBeTruthy();

    await act(() => store.controller.fetch(TodoResource.get, { id: 2 }));
    server.failNext(503);
    await fetchFailing(2);
    // The data is still shown: as the other hooks, useError does not report the soft error.
    expect(screen.getByText('todo 2: no error')).toBeTruthy();
  });

  it('reads nothing for null arguments', async () => {
    server.failNext(404);
    await fetchFailing(1);
    mount(null);
    expect(screen.getByText('todo null: no error')).toBeTruthy();
    expect(seen).toEqual([undefined]);
  });
});
