import { describe, expectTypeOf, it } from 'vitest';
import { Endpoint, Entity, RestEndpoint, schema } from '../../src/index.js';
import { useController, useSuspense } from '../../src/react/index.js';

/**
 * Type examples of data-client 0.9's documentation (rest/api/RestEndpoint.md, rest/api/All.md,
 * core/api/useSuspense.md), which type-check with @data-client/rest 0.9.9 as written.
 */

class Todo extends Entity {
  id = '';
  title = '';
  completed = false;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

interface TodoInterface {
  title: string;
  completed: boolean;
}

describe('RestEndpoint "Typing"', () => {
  it('body and searchParams given as values type the arguments by their fields’ types', () => {
    // rest/api/All.md: `body: { name: '' }`, called with the name typed in.
    const createUser = new RestEndpoint({
      path: '/users',
      schema: Todo,
      body: { name: '' },
      method: 'POST',
    });
    expectTypeOf(createUser).toBeCallableWith({ name: 'ABC' });
    expectTypeOf(useController().fetch).toBeCallableWith(createUser, { name: 'ABC' });
    // @ts-expect-error `name` is a string
    createUser({ name: 5 });
    // core/api/useSuspense.md "Embedded data": `searchParams: { page: '' }`.
    const getPosts = new RestEndpoint({
      path: '/post',
      searchParams: { page: '' },
      schema: { results: new schema.Collection([Todo]), nextPage: '', lastPage: '' },
    });
    expectTypeOf(useSuspense(getPosts, { page: '2' })).toEqualTypeOf<{
      results: Todo[];
      nextPage: string;
      lastPage: string;
    }>();
    // @ts-expect-error `page` is a string
    getPosts({ page: 2 });
  });

  it('declared types are kept as declared', () => {
    const getComments = new RestEndpoint({
      path: '/posts/:postId/comments',
      schema: new schema.Collection([Todo]),
      searchParams: {} as { sortBy?: 'votes' | 'recent' } | undefined,
    });
    expectTypeOf(getComments).toBeCallableWith({ postId: '5', sortBy: 'votes' });
    // @ts-expect-error `sortBy` is 'votes' or 'recent'
    getComments({ postId: '5', sortBy: 'oldest' });
    const update = new RestEndpoint({
      path: '/:id',
      method: 'PUT',
      body: {} as TodoInterface,
    });
    expectTypeOf(update).toBeCallableWith({ id: 5 }, { title: 'updated', completed: true });
    // @ts-expect-error `completed` is a boolean
    update({ id: 5 }, { title: 'updated', completed: 'yes' });
  });

  it('path parameters, an optional body and `body: undefined`', () => {
    const getRoot = new RestEndpoint({ path: '/' });
    expectTypeOf(getRoot).toBeCallableWith();
    const getById = new RestEndpoint({ path: '/:id' });
    expectTypeOf(getById).toBeCallableWith({ id: 5 });
    expectTypeOf(getById).toBeCallableWith({ id: '5' });
    const standardCreate = new RestEndpoint({ path: '/:id', method: 'POST' });
    expectTypeOf(standardCreate).toBeCallableWith({ id: '1' }, { any: 'payload' });
    const rpc = new RestEndpoint({ path: '/:id', method: 'PUT', body: undefined });
    expectTypeOf(rpc).toBeCallableWith({ id: 5 });
  });

  it('process sets the result type; without process, schema does', async () => {
    const getTodo = new RestEndpoint({
      path: '/',
      process(value): TodoInterface {
        return value;
      },
    });
    expectTypeOf(await getTodo()).toEqualTypeOf<TodoInterface>();
    expectTypeOf(await useController().fetch(getTodo)).toEqualTypeOf<TodoInterface>();
    const getTodoEntity = new RestEndpoint({ path: '/', schema: Todo });
    expectTypeOf(useSuspense(getTodoEntity)).toEqualTypeOf<Todo>();
    expectTypeOf(await useController().fetch(getTodoEntity)).toEqualTypeOf<Todo>();
  });
});

describe('useSuspense of a plain Endpoint (core/api/useSuspense.md, Promise tab)', () => {
  it('takes the function’s arguments and returns what it resolves to', () => {
    const getProfile = new Endpoint(
      (id: number) =>
        Promise.resolve({ id, fullName: 'Jing Chen', bio: 'Creator of Flux Architecture' }),
      {
        key(id: number) {
          return `getProfile${id}`;
        },
      },
    );
    expectTypeOf(useSuspense(getProfile, 1)).toEqualTypeOf<{
      id: number;
      fullName: string;
      bio: string;
    }>();
    // @ts-expect-error the id is a number
    useSuspense(getProfile, '1');
  });
});
