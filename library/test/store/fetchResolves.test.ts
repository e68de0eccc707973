import { describe, expect, it } from 'vitest';
import { createStore, Endpoint, Entity, type Schema, schema } from '../../src/index.js';

/**
 * What `controller.fetch` resolves to: the response as its schema reads it on its own, built in
 * one walk of the response (not normalized a second time), whatever the store holds.
 */

class Author extends Entity {
  id = '';
  name = '';
  books: Book[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Author';
}

class Book extends Entity {
  id = '';
  title = '';
  author = Author.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Book';
  static override schema = { author: Author };
}
Author.schema = { books: [Book] };

/** Renames `full_name` to `name`, as an API adapter would. */
class Person extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'Person';
  static override process(input: Record<string, unknown>) {
    const { full_name, ...rest } = input;
    return { ...rest, name: full_name };
  }
}

class Post extends Entity {
  id = '';
  type = 'post';
  pk() {
    return this.id;
  }
  static override key = 'Post';
}
class Link extends Entity {
  id = '';
  type = 'link';
  url = '';
  pk() {
    return this.id;
  }
  static override key = 'Link';
}

function answering<S extends Schema>(name: string, endpointSchema: S, answer: () => unknown) {
  return new Endpoint(async (_params?: object) => answer(), {
    name,
    schema: endpointSchema,
    key: () => name,
  });
}

describe('what controller.fetch resolves to', () => {
  it('instances of the classes, with what each class made of its object', async () => {
    const { controller } = createStore();
    const people = answering('people', [Person], () => [{ id: '1', full_name: 'Ada' }]);
    const read = await controller.fetch(people);
    expect(read[0]).toBeInstanceOf(Person);
    expect(read[0]).toMatchObject({ id: '1', name: 'Ada' });
  });

  it('a response holding itself (a read written back) resolves with the same cycle', async () => {
    const { controller } = createStore();
    const author: Record<string, unknown> = { id: 'a', name: 'Le Guin', books: [] };
    author.books = [{ id: 'b', title: 'Earthsea', author }];
    const read = await controller.fetch(answering('author', Author, () => author));
    expect(read).toBeInstanceOf(Author);
    const [book] = read.books;
    expect(book).toBeInstanceOf(Book);
    expect(book?.author).toBe(read);
  });

  it("the answer's own values, not the store's newer ones", async () => {
    const store = createStore();
    let answer: (value: unknown) => void = () => {};
    const slow = new Endpoint(() => new Promise((resolve) => (answer = resolve)), {
      name: 'slow',
      schema: Person,
      key: () => 'slow',
    });
    const pending = store.controller.fetch(slow);
    // Written while the slow request is out: newer than its answer, so the store keeps it.
    const rename = answering('rename', Person, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 2));
    await store.controller.setResponse(rename, { id: '1', full_name: 'Ada Lovelace' });
    answer({ id: '1', full_name: 'Ada' });
    expect(await pending).toMatchObject({ name: 'Ada' });
    expect(store.getState().entities.get('Person')?.get('1')).toMatchObject({
      name: 'Ada Lovelace',
    });
  });

  it('a union list: each item as the member its attribute names; an unknown one as it came', async () => {
    const feed = new schema.Array({ post: Post, link: Link }, 'type');
    const { controller } = createStore();
    const read = await controller.fetch(
      answering('feed', feed, () => [
        { id: '1', type: 'post' },
        { id: '2', type: 'link', url: 'https://example.com' },
        { id: '3', type: 'poll' },
      ]),
    );
    expect(read[0]).toBeInstanceOf(Post);
    expect(read[1]).toBeInstanceOf(Link);
    expect(read[1]).toMatchObject({ url: 'https://example.com' });
    expect(read[2]).toEqual({ id: '3', type: 'poll' });
  });

  it('a collection nested in an object: the listed items', async () => {
    const page = { results: new schema.Collection([Person]), total: 0 };
    const { controller } = createStore();
    const read = await controller.fetch(
      answering('page', page, () => ({ results: [{ id: '1', full_name: 'Ada' }], total: 1 })),
    );
    expect(read.total).toBe(1);
    expect(read.results.map((person) => person.name)).toEqual(['Ada']);
  });

  it('schema.All: the entities of the answer, not the whole table', async () => {
    const store = createStore();
    await store.controller.fetch(answering('one', Person, () => ({ id: '9', full_name: 'Bo' })));
    const all = answering('all', new schema.All(Person), () => [{ id: '1', full_name: 'Ada' }]);
    const read = await store.controller.fetch(all);
    expect(read.map((person) => person.id)).toEqual(['1']);
  });
});
