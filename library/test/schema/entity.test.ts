import { describe, expect, it, vi } from 'vitest';
import { denormalize, Entity, normalize, SchemaError } from '../../src/index.js';
import { createTables, plain, Todo, User } from '../fixtures.js';

class Article extends Entity {
  slug = '';
  title = '';
  pk() {
    return this.slug;
  }
  static override key = 'Article';
}

/** The pk() pattern the Entity docs show: a template string, "undefined" when the id is missing. */
class Tag extends Entity {
  id = 0;
  label = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Tag';
}

/** An entity whose class name differs from its key. */
class InternalName extends Entity {
  id = 0;
  pk() {
    return this.id;
  }
  static override key = 'PublicName';
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('Entity', () => {
  it('names itself by its key in strings and JSON, as data-client entities do', () => {
    expect(`${InternalName}`).toBe('PublicName');
    expect(JSON.parse(JSON.stringify({ schema: InternalName }))).toEqual({
      schema: { name: 'InternalName', schema: {}, key: 'PublicName' },
    });
  });

  it('stores only the fields the response carried and applies the class defaults when read', () => {
    const tables = createTables();
    const pk = tables.normalize(Todo, { id: 1, title: 'write tests' });
    expect(pk).toBe('1');
    expect(plain(tables.entities).Todo?.['1']).toEqual({ id: 1, title: 'write tests' });

    const todo = denormalize(Todo, pk, tables.entities) as Todo;
    expect(todo).toBeInstanceOf(Todo);
    expect(todo.title).toBe('write tests');
    expect(todo.completed).toBe(false);
    expect(todo.userId).toBe(0);
    expect(todo.author).toBeNull();
  });

  it('stores the pk as a string, so numeric and string ids are one entity', () => {
    const tables = createTables();
    expect(tables.normalize(Todo, { id: 7, title: 'number' })).toBe('7');
    expect(tables.normalize(Todo, { id: '7', completed: true })).toBe('7');
    expect(Object.keys(plain(tables.entities).Todo ?? {})).toEqual(['7']);
    const todo = denormalize(Todo, 7, tables.entities) as Todo;
    expect(todo.title).toBe('number');
    expect(todo.completed).toBe(true);
  });

  it('accepts a string pk()', () => {
    const tables = createTables();
    expect(tables.normalize(Article, { slug: 'hello-world', title: 'Hi' })).toBe('hello-world');
    expect((denormalize(Article, 'hello-world', tables.entities) as Article).title).toBe('Hi');
  });

  it('throws a SchemaError naming the entity key and showing the input when pk() is missing', () => {
    const input = { title: 'no id here' };
    const error = thrown(() => normalize(Todo, input));
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).message).toContain('Todo');
    expect((error as SchemaError).message).toContain('{"title":"no id here"}');
    expect((error as SchemaError).input).toBe(input);
  });

  it('treats an empty-string or NaN pk as missing', () => {
    expect(() => normalize(Article, { slug: '', title: 'x' })).toThrow(/Article\.pk\(\)/);
    expect(() => normalize(Todo, { id: Number.NaN })).toThrow(/Todo\.pk\(\)/);
  });

  it('treats the string "undefined" from a template-string pk() as missing', () => {
    const input = { label: 'no id' };
    const error = thrown(() => normalize(Tag, input));
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toContain('Tag.pk() returned undefined for {"label":"no id"}');
    expect(normalize(Tag, { id: 2, label: 'ok' }).result).toBe('2');
  });

  it.each([
    ['an object', { a: 1 }, '{"a":1}'],
    ['a list', [1, 2], '[1,2]'],
    ['a boolean', true, 'true'],
  ])(
    'refuses a pk that is %s with a SchemaError naming the entity and the value',
    (_kind, id, shown) => {
      const tables = createTables();
      const error = thrown(() => tables.normalize([Todo], [{ id: 1 }, { id, title: 'odd' }]));
      expect(error).toBeInstanceOf(SchemaError);
      expect((error as Error).message).toContain(`Todo.pk() returned ${shown}`);
      expect((error as Error).message).toContain('a pk must be a string or a number');
      // Nothing of the response is stored, not even the items before the bad one.
      expect(plain(tables.entities)).toEqual({});
    },
  );

  it('names a nested entity whose pk is missing, not its parent', () => {
    const error = thrown(() => normalize(Todo, { id: 1, author: { name: 'anonymous' } }));
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(/^User\.pk\(\)/);
    expect((error as Error).message).toContain('"name":"anonymous"');
  });

  it('uses static key as the table name, not the class name', () => {
    expect(InternalName.key).toBe('PublicName');
    const { entities } = normalize(InternalName, { id: 3 });
    expect([...entities.keys()]).toEqual(['PublicName']);
    expect(entities.get('PublicName')?.get('3')).toEqual({ id: 3 });
  });

  it('defaults static key to the class name', () => {
    class Unkeyed extends Entity {
      id = 0;
      pk() {
        return this.id;
      }
    }
    expect(Unkeyed.key).toBe('Unkeyed');
  });

  it('builds an instance with fromJS: defaults first, then the given fields', () => {
    const todo = Todo.fromJS({ id: 4, title: 'from js' });
    expect(todo).toBeInstanceOf(Todo);
    expect(todo).toMatchObject({ id: 4, title: 'from js', completed: false, userId: 0 });
    expect(todo.author).toBeNull();
    expect(todo.pk()).toBe(4);
    expect(Todo.fromJS()).toMatchObject({ id: 0, title: '', completed: false });
  });

  it('normalizes nested entities declared in static schema into their own table', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1, title: 't', author: { id: 9, name: 'Ada' } });
    expect(plain(tables.entities).Todo?.['1']).toEqual({ id: 1, title: 't', author: '9' });
    expect(plain(tables.entities).User?.['9']).toEqual({ id: 9, name: 'Ada' });

    const todo = denormalize(Todo, '1', tables.entities) as Todo;
    expect(todo.author).toBeInstanceOf(User);
    expect(todo.author?.name).toBe('Ada');
  });

  it('updates a nested entity from a later parent response', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1, author: { id: 9, name: 'Ada' } });
    tables.normalize(Todo, { id: 2, author: { id: 9, name: 'Ada Lovelace' } });
    const first = denormalize(Todo, '1', tables.entities) as Todo;
    expect(first.author?.name).toBe('Ada Lovelace');
  });

  it('keeps stored fields that a partial response lacks', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1, title: 'full', completed: true, userId: 5 });
    tables.normalize(Todo, { id: 1, title: 'renamed' });
    expect(plain(tables.entities).Todo?.['1']).toEqual({
      id: 1,
      title: 'renamed',
      completed: true,
      userId: 5,
    });
    const todo = denormalize(Todo, '1', tables.entities) as Todo;
    expect(todo).toMatchObject({ title: 'renamed', completed: true, userId: 5 });
  });

  it('keeps a stored nested reference when a partial response omits it', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1, author: { id: 9, name: 'Ada' } });
    tables.normalize(Todo, { id: 1, completed: true });
    expect((denormalize(Todo, '1', tables.entities) as Todo).author?.name).toBe('Ada');
  });

  it('does not change the tables it was given (the new ones share what did not change)', () => {
    const first = normalize(Todo, { id: 1, title: 'a' });
    const frozenRow = first.entities.get('Todo')?.get('1');
    const second = normalize(Todo, { id: 1, title: 'b' }, [], first);
    expect(first.entities.get('Todo')?.get('1')).toBe(frozenRow);
    expect(plain(first.entities).Todo?.['1']).toEqual({ id: 1, title: 'a' });
    expect(plain(second.entities).Todo?.['1']).toEqual({ id: 1, title: 'b' });
  });

  it.each([
    [
      'a string',
      '<!doctype html>',
      /Todo expects an object but received "<!doctype html>".*text response/,
    ],
    ['a number', 42, /Todo expects an object but received 42/],
    ['a list', [{ id: 1 }], /Todo expects an object but received \[\{"id":1\}\]/],
  ])('rejects %s as input with a clear error', (_label, input, message) => {
    const error = thrown(() => normalize(Todo, input));
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(message);
    expect((error as SchemaError).input).toBe(input);
  });
});

describe('Entity classes data-client refuses or lets through', () => {
  it('refuses a class without a name or a static key: such classes would share one table', () => {
    const Anonymous = [
      class extends Entity {
        id = '';
        pk() {
          return this.id;
        }
      },
    ][0]!;
    expect(Anonymous.name).toBe('');
    expect(() => Anonymous.key).toThrow(/without a name must define `static key`/);
    expect(() => normalize(Anonymous, { id: '1' })).toThrow(/without a name/);
  });

  it("with automaticValidation = 'warn', reads a list given for the entity and warns", () => {
    class Pair extends Entity {
      0 = '';
      1 = '';
      pk() {
        return `${this[0]}-${this[1]}`;
      }
      static override key = 'Pair';
      static override automaticValidation: 'warn' | 'silent' | undefined = 'warn';
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { result, entities } = normalize(Pair, ['a', 'b']);
      expect(result).toBe('a-b');
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Pair expects an object/));
      const read = denormalize(Pair, result, entities) as Pair;
      expect([read[0], read[1]]).toEqual(['a', 'b']);
    } finally {
      warn.mockRestore();
    }
    class Strict extends Pair {
      static override key = 'Strict';
      static override automaticValidation = undefined;
    }
    expect(() => normalize(Strict, ['a', 'b'])).toThrow(SchemaError);
  });

  it('refuses a list schema of two schemas, naming the polymorphic form', () => {
    expect(() => normalize([Todo, User], [{ id: 1 }])).toThrow(
      /A list schema holds one schema, but found 2/,
    );
  });
});
