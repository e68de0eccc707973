// @vitest-environment jsdom
import { Writable } from 'node:stream';
import { act } from '@testing-library/react';
import { type ReactElement, Suspense } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToPipeableStream } from 'react-dom/server';
import { afterEach, expect, it, vi } from 'vitest';
import type { Store } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';

const server = serverPerTest();
let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

/** The HTML of `element` once everything in it has rendered (its reads fetched on the way). */
function renderOnServer(element: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString('utf8');
        done();
      },
    });
    sink.on('finish', () => resolve(html));
    const stream = renderToPipeableStream(element, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: reject,
    });
  });
}

/**
 * The app as the server or the browser loads it: each its own instance of the library and of the
 * app's modules, as two processes would have (one instance would meet, in the provider's context,
 * the server renderer it was last rendered by).
 */
async function loadApp(where: 'server' | 'client') {
  vi.resetModules();
  const library = await import('../../src/index.js');
  const { DataProvider, useSuspense } = await import('../../src/react/index.js');
  const { todoResource } = await import('../react/support.js');
  const Todos = todoResource(server.url);
  function TodoTitles({ userId }: { userId: number }) {
    const todos = useSuspense(Todos.getList, { userId });
    return (
      <ul>
        {todos.map((todo) => (
          <li key={todo.id}>{todo.title}</li>
        ))}
      </ul>
    );
  }
  const page = (store: Store) => (
    // The development default of DataProvider: its devtools connect where there is a window.
    <DataProvider store={store}>
      <Suspense fallback={<Fallback where={where} />}>
        <TodoTitles userId={1} />
      </Suspense>
    </DataProvider>
  );
  return { ...library, page };
}

const fallbacks: string[] = [];
function Fallback({ where }: { where: string }) {
  fallbacks.push(where);
  return <p>loading</p>;
}

it('a page rendered on the server hydrates from its state as JSON: no request, no fallback, no mismatch', async () => {
  const onServer = await loadApp('server');
  const serverStore = onServer.createStore();
  const html = await renderOnServer(onServer.page(serverStore));
  expect(server.requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
    'GET /todos?userId=1',
  ]);
  expect(html).toContain('<li>write tests</li><li>fix bugs</li>');
  const json = JSON.stringify(onServer.stateToJSON(serverStore.getState()));

  const inBrowser = await loadApp('client');
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const items = [...container.querySelectorAll('li')];
  const consoleErrors = vi.spyOn(console, 'error');
  const recoverable: unknown[] = [];
  fallbacks.length = 0;
  const clientStore = inBrowser.createStore({ initialState: inBrowser.stateFromJSON(json) });
  await act(async () => {
    root = hydrateRoot(container, inBrowser.page(clientStore), {
      onRecoverableError: (error) => recoverable.push(error),
    });
  });

  // Hydrated: the server's elements were kept, not rendered again.
  expect([...container.querySelectorAll('li')]).toEqual(items);
  expect(items.every((item) => item.isConnected)).toBe(true);
  expect(container.textContent).toBe('write testsfix bugs');
  expect(fallbacks).toEqual([]);
  expect(recoverable).toEqual([]);
  expect(consoleErrors).not.toHaveBeenCalled();
  // The client read what the server fetched.
  expect(server.requests).toHaveLength(1);
});
