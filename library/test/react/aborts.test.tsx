// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../src/index.js';
import { useSuspense } from '../../src/react/index.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { renderInApp, todoResource } from './support.js';

const server = serverPerTest();
const TodoResource = perTest(() => todoResource(server.url));
afterEach(cleanup);

function TodoTitle({ id }: { id: number }) {
  return <p>{useSuspense(TodoResource.get, { id }).title}</p>;
}

describe('a component reading what an aborted caller also asked for', () => {
  it('shows the data: the abort rejects only the caller that aborted, and stores no error', async () => {
    const store = createStore();
    const abort = new AbortController();
    server.setDelay(300);
    const aborted = store.controller
      .fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 })
      .catch((error: unknown) => error);
    const log = renderInApp(<TodoTitle id={1} />, { store });
    await server.waitForRequest();
    abort.abort();
    expect(await aborted).toBe(abort.signal.reason);
    expect(await screen.findByText('write tests')).toBeTruthy();
    expect(log.caught).toEqual([]);
    expect(server.requests).toHaveLength(1);
    const { getState } = store;
    expect(store.controller.getError(TodoResource.get, { id: 1 }, getState())).toBeUndefined();
  });

  it('shows the data when the component asked first and the caller that joined aborts', async () => {
    const store = createStore();
    const abort = new AbortController();
    server.setDelay(300);
    const log = renderInApp(<TodoTitle id={1} />, { store });
    await server.waitForRequest();
    const aborted = store.controller
      .fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 })
      .catch((error: unknown) => error);
    abort.abort();
    expect(await aborted).toBe(abort.signal.reason);
    expect(await screen.findByText('write tests')).toBeTruthy();
    expect(log.caught).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
