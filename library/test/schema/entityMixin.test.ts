import { describe, expect, it } from 'vitest';
import { createResource, createStore, Entity, schema } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';

const server = serverPerTest();

/** The fields of a todo, declared by a class that knows nothing of RestLens. */
class TodoData {
  id = 0;
  title = '';
  completed = false;
  userId = 0;
}

class UserData {
  id = 0;
  name = '';
}

class User extends schema.Entity(UserData, { key: 'User' }) {}

describe('schema.Entity(Base, options): an entity from a class of fields', () => {
  it('a resource over it fetches, stores and reads instances of the class, with the defaults of its fields', async () => {
    class Todo extends schema.Entity(TodoData, { pk: 'id', key: 'Todo' }) {}
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
    });
    const { controller, getState } = createStore();
    const todo = await controller.fetch(TodoResource.get, { id: 1 });
    expect(todo).toBeInstanceOf(Todo);
    expect(todo).toBeInstanceOf(TodoData);
    expect(todo).toMatchObject({ id: 1, title: 'write tests', completed: false, userId: 1 });
    expect(todo.pk()).toBe(1);
    const todos = await controller.fetch(TodoResource.getList);
    expect(todos.map((each) => each.id)).toEqual([1, 2, 3]);
    // One entity table, under the key given: the list's todo 1 is the get's todo 1.
    expect(controller.getResponse(TodoResource.get, { id: 1 }, getState()).data).toBe(
      controller.getResponse(TodoResource.getList, getState()).data?.[0],
    );
    await controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'renamed' });
    const list = controller.getResponse(TodoResource.getList, getState()).data;
    expect(list?.[1]).toMatchObject({ id: 2, title: 'renamed', completed: true });
    await controller.setResponse(TodoResource.get, { id: 9 }, { id: 9, title: 'partial' });
    expect(controller.getResponse(TodoResource.get, { id: 9 }, getState()).data).toMatchObject({
      id: 9,
      title: 'partial',
      completed: false,
      userId: 0,
    });
    await controller.fetch(TodoResource.delete, { id: 3 });
    expect(
      controller.getResponse(TodoResource.getList, getState()).data?.map((each) => each.id),
    ).toEqual([1, 2]);
  });

  it('nests the entities its schema names, and runs the lifecycle statics it is given', async () => {
    class Post extends schema.Entity(
      class PostData {
        id = '';
        title = '';
        author: User | null = null;
        tags: string[] = [];
      },
      {
        key: 'Post',
        schema: { author: User },
        process: (input) => ({ ...input, tags: String(input.tags ?? '').split(',') }),
      },
    ) {}
    const getPost = createResource({ path: '/posts/:id', schema: Post, urlPrefix: server.url }).get;
    const { controller, getState } = createStore();
    await controller.setResponse(
      getPost,
      { id: 'p1' },
      { id: 'p1', title: 'Mixins', author: { id: 7, name: 'Ada' }, tags: 'a,b' },
    );
    const post = controller.getResponse(getPost, { id: 'p1' }, getState()).data;
    expect(post?.author).toBeInstanceOf(User);
    expect(post?.author?.name).toBe('Ada');
    expect(post?.tags).toEqual(['a', 'b']);
    expect(getState().entities.get('User')?.get('7')).toEqual({ id: 7, name: 'Ada' });
  });

  it('pk: a field (default `id`), a function of the instance, or the base class’s own pk()', () => {
    class ByField extends schema.Entity(
      class {
        slug = '';
      },
      { pk: 'slug', key: 'ByField' },
    ) {}
    class ByFunction extends schema.Entity(TodoData, {
      pk: (todo) => `${todo.userId}-${todo.id}`,
      key: 'ByFunction',
    }) {}
    class Own extends schema.Entity(
      class {
        code = 'x';
        pk() {
          return `own-${this.code}`;
        }
      },
      { key: 'Own' },
    ) {}
    class ById extends schema.Entity(TodoData, { key: 'ById' }) {}
    expect(ByField.pk({ slug: 'hello' })).toBe('hello');
    expect(ByFunction.pk({ id: 3, userId: 2 })).toBe('2-3');
    expect(Own.pk({ code: 'y' })).toBe('own-y');
    expect(ById.pk({ id: 5 })).toBe('5');
    expect(ById.pk({})).toBeUndefined();
  });

  it('key: the option, else the class name (of the base, or of a class extending the mixin)', () => {
    const Mixed = schema.Entity(TodoData);
    class Named extends schema.Entity(TodoData) {}
    class Keyed extends schema.Entity(TodoData, { key: 'Keyed' }) {}
    expect(Mixed.key).toBe('TodoData');
    expect(Named.key).toBe('Named');
    expect(Keyed.key).toBe('Keyed');
    expect(`${Keyed}`).toBe('Keyed');
    // Nothing of the mixin leaks into Entity or into the base class.
    expect(Entity.key).toBe('Entity');
    expect('key' in TodoData).toBe(false);
  });

  it('refuses a Base that is not a class, naming what it got', () => {
    const mixin = schema.Entity as unknown as (base: unknown) => unknown;
    expect(() => mixin(undefined)).toThrow(
      new TypeError(
        "schema.Entity(Base, options): Base is the class that declares the entity's fields, not undefined",
      ),
    );
    expect(() => mixin({ id: 0 })).toThrow(/Base is the class that declares the entity's fields/);
  });
});

describe('schema.Entity(Base): the key', () => {
  it("is the base's own static key, for the mixed class and a class extending it", () => {
    class AnimalData {
      id = '';
      static key = 'Animal';
    }
    const Animal = schema.Entity(AnimalData);
    class Cat extends schema.Entity(AnimalData) {}
    expect(Animal.key).toBe('Animal');
    expect(Cat.key).toBe('Animal');
    expect(schema.Entity(AnimalData, { key: 'Pet' }).key).toBe('Pet');
  });

  it('is refused for a base without a name or a key', () => {
    const Unnamed = schema.Entity(
      [
        class {
          id = '';
        },
      ][0]!,
    );
    expect(() => Unnamed.key).toThrow(/without a name must define `static key`/);
  });
});
