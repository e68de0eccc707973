// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, RestEndpoint } from '../../src/index.js';
import { DataProvider, useCache, useDLE, useSuspense } from '../../src/react/index.js';
import type { Store } from '../../src/store/createStore.js';
import { serverPerTest } from '../helpers/perTest.js';
import { renderInApp, requestLines, Todo, todoResource } from './support.js';

const server = serverPerTest();
let TodoResource: ReturnType<typeof todoResource>;
let store: Store;

/** `GET /todos` answered as a page: the todos and where the next page is. */
function pagedList() {
  return TodoResource.getList.extend({
    schema: { results: TodoResource.getList.schema, nextPage: '', prevPage: '' },
  });
}

const page = {
  results: [{ id: 1, title: 'write tests', completed: false, userId: 1 }],
  nextPage: '2',
  prevPage: '',
};

beforeEach(() => {
  TodoResource = todoResource(server.url);
  store = createStore();
});
afterEach(cleanup);

describe('an object schema read before anything is stored, as data-client reads it', () => {
  it('useSuspense with null args gives the shape, with its placeholders, to destructure', async () => {
    const List = pagedList();
    const shown: unknown[] = [];
    let start: () => void = () => {};
    function Page() {
      const [ready, setReady] = useState(false);
      start = () => setReady(true);
      const { results, nextPage, prevPage } = useSuspense(List, ready ? {} : null);
      shown.push({ results, nextPage, prevPage });
      return <p>{results ? `${results.length} todos, next ${nextPage}` : 'not yet'}</p>;
    }
    server.respondNext({ body: page });
    renderInApp(<Page />, { store });
    expect(screen.getByText('not yet')).toBeTruthy();
    expect(shown[0]).toEqual({ results: undefined, nextPage: '', prevPage: '' });
    act(() => start());
    expect(await screen.findByText('1 todos, next 2')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos']);
  });

  it('useDLE gives the shape while it loads, then the page', async () => {
    const List = pagedList();
    const shown: unknown[] = [];
    function Page() {
      const { data, loading } = useDLE(List, {});
      shown.push({ loading, nextPage: data.nextPage, results: data.results });
      return <p>{loading ? 'loading' : `next ${data.nextPage}`}</p>;
    }
    server.respondNext({ body: page });
    render(
      <DataProvider store={store}>
        <Page />
      </DataProvider>,
    );
    expect(shown[0]).toEqual({ loading: true, nextPage: '', results: undefined });
    expect(await screen.findByText('next 2')).toBeTruthy();
  });

  it('useCache gives the shape before the first load and with null args', () => {
    const List = pagedList();
    const read: unknown[] = [];
    function Page({ ready }: { ready: boolean }) {
      read.push(useCache(List, ready ? {} : null));
      return null;
    }
    const { rerender } = render(
      <DataProvider store={store}>
        <Page ready={false} />
      </DataProvider>,
    );
    rerender(
      <DataProvider store={store}>
        <Page ready />
      </DataProvider>,
    );
    const shape = { results: undefined, nextPage: '', prevPage: '' };
    expect(read).toEqual([shape, shape]);
    expect(server.requests).toEqual([]);
  });
});

describe('a result found from the tables when the schema is an object of entities', () => {
  /** A todo with details; the server has no such route: it must never be requested. */
  function todoDetail() {
    return new RestEndpoint({
      urlPrefix: server.url,
      path: '/todo-details/:id',
      schema: { data: Todo, meta: { total: 0, next: null, labels: { title: '' } } },
    });
  }

  it('useCache reads the entity another endpoint stored, with the placeholders', async () => {
    const Detail = todoDetail();
    await store.controller.fetch(TodoResource.getList, {});
    let read: unknown;
    function Show() {
      read = useCache(Detail, { id: 2 });
      return null;
    }
    render(
      <DataProvider store={store}>
        <Show />
      </DataProvider>,
    );
    expect(read).toEqual({
      data: expect.any(Todo),
      meta: { total: 0, next: null, labels: { title: '' } },
    });
    expect((read as { data: Todo }).data.id).toBe(2);
  });

  it('useSuspense shows it without fetching, and the same object at every render', async () => {
    const Detail = todoDetail();
    await store.controller.fetch(TodoResource.getList, {});
    const shown: unknown[] = [];
    let renderAgain: () => void = () => {};
    function Show() {
      const [count, setCount] = useState(0);
      renderAgain = () => setCount(count + 1);
      const { data } = useSuspense(Detail, { id: 1 });
      shown.push(data);
      return <p>title: {data.title}</p>;
    }
    const log = renderInApp(<Show />, { store });
    expect(screen.getByText('title: write tests')).toBeTruthy();
    act(() => renderAgain());
    expect(shown).toHaveLength(2);
    expect(shown[1]).toBe(shown[0]);
    expect(log.shown).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requestLines(server.requests)).toEqual(['GET /todos']);
  });

  it('is fetched when an entity it holds is not stored', async () => {
    const Detail = todoDetail();
    await store.controller.fetch(TodoResource.getList, {});
    server.respondNext({ body: { data: { id: 9, title: 'nine' }, meta: { total: 1 } } });
    function Show() {
      const { data } = useSuspense(Detail, { id: 9 });
      return <p>title: {data.title}</p>;
    }
    renderInApp(<Show />, { store });
    expect(await screen.findByText('title: nine')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos', 'GET /todo-details/9']);
  });
});
