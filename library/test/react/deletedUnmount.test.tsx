// @vitest-environment jsdom
import { act, cleanup, fireEvent, renderHook, screen, waitFor } from '@testing-library/react';
import { type ReactNode, Suspense, useState } from 'react';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createStore } from '../../src/index.js';
import { DataProvider, useController, useSuspense } from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { renderInApp, requestLines, todoResource } from './support.js';

const server = serverPerTest();
afterEach(cleanup);

describe('a reader of a deleted entity that goes away in the same batch', () => {
  it('is not fetched again (the reader switches to null arguments, as data-client tests it)', async () => {
    const TodoResource = todoResource(server.url);
    const store = createStore();
    const thrown: unknown[] = [];
    const wrapper = ({ children }: { children: ReactNode }) => (
      <DataProvider store={store}>
        <Suspense fallback="loading">{children}</Suspense>
      </DataProvider>
    );
    const { result, rerender } = renderHook(
      ({ id }: { id: number | null }) => {
        try {
          // biome-ignore lint/correctness/useHookAtTopLevel: the test records what the hook throws
          const todo = useSuspense(TodoResource.get, id === null ? null : { id });
          // biome-ignore lint/correctness/useHookAtTopLevel: as above
          return [todo ?? null, useController().fetch] as const;
        } catch (suspension) {
          if (suspension instanceof Promise && thrown.at(-1) !== suspension)
            thrown.push(suspension);
          throw suspension;
        }
      },
      { initialProps: { id: 1 as number | null }, wrapper },
    );
    await waitFor(() => expect(result.current?.[0]?.title).toBe('write tests'));
    expect(thrown).toHaveLength(1);
    const [, fetch] = result.current;
    // The server acknowledges the delete but keeps the todo: a refetch would find it.
    server.respondNext({ status: 204 });
    await act(async () => {
      await fetch(TodoResource.delete, { id: 1 });
      rerender({ id: null });
    });
    expect(thrown).toHaveLength(1);
    expect(result.current[0]).toBeNull();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'DELETE /todos/1']);
  });
});

describe('suspending', () => {
  it('throws one promise per pending request, whatever the number of renders', async () => {
    const TodoResource = todoResource(server.url);
    server.setDelay(100);
    const thrown = new Set<unknown>();
    let renders = 0;
    function Title() {
      renders++;
      try {
        // biome-ignore lint/correctness/useHookAtTopLevel: the test records what the hook throws
        return <p>{useSuspense(TodoResource.get, { id: 2 }).title}</p>;
      } catch (suspension) {
        thrown.add(suspension);
        throw suspension;
      }
    }
    function Parent() {
      const [count, setCount] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setCount(count + 1)}>
            {count}
          </button>
          <Suspense fallback="loading">
            <Title />
          </Suspense>
        </>
      );
    }
    renderInApp(<Parent />);
    for (let i = 0; i < 3; i++) fireEvent.click(screen.getByRole('button'));
    await screen.findByText('fix bugs');
    // React renders the suspended Title again on each click; preact leaves a suspended subtree
    // alone until its promise settles (then it renders once more).
    if (inject('renderer') === 'preact') expect(renders).toBe(2);
    else expect(renders).toBeGreaterThan(2);
    expect(thrown.size).toBe(1);
    expect(requestLines(server.requests)).toEqual(['GET /todos/2']);
  });
});
