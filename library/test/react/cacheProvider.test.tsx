// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Controller, createStore } from '../../src/index.js';
import {
  CacheProvider,
  type ProviderProps,
  useController,
  useSuspense,
} from '../../src/react/index.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { ErrorBoundary, FallbackLog, requestLines, todoResource } from './support.js';

const server = serverPerTest();
const TodoResource = perTest(() => todoResource(server.url));
afterEach(cleanup);

/** The controllers TodoTitle rendered with. */
let controllers: Controller[] = [];
afterEach(() => {
  controllers = [];
});

function TodoTitle({ id }: { id: number }) {
  controllers.push(useController());
  return <p>{useSuspense(TodoResource.get, { id }).title}</p>;
}

/** `<CacheProvider {...props}>` around a todo's title, in Suspense; returns the log. */
function renderProvider(props: Omit<ProviderProps, 'children'> = {}) {
  const log = new FallbackLog();
  const { container } = render(
    <ErrorBoundary onError={(error) => log.caught.push(error)}>
      <CacheProvider {...props}>
        <Suspense fallback={<log.Fallback />}>
          <TodoTitle id={1} />
        </Suspense>
      </CacheProvider>
    </ErrorBoundary>,
    { onCaughtError: () => {} },
  );
  return { log, container };
}

describe('CacheProvider (data-client 0.9’s name of the provider)', () => {
  it('provides a store of its own to the hooks below it', async () => {
    renderProvider();
    expect(await screen.findByText('write tests')).toBeTruthy();
    expect(controllers[0]).toBeInstanceOf(Controller);
    expect(new Set(controllers).size).toBe(1);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('starts from initialState: what it holds renders at once, without a request', async () => {
    const earlier = createStore();
    await earlier.controller.fetch(TodoResource.get, { id: 1 });
    const { log } = renderProvider({ initialState: earlier.getState() });
    expect(screen.getByText('write tests')).toBeTruthy();
    expect(log.shown).toBe(0);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });

  it('runs the store with the Controller class it is given', async () => {
    class AppController extends Controller {}
    renderProvider({ Controller: AppController });
    await screen.findByText('write tests');
    expect(controllers[0]).toBeInstanceOf(AppController);
  });

  it('accepts devButton and shows nothing for it: the RestLens panel is in the DevTools', async () => {
    const { container } = renderProvider({ devButton: 'bottom-right' });
    await screen.findByText('write tests');
    expect(container.innerHTML).toBe('<p>write tests</p>');
  });

  it('refuses managers with a TypeError that names the prop', () => {
    const withManagers = { managers: [] } as unknown as Omit<ProviderProps, 'children'>;
    const { log } = renderProvider(withManagers);
    expect(log.caught).toHaveLength(1);
    expect(log.caught[0]).toBeInstanceOf(TypeError);
    expect((log.caught[0] as Error).message).toMatch(
      /^CacheProvider: the managers prop has no counterpart in RestLens/,
    );
    expect(server.requests).toEqual([]);
  });
});
