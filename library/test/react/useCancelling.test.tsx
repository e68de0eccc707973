// @vitest-environment jsdom
// Not in the `preact` project: under preact/compat the request of the arguments the component
// left is not aborted (the cause is not found yet); React 18 and 19 abort it.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../src/index.js';
import { useCancelling, useSuspense } from '../../src/react/index.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { App, FallbackLog, isShown, requestLines, todoResource } from './support.js';

const server = serverPerTest();
const TodoResource = perTest(() => todoResource(server.url));
afterEach(cleanup);

describe('useCancelling', () => {
  function Title({ id }: { id: number }) {
    const todo = useSuspense(useCancelling(TodoResource.get, { id }), { id });
    return <p>{todo.title}</p>;
  }

  it('aborts the request of arguments the component left, and shows the latest', async () => {
    const store = createStore();
    const log = new FallbackLog();
    const view = (id: number) => (
      <App store={store} log={log}>
        <Title id={id} />
      </App>
    );
    const { rerender } = render(view(1));
    expect(await screen.findByText('write tests')).toBeTruthy();
    server.setDelay(300);
    rerender(view(2));
    await server.waitForRequest(2);
    rerender(view(3));
    await waitFor(() => expect(isShown('ship')).toBe(true), { timeout: 3000 });
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/2', 'GET /todos/3']);
    await waitFor(() => expect(server.requests[1]?.closedEarly).toBe(true));
    expect(server.requests[2]?.closedEarly).toBeUndefined();
    expect(log.caught).toEqual([]);
    // Nothing was stored for the request given up on.
    const { getState } = store;
    expect(
      store.controller.getResponse(TodoResource.get, { id: 2 }, getState()).data,
    ).toBeUndefined();
  });

  it('keeps one endpoint while the arguments stay the same', () => {
    const seen: unknown[] = [];
    function Keep({ id }: { id: number }) {
      seen.push(useCancelling(TodoResource.get, { id }));
      return null;
    }
    const { rerender } = render(<Keep id={1} />);
    rerender(<Keep id={1} />);
    rerender(<Keep id={2} />);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[1]);
    expect((seen[1] as { signal: AbortSignal }).signal.aborted).toBe(true);
    expect((seen[2] as { signal: AbortSignal }).signal.aborted).toBe(false);
  });
});
