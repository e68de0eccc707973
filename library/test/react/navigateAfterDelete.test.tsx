// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { expect, it } from 'vitest';
import { useController, useSuspense } from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { renderInApp, requestLines, todoResource } from './support.js';

// Not in the `preact` project: preact/compat's Suspense loses a state update made inside a
// suspended boundary (preactjs/preact#2159), and preact renders the store's update in a
// microtask of its own, before the app's `setOpen` that follows the awaited delete.
const server = serverPerTest();

it('a reader of a deleted entity is not fetched again when the app navigates away right after awaiting the delete', async () => {
  const TodoResource = todoResource(server.url);
  function Detail({ id }: { id: number }) {
    return <p>{useSuspense(TodoResource.get, { id }).title}</p>;
  }
  function Page() {
    const [open, setOpen] = useState(true);
    const { fetch } = useController();
    const remove = async () => {
      await fetch(TodoResource.delete, { id: 1 });
      setOpen(false);
    };
    return (
      <>
        <button type="button" onClick={remove}>
          delete
        </button>
        {open ? <Detail id={1} /> : <p>back to the list</p>}
      </>
    );
  }
  const log = renderInApp(<Page />);
  await screen.findByText('write tests');
  server.respondNext({ status: 204 });
  fireEvent.click(screen.getByRole('button'));
  await screen.findByText('back to the list');
  // Give a request that should not exist the time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(requestLines(server.requests)).toEqual(['GET /todos/1', 'DELETE /todos/1']);
  expect(log.shown).toBe(1);
});
