import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Denormalize,
  denormalize,
  Entity,
  INVALID,
  isInvalid,
  normalize,
  SchemaError,
  schema,
} from '../../src/index.js';
import { createTables, plain, Todo, todoList, User } from '../fixtures.js';

class Photo extends Entity {
  id = 0;
  type = 'photo';
  url = '';
  pk() {
    return this.id;
  }
  static override key = 'Photo';
}

class Note extends Entity {
  id = 0;
  type = 'note';
  text = '';
  pk() {
    return this.id;
  }
  static override key = 'Note';
}

const todos = [
  { id: 1, title: 'one', author: { id: 9, name: 'Ada' } },
  { id: 2, title: 'two' },
];

describe('[Entity] shorthand and schema.Array', () => {
  it('normalizes [Entity] into a list of pks and reads it back as instances', () => {
    const tables = createTables();
    const result = tables.normalize([Todo], todos);
    expect(result).toEqual(['1', '2']);
    expect(Object.keys(plain(tables.entities).Todo ?? {})).toEqual(['1', '2']);
    const read = denormalize([Todo], result, tables.entities) as Todo[];
    expect(read.map((todo) => todo.title)).toEqual(['one', 'two']);
    expect(read[0]).toBeInstanceOf(Todo);
    expect(read[0]?.author?.name).toBe('Ada');
  });

  it('schema.Array behaves like the shorthand', () => {
    const tables = createTables();
    const result = tables.normalize(new schema.Array(Todo), todos);
    expect(result).toEqual(['1', '2']);
    const read = denormalize(new schema.Array(Todo), result, tables.entities) as Todo[];
    expect(read.map((todo) => todo.id)).toEqual([1, 2]);
  });

  it('leaves null members out of the normalized list', () => {
    expect(normalize([Todo], [{ id: 1 }, null, { id: 2 }]).result).toEqual(['1', '2']);
  });

  it('leaves members missing from the table out when read', () => {
    const { entities } = normalize([Todo], [{ id: 1 }]);
    expect((denormalize([Todo], ['1', '404'], entities) as Todo[]).map((t) => t.id)).toEqual([1]);
  });

  it('rejects a non-list input with an error showing it', () => {
    expect(() => normalize([Todo], { id: 1 })).toThrow(SchemaError);
    expect(() => normalize([Todo], { id: 1 })).toThrow(/expected a list but received \{"id":1\}/);
  });

  it('reads an object of entities (a map keyed by id) as the list of its values, as data-client does', () => {
    const byId = { a: { id: 1, title: 'one' }, b: { id: 2, title: 'two' } };
    for (const list of [[Todo], new schema.Array(Todo)]) {
      const { result, entities } = normalize(list, byId);
      expect(result).toEqual(['1', '2']);
      const read = denormalize(list, result, entities) as Todo[];
      expect(read.map((todo) => [todo instanceof Todo, todo.title])).toEqual([
        [true, 'one'],
        [true, 'two'],
      ]);
    }
  });
});

describe('plain object schemas and schema.Object', () => {
  it('leaves a member the response lacked absent when read, as data-client does', () => {
    for (const shape of [{ a: Todo, list: [Todo], n: 0 }, new schema.Object({ a: Todo, n: 0 })]) {
      const { result, entities } = normalize(shape, { n: 5 });
      expect(Object.keys(denormalize(shape, result, entities) as object)).toEqual(['n']);
    }
  });

  const paged = { results: todoList, total: 0, limit: 0, skip: 0 };

  it('normalizes the schema members and keeps the others as they came', () => {
    const tables = createTables();
    const result = tables.normalize(paged, { results: todos, total: 30, limit: 2, skip: 0 }, [
      { userId: 1 },
    ]);
    expect(result).toEqual({ results: '{"userId":"1"}', total: 30, limit: 2, skip: 0 });
    expect(plain(tables.entities)['[Todo]']?.['{"userId":"1"}']).toEqual(['1', '2']);

    const read = denormalize(paged, result, tables.entities) as {
      results: Todo[];
      total: number;
    };
    expect(read.total).toBe(30);
    expect(read.results.map((todo) => todo.title)).toEqual(['one', 'two']);
    expect(read.results[0]).toBeInstanceOf(Todo);
  });

  it('schema.Object behaves like a plain object schema', () => {
    const shape = new schema.Object({ data: Todo, link: '' });
    const tables = createTables();
    const result = tables.normalize(shape, { data: { id: 3, title: 'x' }, link: '/next' });
    expect(result).toEqual({ data: '3', link: '/next' });
    const read = denormalize(shape, result, tables.entities) as { data: Todo; link: string };
    expect(read.data).toBeInstanceOf(Todo);
    expect(read.data.title).toBe('x');
    expect(read.link).toBe('/next');
  });

  it('skips members absent from the input', () => {
    expect(normalize(new schema.Object({ data: Todo }), { other: 1 }).result).toEqual({
      other: 1,
    });
  });

  it('reads as INVALID when an entity member is INVALID (every member is required)', () => {
    const shape = new schema.Object({ data: Todo, link: '' });
    const tables = createTables();
    const result = tables.normalize(shape, { data: { id: 3 }, link: '/x' });
    tables.normalize(new schema.Invalidate(Todo), '3');
    expect(denormalize(shape, result, tables.entities)).toBe(INVALID);
  });

  it('rejects a non-object input', () => {
    expect(() => normalize(paged, [1, 2])).toThrow(/expected an object but received \[1,2\]/);
  });
});

describe('schema.Values', () => {
  it('normalizes every value with the same schema and keeps the keys', () => {
    const values = new schema.Values(User);
    const tables = createTables();
    const result = tables.normalize(values, {
      first: { id: 1, name: 'Ada' },
      second: { id: 2, name: 'Grace' },
    });
    expect(result).toEqual({ first: '1', second: '2' });
    const read = denormalize(values, result, tables.entities) as Record<string, User>;
    expect(Object.keys(read)).toEqual(['first', 'second']);
    expect(read.second).toBeInstanceOf(User);
    expect(read.second?.name).toBe('Grace');
  });

  it('leaves INVALID values out when read', () => {
    const values = new schema.Values(User);
    const tables = createTables();
    const result = tables.normalize(values, { a: { id: 1 }, b: { id: 2 } });
    tables.normalize(new schema.Invalidate(User), 1);
    expect(Object.keys(denormalize(values, result, tables.entities) as object)).toEqual(['b']);
  });

  it('reads a list as the object of its indexes, as data-client does', () => {
    const values = new schema.Values(User);
    const tables = createTables();
    const result = tables.normalize(values, [{ id: 1 }, { id: 2 }]);
    expect(result).toEqual({ 0: '1', 1: '2' });
    const read = denormalize(values, result, tables.entities) as Record<string, User>;
    expect(Object.keys(read)).toEqual(['0', '1']);
    expect(read[1]).toBeInstanceOf(User);
  });

  it('rejects a value that is not an object', () => {
    expect(() => normalize(new schema.Values(User), 'users')).toThrow(
      /expected an object of values/,
    );
  });
});

describe('schema.Union', () => {
  it('chooses the member by a string attribute', () => {
    const union = new schema.Union({ photo: Photo, note: Note }, 'type');
    const tables = createTables();
    const result = tables.normalize(
      [union],
      [
        { id: 1, type: 'photo', url: '/a.png' },
        { id: 1, type: 'note', text: 'hello' },
      ],
    );
    // Each member is stored as a reference naming its entity type and pk.
    expect(result).toEqual(['["Photo","1"]', '["Note","1"]']);
    expect(plain(tables.entities).Photo?.['1']).toMatchObject({ url: '/a.png' });
    expect(plain(tables.entities).Note?.['1']).toMatchObject({ text: 'hello' });

    const [photo, note] = denormalize([union], result, tables.entities) as [Photo, Note];
    expect(photo).toBeInstanceOf(Photo);
    expect(photo.url).toBe('/a.png');
    expect(note).toBeInstanceOf(Note);
    expect(note.text).toBe('hello');
  });

  it('chooses the member with a function attribute', () => {
    const union = new schema.Union({ photo: Photo, note: Note }, (input) =>
      'url' in input ? 'photo' : 'note',
    );
    const tables = createTables();
    const result = tables.normalize(union, { id: 5, text: 'no url' });
    expect(result).toBe('["Note","5"]');
    expect(denormalize(union, result, tables.entities)).toBeInstanceOf(Note);
  });

  it('keeps an object of a type it does not name as it came, with no entity made of it (data-client’s rule)', () => {
    const union = new schema.Union({ photo: Photo, note: Note }, 'type');
    const tables = createTables();
    const video = { id: 1, type: 'video' };
    expect(tables.normalize(union, video)).toEqual(video);
    expect([tables.entities.get('Photo'), tables.entities.get('Note')]).toEqual([
      undefined,
      undefined,
    ]);
    expect(denormalize(union, video, tables.entities)).toEqual(video);
  });

  it('takes the polymorphic forms of schema.Array and schema.Values, as data-client does', () => {
    const list = new schema.Array({ photo: Photo, note: Note }, 'type');
    const tables = createTables();
    const listResult = tables.normalize(list, [
      { id: 1, type: 'photo', url: '/a.png' },
      { id: 1, type: 'note', text: 'hello' },
    ]);
    const read = denormalize(list, listResult, tables.entities) as Denormalize<typeof list>;
    expectTypeOf(read).toEqualTypeOf<(Photo | Note)[]>();
    expect(read.map((member) => member.constructor)).toEqual([Photo, Note]);

    const values = new schema.Values({ photo: Photo, note: Note }, (input) => String(input.type));
    const valuesResult = tables.normalize(values, { a: { id: 2, type: 'note', text: 'x' } });
    const byKey = denormalize(values, valuesResult, tables.entities) as Denormalize<typeof values>;
    expectTypeOf(byKey).toEqualTypeOf<Record<string, Photo | Note>>();
    expect(byKey.a).toBeInstanceOf(Note);
    expect((byKey.a as Note).text).toBe('x');
  });

  it('reads an INVALID member as INVALID', () => {
    const union = new schema.Union({ photo: Photo, note: Note }, 'type');
    const tables = createTables();
    const result = tables.normalize(union, { id: 2, type: 'photo' });
    tables.normalize(new schema.Invalidate(Photo), '2');
    expect(isInvalid(denormalize(union, result, tables.entities))).toBe(true);
  });
});
