// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../src/index.js';
import {
  useCache,
  useDLE,
  useFetch,
  useLive,
  useSubscription,
  useSuspense,
} from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { renderInApp, requestLines, todoResource } from './support.js';

/** Hook behaviour found in an audit against data-client 0.9 and hostile inputs. */
const server = serverPerTest();
afterEach(cleanup);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a mutation given to a reading hook', () => {
  // Types refuse it; plain JavaScript, `as any` or a mix-up of hookifyResource members do not.
  // Each render would otherwise send the POST again (its answer is not stored as a result).
  const hooks = {
    useSuspense: (endpoint: never) => useSuspense(endpoint, {} as never),
    useDLE: (endpoint: never) => useDLE(endpoint, {} as never).data,
    useFetch: (endpoint: never) => useFetch(endpoint, {} as never),
    useSubscription: (endpoint: never) => useSubscription(endpoint, {} as never),
    useLive: (endpoint: never) => useLive(endpoint, {} as never),
  };
  for (const [name, hook] of Object.entries(hooks)) {
    it(`${name} throws a TypeError naming the hook and the mutation, and sends nothing`, async () => {
      const TodoResource = todoResource(server.url).extend({ getList: { pollFrequency: 1000 } });
      const push = TodoResource.getList.push;
      function Reader() {
        hook(push as never);
        return <p>rendered</p>;
      }
      const log = renderInApp(<Reader />);
      await wait(100);
      expect(requestLines(server.requests)).toEqual([]);
      expect(log.caught).toHaveLength(1);
      expect(log.caught[0]).toBeInstanceOf(TypeError);
      expect(String((log.caught[0] as Error).message)).toBe(
        `${name}: ${push.name} is a mutation (sideEffect), which a hook does not fetch; run it with controller.fetch(${push.name}, ...args)`,
      );
    });
  }
});

describe('resetEntireStore while a component suspends on a read', () => {
  it('the component fetches again at once, without waiting for the answer that is dropped', async () => {
    const TodoResource = todoResource(server.url);
    const store = createStore();
    // The first answer would come after the test's timeout.
    server.setDelay(60_000);
    function Title() {
      return <p>title: {useSuspense(TodoResource.get, { id: 1 }).title}</p>;
    }
    const log = renderInApp(<Title />, { store });
    await server.waitForRequest(1);
    server.setDelay(0);
    await act(() => store.controller.resetEntireStore());
    expect(
      await screen.findByText('title: write tests', undefined, { timeout: 2000 }),
    ).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'GET /todos/1']);
    // The reset is no error of the component's: its boundary caught nothing.
    expect(log.caught).toEqual([]);
  });
});

describe('useCache of an invalidIfStale endpoint', () => {
  it('gives the data while fresh and undefined once stale, as useSuspense would not show it', async () => {
    const Strict = todoResource(server.url, { dataExpiryLength: 50 }).get.extend({
      invalidIfStale: true,
    });
    const store = createStore();
    await store.controller.fetch(Strict, { id: 1 });
    function Cached() {
      const todo = useCache(Strict, { id: 1 });
      return <p>{todo ? `cached: ${todo.title}` : 'nothing cached'}</p>;
    }
    renderInApp(<Cached />, { store });
    expect(screen.getByText('cached: write tests')).toBeTruthy();
    cleanup();
    await wait(80);
    renderInApp(<Cached />, { store });
    expect(screen.getByText('nothing cached')).toBeTruthy();
    // useCache never fetches.
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });
});
