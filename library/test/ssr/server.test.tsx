// @vitest-environment node
import { Writable } from 'node:stream';
import { Suspense } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { expect, it, vi } from 'vitest';
import { connectDevtools } from '../../src/devtools/index.js';
import { createStore } from '../../src/index.js';
import { DataProvider, useSuspense } from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { todoResource } from '../react/support.js';

const server = serverPerTest();

it('connectDevtools without a window gives a connection that does nothing: the store runs unobserved', async () => {
  expect(typeof window).toBe('undefined'); // as on a server
  const store = createStore();
  const observe = vi.spyOn(store, 'observe');
  const connection = connectDevtools(store);
  const other = connectDevtools(createStore());
  expect(connection.storeId).toMatch(/^store-[0-9a-z]+$/);
  expect(other.storeId).not.toBe(connection.storeId);
  // Nothing keeps the store's changes: a server making a store per request keeps no history.
  expect(observe).not.toHaveBeenCalled();
  const Todos = todoResource(server.url);
  const todo = await store.controller.fetch(Todos.get, { id: 1 });
  expect(todo.title).toBe('write tests');
  expect(connection.flush()).toBeUndefined();
  expect(connection.disconnect()).toBeUndefined();
  expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({ title: 'write tests' });
});

it('a DataProvider with its development default renders on the server, its reads fetched', async () => {
  const Todos = todoResource(server.url);
  function TodoTitle({ id }: { id: number }) {
    return <h1>{useSuspense(Todos.get, { id }).title}</h1>;
  }
  const html = await new Promise<string>((resolve, reject) => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    });
    sink.on('finish', () => resolve(text));
    const stream = renderToPipeableStream(
      <DataProvider>
        <Suspense fallback="loading">
          <TodoTitle id={3} />
        </Suspense>
      </DataProvider>,
      { onAllReady: () => stream.pipe(sink), onShellError: reject, onError: reject },
    );
  });
  expect(html).toContain('<h1>ship</h1>');
  expect(server.requests.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /todos/3']);
});
