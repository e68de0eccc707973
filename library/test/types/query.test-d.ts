import { describe, expectTypeOf, it } from 'vitest';
import {
  type Controller,
  type Denormalize,
  Entity,
  Query,
  type State,
  schema,
} from '../../src/index.js';
import { useCache, useSuspense } from '../../src/react/index.js';
import { Todo } from './support.js';

class Post extends Entity {
  id = 0;
  type = 'post' as const;
  pk() {
    return this.id;
  }
}
class Comment extends Entity {
  id = 0;
  type = 'comment' as const;
  pk() {
    return this.id;
  }
}

const todosOf = new Query(new schema.All(Todo), (todos, { userId }: { userId?: number } = {}) =>
  todos.filter((todo) => todo.userId === userId),
);
const todoCount = new Query(new schema.All(Todo), (todos) => todos.length);
const everyTodo = new Query(new schema.All(Todo));

declare const controller: Controller;
declare const state: State;

describe('schema.All', () => {
  it('reads as a list of its entities', () => {
    expectTypeOf<Denormalize<schema.All<typeof Todo>>>().toEqualTypeOf<Todo[]>();
    const feed = new schema.All({ post: Post, comment: Comment }, 'type');
    expectTypeOf<Denormalize<typeof feed>>().toEqualTypeOf<(Post | Comment)[]>();
  });

  it('is an endpoint schema like any other', () => {
    expectTypeOf(controller.get(new schema.All(Todo), state)).toEqualTypeOf<Todo[] | undefined>();
  });
});

describe('Query', () => {
  it('takes its arguments and result from process', () => {
    expectTypeOf(todosOf.key).parameters.toEqualTypeOf<[{ userId?: number }?]>();
    expectTypeOf(todoCount.key).parameters.toEqualTypeOf<[]>();
    expectTypeOf(todosOf.process).returns.toEqualTypeOf<Todo[]>();
    expectTypeOf(everyTodo.process).returns.toEqualTypeOf<Todo[]>();
  });

  it('getResponse and useCache give what process returns, or undefined', () => {
    expectTypeOf(controller.getResponse(todosOf, { userId: 1 }, state).data).toEqualTypeOf<
      Todo[] | undefined
    >();
    expectTypeOf(controller.getResponse(todoCount, state).data).toEqualTypeOf<number | undefined>();
    expectTypeOf(useCache(todosOf, { userId: 1 })).toEqualTypeOf<Todo[] | undefined>();
    expectTypeOf(useCache(todosOf)).toEqualTypeOf<Todo[] | undefined>();
    expectTypeOf(useCache(todoCount)).toEqualTypeOf<number | undefined>();
    expectTypeOf(useCache(todosOf, null)).toEqualTypeOf<Todo[] | undefined>();
  });

  it('refuses wrong arguments, and fetching hooks', () => {
    // @ts-expect-error userId is a number
    useCache(todosOf, { userId: 'one' });
    // @ts-expect-error a Query has nothing to fetch: it is read with useCache
    useSuspense(todoCount);
  });
});
