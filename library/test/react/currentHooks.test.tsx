// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, schema } from '../../src/index.js';
import { useQuery } from '../../src/react/index.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { App, FallbackLog, requestLines, Todo, todoResource } from './support.js';

const server = serverPerTest();
const TodoResource = perTest(() => todoResource(server.url));
afterEach(cleanup);

const todosOf = new schema.Query(new schema.All(Todo), (todos, { userId }: { userId: number }) =>
  todos.filter((todo) => todo.userId === userId),
);

describe('useQuery', () => {
  function Titles({ userId }: { userId: number }) {
    const todos = useQuery(todosOf, { userId });
    const first = useQuery(Todo, { id: 1 });
    return (
      <p>
        {todos === undefined ? 'none' : todos.map((todo) => todo.title).join(', ')} /{' '}
        {first?.title ?? 'no first'}
      </p>
    );
  }

  it('reads a schema.Query and an entity from the tables, never fetching, and follows changes', async () => {
    const store = createStore();
    render(
      <App store={store} log={new FallbackLog()}>
        <Titles userId={1} />
      </App>,
    );
    expect(screen.getByText('none / no first')).toBeTruthy();
    await act(() => store.controller.fetch(TodoResource.getList, {}));
    expect(screen.getByText('write tests, fix bugs / write tests')).toBeTruthy();
    await act(() => store.controller.set(Todo, { id: 1 }, { id: 1, title: 'renamed', userId: 1 }));
    expect(screen.getByText('renamed, fix bugs / renamed')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos']);
  });
});
