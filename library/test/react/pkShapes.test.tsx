// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createResource, createStore } from '../../src/index.js';
import { useSuspense } from '../../src/react/index.js';
import { Note } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { isShown, renderInApp, requestLines } from './support.js';

const server = serverPerTest();
afterEach(cleanup);

describe('useSuspense with pks of every shape', () => {
  it('reads each entity by its pk, and suspends again for the one deleted', async () => {
    const Notes = createResource({ path: '/echo/:id', schema: Note, urlPrefix: server.url });
    const store = createStore();
    function Shown({ id }: { id: string | number }) {
      const note = useSuspense(Notes.get, { id });
      return <p>note [{note.id}]</p>;
    }
    const ids = ['__proto__', 'constructor', 'a/b?c#d', '%2e', 'ü 😀', 5];
    const log = renderInApp(
      ids.map((id) => <Shown key={String(id)} id={id} />),
      { store },
    );
    await waitFor(() => expect(ids.every((id) => isShown(`note [${id}]`))).toBe(true));
    expect(requestLines(server.requests)).toEqual([
      'GET /echo/__proto__',
      'GET /echo/constructor',
      'GET /echo/a%2Fb%3Fc%23d',
      'GET /echo/%252e',
      'GET /echo/%C3%BC%20%F0%9F%98%80',
      'GET /echo/5',
    ]);
    expect(log.caught).toEqual([]);

    await act(() => store.controller.fetch(Notes.delete, { id: '__proto__' }));
    await waitFor(() => expect(isShown('note [__proto__]')).toBe(true));
    expect(requestLines(server.requests).slice(6)).toEqual([
      'DELETE /echo/__proto__',
      'GET /echo/__proto__',
    ]);
    expect(log.shown).toBe(2);
  });

  it('an empty pk is refused by the error boundary, naming the parameter, without a request', async () => {
    const Notes = createResource({ path: '/echo/:id', schema: Note, urlPrefix: server.url });
    function Shown({ id }: { id: string }) {
      const note = useSuspense(Notes.get, { id });
      return <p>note [{note.id}]</p>;
    }
    const log = renderInApp(<Shown id="" />);
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeNull());
    expect(screen.getByRole('alert').textContent).toBe(
      'error: Note.get: the URL parameter "id" cannot be "" (an empty path segment would address another resource) (status undefined)',
    );
    expect(log.caught[0]).toBeInstanceOf(TypeError);
    expect(server.requests).toEqual([]);
  });
});
