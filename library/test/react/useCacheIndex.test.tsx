// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createResource, createStore, Index, type Store } from '../../src/index.js';
import { DataProvider, useCache } from '../../src/react/index.js';
import { IndexedUser as User } from '../fixtures.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { requestLines } from './support.js';

const byUsername = new Index(User);

const server = serverPerTest();
const UserResource = perTest(() =>
  createResource({ path: '/users/:id', schema: User, urlPrefix: server.url }),
);
afterEach(cleanup);

function Named({ username }: { username: string | null }) {
  const user = useCache(byUsername, username === null ? null : { username });
  return <p>{`${username}: ${user === undefined ? 'nobody' : user.name}`}</p>;
}

function mount(store: Store) {
  render(
    <DataProvider store={store}>
      <Named username="alan" />
      <Named username="turing" />
      <Named username={null} />
    </DataProvider>,
  );
}

describe('useCache(new Index(User), { username })', () => {
  it('shows nobody until a user of that name is stored, then that user, without a request', async () => {
    const store = createStore();
    mount(store);
    expect(screen.getByText('alan: nobody')).toBeTruthy();
    await act(() => store.controller.fetch(UserResource.getList));
    expect(screen.getByText('alan: Alan Turing')).toBeTruthy();
    expect(screen.getByText('turing: nobody')).toBeTruthy();
    expect(screen.getByText('null: nobody')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /users']);
  });

  it('re-renders when the indexed field changes: the old name finds nobody, the new one the user', async () => {
    const store = createStore();
    await store.controller.fetch(UserResource.getList);
    mount(store);
    expect(screen.getByText('alan: Alan Turing')).toBeTruthy();
    await act(() =>
      store.controller.fetch(UserResource.partialUpdate, { id: 2 }, { username: 'turing' }),
    );
    expect(screen.getByText('alan: nobody')).toBeTruthy();
    expect(screen.getByText('turing: Alan Turing')).toBeTruthy();
  });

  it('re-renders when another field of the user found changes', async () => {
    const store = createStore();
    await store.controller.fetch(UserResource.getList);
    mount(store);
    await act(() =>
      store.controller.fetch(UserResource.partialUpdate, { id: 2 }, { name: 'A. M. Turing' }),
    );
    expect(screen.getByText('alan: A. M. Turing')).toBeTruthy();
  });
});
