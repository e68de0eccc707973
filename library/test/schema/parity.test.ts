import { Entity as DcEntity, schema as dc } from '@data-client/endpoint';
import { denormalize as dcDenormalize, normalize as dcNormalize } from '@data-client/normalizr';
import { describe, expect, it } from 'vitest';
import { Entity, MemoCache, normalize, SchemaError, schema } from '../../src/index.js';

/**
 * Inputs found by auditing the schema layer against @data-client/endpoint 0.9.9 (normalizr
 * 0.9.5): each reading is compared with the reference's for the same schema and input.
 */

/** What RestLens reads back for `input` normalized on its own. */
function readBack(schemaOf: unknown, input: unknown): unknown {
  const { result, entities } = normalize(schemaOf, input);
  return new MemoCache().denormalize(schemaOf, result, entities);
}

/** What data-client reads back for the same. */
function dcReadBack(schemaOf: unknown, input: unknown): unknown {
  const { result, entities } = dcNormalize(input, schemaOf as any);
  return dcDenormalize(result, schemaOf as any, entities);
}

/** Two entity types that refer to each other (A → B → A), made from either library's base. */
function pair(Base: typeof Entity | typeof DcEntity) {
  class Author extends (Base as typeof Entity) {
    id = '';
    name = '';
    latest: unknown = null;
    pk() {
      return this.id;
    }
    static override key = 'Author';
  }
  class Book extends (Base as typeof Entity) {
    id = '';
    title = '';
    author: unknown = null;
    pk() {
      return this.id;
    }
    static override key = 'Book';
  }
  Author.schema = { latest: Book };
  Book.schema = { author: Author };
  return { Author, Book };
}

describe('an input object met twice in one response', () => {
  const ours = pair(Entity);
  const theirs = pair(DcEntity);

  /** Author a1 whose latest book's author is that very object: a cycle of the input itself. */
  function cyclicInput() {
    const author: Record<string, unknown> = { id: 'a1', name: 'Ann' };
    author.latest = { id: 'b1', title: 'Tides', author };
    return author;
  }

  it('a cyclic input (a read written back) is stored, and reads as the reference reads it', () => {
    const read = readBack(ours.Author, cyclicInput()) as InstanceType<typeof ours.Author> & {
      latest: { author: unknown };
    };
    const dcRead = dcReadBack(theirs.Author, cyclicInput()) as { latest: { author: unknown } };
    expect(read.latest.author).toBe(read);
    expect(dcRead.latest.author).toBe(dcRead);
    expect(read).toMatchObject({ id: 'a1', name: 'Ann', latest: { id: 'b1', title: 'Tides' } });
  });

  it('a value read from the store, circular as the read is, can be stored again as it is', () => {
    const stored = normalize(ours.Author, {
      id: 'a1',
      name: 'Ann',
      latest: { id: 'b1', title: 'Tides', author: 'a1' },
    });
    const read = new MemoCache().denormalize(ours.Author, stored.result, stored.entities) as {
      name: string;
      latest: { author: unknown };
    };
    expect(read.latest.author).toBe(read);
    read.name = 'Ann B.';
    const again = normalize(ours.Author, read, [], stored);
    expect(again.result).toBe('a1');
    expect(again.entities.get('Author')?.get('a1')).toMatchObject({ name: 'Ann B.', latest: 'b1' });
    expect(again.entities.get('Book')?.get('b1')).toMatchObject({ title: 'Tides', author: 'a1' });
  });

  it('one object listed twice is combined by the custom merge like two copies (data-client merges it once; docs/decisions.md)', () => {
    function tagged(Base: typeof Entity | typeof DcEntity) {
      return class Tagged extends (Base as typeof Entity) {
        id = 0;
        tags: string[] = [];
        pk() {
          return `${this.id}`;
        }
        static override key = 'Tagged';
        static override merge(
          existing: Record<string, unknown>,
          incoming: Record<string, unknown>,
        ) {
          const tags = [...(existing.tags as string[]), ...(incoming.tags as string[])];
          return { ...existing, ...incoming, tags };
        }
      };
    }
    const item = { id: 1, tags: ['a'] };
    const read = readBack([tagged(Entity)], [item, item]);
    expect(read).toMatchObject([{ tags: ['a', 'a'] }, { tags: ['a', 'a'] }]);
    expect(readBack([tagged(Entity)], [item, { ...item }])).toEqual(read);
    expect(dcReadBack([tagged(DcEntity)], [item, item])).toMatchObject([
      { tags: ['a'] },
      { tags: ['a'] },
    ]);
  });
});

describe('Entity.validate: any falsy return accepts the row, as data-client reads it', () => {
  function validated(Base: typeof Entity | typeof DcEntity, valid: false | null) {
    return class Checked extends (Base as typeof Entity) {
      id = 0;
      title = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Checked';
      // The `cond && 'message'` idiom returns false for a valid row; plain JavaScript, null.
      static override validate(row: Record<string, unknown>) {
        return (row.title ? valid : 'title is required') as string | undefined;
      }
    };
  }

  it.each([
    ['false', false],
    ['null', null],
  ] as const)('validate returning %s stores and reads the row', (_name, valid) => {
    const input = { id: 1, title: 'Tides' };
    const read = readBack(validated(Entity, valid), input);
    expect(read).toMatchObject({ id: 1, title: 'Tides' });
    expect({ ...(read as object) }).toEqual({
      ...(dcReadBack(validated(DcEntity, valid), input) as object),
    });
  });

  it('a message still refuses the row, naming the entity and the message', () => {
    expect(() => readBack(validated(Entity, false), { id: 1 })).toThrow(
      new SchemaError('Checked "1" is not valid: title is required', { id: 1 }),
    );
  });
});

describe('Entity.fromJS', () => {
  it('passes the props to the constructor too, as data-client does', () => {
    function initialed(Base: typeof Entity | typeof DcEntity) {
      return class Person extends (Base as typeof Entity) {
        id = 0;
        name = '';
        initial: string;
        constructor(props?: { name?: string }) {
          super();
          this.initial = props?.name?.[0] ?? '';
        }
        pk() {
          return `${this.id}`;
        }
        static override key = 'Person';
      };
    }
    const input = { id: 1, name: 'Ann' };
    const read = readBack(initialed(Entity), input);
    expect(read).toMatchObject({ id: 1, name: 'Ann', initial: 'A' });
    expect({ ...(read as object) }).toEqual({
      ...(dcReadBack(initialed(DcEntity), input) as object),
    });
  });
});

describe('schema.Collection of what is not a list', () => {
  class Item extends Entity {
    id = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'Item';
  }

  it('a schema.Values collection (a data-client form RestLens does not keep) is refused by name', () => {
    expect(() => new schema.Collection(new schema.Values(Item) as never)).toThrow(
      new TypeError(
        'schema.Collection takes a list schema ([Item] or new schema.Array(Item)), not a schema.Values: RestLens keeps collections as ordered lists',
      ),
    );
    // data-client 0.9 accepts it: the refusal is deliberate, not an oversight.
    expect(new dc.Collection(new dc.Values(DcEntity as never)).schema).toBeInstanceOf(dc.Values);
  });

  it('an entity given without its list is refused by name too', () => {
    expect(() => new schema.Collection(Item as never)).toThrow(
      new TypeError(
        'schema.Collection takes a list schema ([Item] or new schema.Array(Item)), not Item',
      ),
    );
  });
});

describe('deliberate differences (docs/decisions.md)', () => {
  it('an object schema member sent as null reads as null (data-client drops it)', () => {
    const { Author } = pair(Entity);
    const { Author: DcAuthor } = pair(DcEntity);
    const input = { author: null, books: null, total: 0 };
    expect(readBack({ author: Author, books: [Author] }, input)).toEqual(input);
    expect(dcReadBack({ author: DcAuthor, books: [DcAuthor] }, input)).toEqual({ total: 0 });
  });

  it('an entity listed twice in one response is combined by its shouldReorder, as with the store', () => {
    function stamped(Base: typeof Entity | typeof DcEntity) {
      return class Stamped extends (Base as typeof Entity) {
        id = 0;
        title = '';
        updatedAt = 0;
        pk() {
          return `${this.id}`;
        }
        static override key = 'Stamped';
        static override shouldReorder(
          _existingMeta: unknown,
          _incomingMeta: unknown,
          existing: Record<string, unknown>,
          incoming: Record<string, unknown>,
        ) {
          return (incoming.updatedAt as number) < (existing.updatedAt as number);
        }
      };
    }
    const input = [
      { id: 1, title: 'new', updatedAt: 5 },
      { id: 1, title: 'old', updatedAt: 1 },
    ];
    expect(readBack([stamped(Entity)], input)).toMatchObject([{ title: 'new' }, { title: 'new' }]);
    expect(dcReadBack([stamped(DcEntity)], input)).toMatchObject([
      { title: 'old' },
      { title: 'old' },
    ]);
  });
});

describe('an override of the static pk (data-client documents it)', () => {
  function byCode(Base: typeof Entity | typeof DcEntity) {
    return class Country extends (Base as typeof Entity) {
      code = 0;
      name = '';
      pk() {
        return `${this.code}`;
      }
      static override key = 'Country';
      // Returns the number as it came, as data-client's statics may.
      static override pk(value: Record<string, unknown>) {
        return value.code as string | undefined;
      }
    };
  }

  it('returning a number stores the entity under its text, so it reads back', () => {
    const input = [{ code: 49, name: 'Germany' }];
    const read = readBack([byCode(Entity)], input);
    expect(read).toMatchObject([{ code: 49, name: 'Germany' }]);
    expect(JSON.stringify(read)).toBe(JSON.stringify(dcReadBack([byCode(DcEntity)], input)));
    expect(
      normalize([byCode(Entity)], input)
        .entities.get('Country')
        ?.get('49'),
    ).toEqual(input[0]);
  });

  it('a schema.Invalidate of it marks the entity stored under that text', () => {
    const Country = byCode(Entity);
    const stored = normalize([Country], [{ code: 49, name: 'Germany' }]);
    expect(new MemoCache().denormalize([Country], stored.result, stored.entities)).toHaveLength(1);
    const { entities } = normalize(new schema.Invalidate(Country), { code: 49 }, [], stored);
    expect(new MemoCache().denormalize([Country], stored.result, entities)).toEqual([]);
  });

  it('returning nothing usable is a missing pk, named as such', () => {
    expect(() => readBack(byCode(Entity), { name: 'Nowhere' })).toThrow(
      /Country\.pk\(\) returned undefined for \{"name":"Nowhere"\}/,
    );
  });
});
