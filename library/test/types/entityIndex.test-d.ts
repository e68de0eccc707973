import { describe, expectTypeOf, it } from 'vitest';
import {
  type Controller,
  createStore,
  Entity,
  Index,
  type IndexParams,
  type State,
} from '../../src/index.js';
import { useCache, useSuspense } from '../../src/react/index.js';
import { Todo } from './support.js';

class User extends Entity {
  id = 0;
  username = '';
  email = '';
  age = 0;
  pk() {
    return this.id;
  }
  static override indexes = ['username', 'email'] as const;
}

const byUsername = new Index(User);

declare const controller: Controller;
declare const state: State;

describe('Index', () => {
  it('is read with its indexed fields, as data-client types them', () => {
    expectTypeOf<IndexParams<typeof User>>().toEqualTypeOf<{
      readonly username?: string;
      readonly email?: string;
    }>();
    expectTypeOf(byUsername.key).parameters.toEqualTypeOf<[IndexParams<typeof User>]>();
  });

  it('useCache and getResponse give the entity, or undefined', () => {
    expectTypeOf(useCache(byUsername, { username: 'bob' })).toEqualTypeOf<User | undefined>();
    expectTypeOf(useCache(byUsername, null)).toEqualTypeOf<User | undefined>();
    expectTypeOf(controller.getResponse(byUsername, { email: 'b@x' }, state).data).toEqualTypeOf<
      User | undefined
    >();
    expectTypeOf(createStore().controller.getResponse(byUsername, null, state).data).toEqualTypeOf<
      User | undefined
    >();
  });

  it('refuses a field that is not indexed, a wrong type, and fetching hooks', () => {
    // @ts-expect-error `age` is not one of User.indexes
    useCache(byUsername, { age: 3 });
    // @ts-expect-error `id` is the pk, not an index
    controller.getResponse(byUsername, { id: 1 }, state);
    // @ts-expect-error username is a string
    useCache(byUsername, { username: 5 });
    // @ts-expect-error the params are required
    useCache(byUsername);
    // @ts-expect-error an Index has nothing to fetch: it is read with useCache
    useSuspense(byUsername, { username: 'bob' });
  });

  it('is made of an entity that declares indexes', () => {
    // @ts-expect-error Todo declares no static indexes
    new Index(Todo);
    expectTypeOf(new Index(User, (params) => `${params.username}`)).toEqualTypeOf<
      Index<typeof User>
    >();
  });
});
