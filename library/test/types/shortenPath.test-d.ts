import { describe, expectTypeOf, it } from 'vitest';
import { createResource, Entity, type ShortenPath } from '../../src/index.js';

/**
 * Spec 2.5 at the type level: the list members' path type is the path without its last
 * parameter, for every form a template takes. paths.test.ts checks `shortenPath` on the same
 * templates, so the types and the runtime paths agree.
 */
describe('ShortenPath (spec 2.5)', () => {
  it("shortens '/:first/:second' to '/:first' and '/:first' to '/' (rules 2, 3)", () => {
    expectTypeOf<ShortenPath<'/:first/:second'>>().toEqualTypeOf<'/:first'>();
    expectTypeOf<ShortenPath<'/:first'>>().toEqualTypeOf<'/'>();
    expectTypeOf<ShortenPath<':id'>>().toEqualTypeOf<'/'>();
  });

  it('drops the last parameter with whatever follows it, and one slash before it (rule 1)', () => {
    expectTypeOf<ShortenPath<'/todos/:id?'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf<ShortenPath<'/todos/:id(\\d+)'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf<ShortenPath<'todos/:id'>>().toEqualTypeOf<'todos'>();
    expectTypeOf<
      ShortenPath<'/users/:userId/todos/:id.json'>
    >().toEqualTypeOf<'/users/:userId/todos'>();
    expectTypeOf<ShortenPath<'/todos/:id/detail'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf<ShortenPath<'/:group/todos'>>().toEqualTypeOf<'/'>();
    expectTypeOf<ShortenPath<'/todos/:id/'>>().toEqualTypeOf<'/todos'>();
  });

  it('a path of type string stays string', () => {
    expectTypeOf<ShortenPath<string>>().toEqualTypeOf<string>();
  });

  it("the list members' parameters are those of the shortened path (rule 4)", () => {
    class Todo extends Entity {
      id = 0;
      pk() {
        return this.id;
      }
    }
    const Top = createResource({ path: '/:id', schema: Todo });
    expectTypeOf(Top.getList.path).toEqualTypeOf<'/'>();
    expectTypeOf(Top.get.path).toEqualTypeOf<'/:id'>();
    const Nested = createResource({ path: '/users/:userId/todos/:id', schema: Todo });
    expectTypeOf(Nested.getList.push.path).toEqualTypeOf<'/users/:userId/todos'>();
    // @ts-expect-error the list needs the user
    Nested.getList({});
    Nested.getList({ userId: 1 });
  });
});
