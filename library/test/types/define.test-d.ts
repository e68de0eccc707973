import { describe, expectTypeOf, it } from 'vitest';
import { type Denormalize, Entity, type Schema, schema } from '../../src/index.js';
import { Todo } from './support.js';

class Post extends Entity {
  id = '';
  type = 'post';
  pk() {
    return this.id;
  }
}

describe('define(), as data-client 0.9 declares it', () => {
  it('each schema class takes any schema and returns nothing', () => {
    expectTypeOf(new schema.Object({}).define).toEqualTypeOf<(definition: Schema) => void>();
    expectTypeOf(new schema.Array(Todo).define).toEqualTypeOf<(definition: Schema) => void>();
    expectTypeOf(new schema.Values(Todo).define).toEqualTypeOf<(definition: Schema) => void>();
    expectTypeOf(new schema.Union({ todo: Todo }, 'type').define).toEqualTypeOf<
      (definition: Schema) => void
    >();
    expectTypeOf(new schema.All(Todo).define).toEqualTypeOf<(definition: Schema) => void>();
  });

  it("takes the documentation's forms: a cycle of objects, members known later", () => {
    const user = new schema.Object({});
    const post = new schema.Object({ author: user });
    user.define({ posts: new schema.Array(post) });
    const feed = new schema.Array({}, 'type');
    feed.define({ post: Post, todo: Todo });
    feed.define([Todo]);
    feed.define(new schema.Union({ post: Post, todo: Todo }, 'type'));
  });

  it('leaves the declared type as it was, and the schema read-only', () => {
    const list = new schema.Array(Todo);
    list.define(Post);
    expectTypeOf<Denormalize<typeof list>>().toEqualTypeOf<Todo[]>();
    expectTypeOf(list.schema).toEqualTypeOf<typeof Todo>();
    // @ts-expect-error `define` changes the definition
    list.schema = Post;
  });
});
