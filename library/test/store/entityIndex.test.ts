import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  type EntityClass,
  ExpiryStatus,
  Index,
  type IndexedEntity,
} from '../../src/index.js';
import { IndexedUser as User } from '../fixtures.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { Todo } from '../rest/support.js';

const byUsername = new Index(User);

const server = serverPerTest();
const UserResource = perTest(() =>
  createResource({ path: '/users/:id', schema: User, urlPrefix: server.url }),
);
const store = perTest(() => createStore());

/** The user `byUsername` reads for this username now, and its expiry. */
function lookUp(username: string) {
  return store.controller.getResponse(byUsername, { username }, store.getState());
}

describe('Index', () => {
  it('has the key data-client gives it, or the one it is given', () => {
    expect(byUsername.key({ username: 'ada' })).toBe('{"username":"ada"}');
    const custom = new Index(User, ({ username }) => `user named ${username}`);
    expect(custom.key({ username: 'ada' })).toBe('user named ada');
  });

  it('getResponse finds the stored entity by its indexed field, without a request', async () => {
    expect(lookUp('alan').data).toBeUndefined();
    await store.controller.fetch(UserResource.getList);
    const requests = server.requests.length;
    const { data, expiryStatus, expiresAt } = lookUp('alan');
    expect(data).toBeInstanceOf(User);
    expect(data).toMatchObject({ id: 2, username: 'alan', name: 'Alan Turing' });
    expect(expiryStatus).toBe(ExpiryStatus.Valid);
    // As fresh as the entity it found.
    const stored = store.getState().entitiesMeta.get('User')?.get('2');
    expect(expiresAt).toBe(stored?.expiresAt);
    expect(lookUp('grace').data).toBeUndefined();
    expect(store.controller.getResponse(byUsername, null, store.getState()).data).toBeUndefined();
    expect(server.requests.length).toBe(requests);
  });

  it('finds the entity whatever stored it, and gives the same object while it is unchanged', async () => {
    await store.controller.fetch(UserResource.get, { id: 1 });
    const first = lookUp('ada').data;
    expect(first?.name).toBe('Ada Lovelace');
    expect(lookUp('ada').data).toBe(first);
  });

  it('follows a change of the indexed field: the old value finds nothing', async () => {
    await store.controller.fetch(UserResource.getList);
    await store.controller.fetch(UserResource.partialUpdate, { id: 2 }, { username: 'turing' });
    expect(lookUp('alan').data).toBeUndefined();
    expect(lookUp('turing').data).toMatchObject({ id: 2, name: 'Alan Turing' });
    // The same goes for any read by that field, which looks in the same index.
    expect(store.controller.get(User, { username: 'alan' }, store.getState())).toBeUndefined();
    expect(store.controller.get(User, { username: 'turing' }, store.getState())?.id).toBe(2);
  });

  it('reads nothing once the entity is deleted', async () => {
    await store.controller.fetch(UserResource.getList);
    await store.controller.fetch(UserResource.delete, { id: 1 });
    expect(lookUp('ada').data).toBeUndefined();
  });

  it('cannot be fetched', async () => {
    const fetchIndex = store.controller.fetch as (index: unknown, ...args: unknown[]) => unknown;
    await expect(fetchIndex(byUsername, { username: 'ada' })).rejects.toThrow(
      'controller.fetch: only endpoints can be fetched; a Query or an Index is read with useCache',
    );
  });

  it('refuses an entity without indexes, and params that cannot find anything, by name', () => {
    const untyped = Index as unknown as new (schema: EntityClass) => Index<IndexedEntity, unknown>;
    expect(() => new untyped(Todo)).toThrow(
      new TypeError(
        'new Index(Todo): an Index looks an entity up by one of its static indexes, and Todo declares none',
      ),
    );
    const read = (params: unknown) =>
      store.controller.getResponse(
        byUsername as Index<typeof User, unknown>,
        params,
        store.getState(),
      );
    expect(() => read({ name: 'Ada Lovelace' })).toThrow(
      new TypeError('Index of User: `name` is not one of User.indexes (username)'),
    );
    expect(() => read('ada')).toThrow(
      new TypeError(
        'Index of User: read it with an object of indexed fields (username), not "ada"',
      ),
    );
  });
});
