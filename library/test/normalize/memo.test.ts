import { describe, expect, it } from 'vitest';
import { denormalize, MemoCache, schema } from '../../src/index.js';
import { createTables, plain, Todo, tablesOf, todoList, User } from '../fixtures.js';

/** One schema object per endpoint, as in real use: results are cached per schema object. */
const todoArray = [Todo];
const todoValues = new schema.Values(Todo);

const todo = (id: number, authorId?: number) => ({
  id,
  title: `todo ${id}`,
  ...(authorId === undefined ? {} : { author: { id: authorId, name: `user ${authorId}` } }),
});

describe('MemoCache', () => {
  it('returns the same object for the same result over unchanged entities', () => {
    const tables = createTables();
    const result = tables.normalize(todoArray, [todo(1, 9), todo(2)]);
    const memo = new MemoCache();
    const first = memo.denormalize(todoArray, result, tables.entities);
    const second = memo.denormalize(todoArray, result, tables.entities);
    expect(second).toBe(first);
  });

  it('returns the same object when unrelated tables changed', () => {
    const tables = createTables();
    const result = tables.normalize(todoArray, [todo(1, 9)]);
    const memo = new MemoCache();
    const first = memo.denormalize(todoArray, result, tables.entities);
    const before = tables.entities;
    tables.normalize(Todo, todo(50));
    expect(tables.entities).not.toBe(before);
    expect(memo.denormalize(todoArray, result, tables.entities)).toBe(first);
  });

  it('returns the same collection read when its row and members are unchanged', () => {
    const tables = createTables();
    const row = tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    const memo = new MemoCache();
    const first = memo.denormalize(todoList, row, tables.entities, [{}]);
    tables.normalize(User, { id: 70, name: 'elsewhere' });
    expect(memo.denormalize(todoList, row, tables.entities, [{}])).toBe(first);
  });

  it('a changed entity changes only its ancestors: siblings keep identity, the list is new', () => {
    const tables = createTables();
    const result = tables.normalize(todoArray, [todo(1, 9), todo(2, 9), todo(3)]);
    const memo = new MemoCache();
    const before = memo.denormalize(todoArray, result, tables.entities) as Todo[];

    tables.normalize(Todo, { id: 2, title: 'changed' });
    const after = memo.denormalize(todoArray, result, tables.entities) as Todo[];

    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]?.title).toBe('changed');
    // The unchanged nested author of the changed todo keeps its identity.
    expect(after[1]?.author).toBe(before[1]?.author);
  });

  it('a changed nested entity changes every parent that holds it, and no other', () => {
    const tables = createTables();
    const result = tables.normalize(todoArray, [todo(1, 9), todo(2, 8), todo(3, 9)]);
    const memo = new MemoCache();
    const before = memo.denormalize(todoArray, result, tables.entities) as Todo[];

    tables.normalize(User, { id: 9, name: 'renamed' });
    const after = memo.denormalize(todoArray, result, tables.entities) as Todo[];

    expect(after[0]).not.toBe(before[0]);
    expect(after[2]).not.toBe(before[2]);
    expect(after[0]?.author?.name).toBe('renamed');
    expect(after[0]?.author).toBe(after[2]?.author);
    expect(after[1]).toBe(before[1]);
  });

  it('replacing a row with an equal copy counts as a change (identity, not deep equality)', () => {
    const tables = createTables();
    const result = tables.normalize(Todo, todo(1));
    const memo = new MemoCache();
    const first = memo.denormalize(Todo, result, tables.entities);
    const row = plain(tables.entities).Todo?.['1'] as Record<string, unknown>;
    const entities = tables.entities.set(
      'Todo',
      tablesOf({ Todo: { '1': { ...row } } }).get('Todo'),
    );
    const second = memo.denormalize(Todo, result, entities);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it('an unchanged refetch keeps the entity instances', () => {
    const tables = createTables();
    const result = tables.normalize(todoArray, [todo(1, 9), todo(2)]);
    const memo = new MemoCache();
    const before = memo.denormalize(todoArray, result, tables.entities) as Todo[];
    const refetched = tables.normalize(todoArray, [todo(1, 9), todo(2)]);
    const after = memo.denormalize(todoArray, refetched, tables.entities) as Todo[];
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
  });

  it('one entity read through two different results is one object', () => {
    const tables = createTables();
    const list = tables.normalize(todoArray, [todo(1, 9), todo(2)]);
    const row = tables.normalize(todoList, [todo(2), todo(3)], [{}]);
    const single = tables.normalize(Todo, { id: 2 });
    const values = tables.normalize(todoValues, { a: { id: 2 } });
    const memo = new MemoCache();

    const fromList = (memo.denormalize(todoArray, list, tables.entities) as Todo[])[1];
    const fromCollection = (memo.denormalize(todoList, row, tables.entities) as Todo[])[0];
    const fromGet = memo.denormalize(Todo, single, tables.entities);
    const fromValues = (
      memo.denormalize(todoValues, values, tables.entities) as Record<string, Todo>
    ).a;

    expect(fromList).toBeInstanceOf(Todo);
    expect(fromCollection).toBe(fromList);
    expect(fromGet).toBe(fromList);
    expect(fromValues).toBe(fromList);
  });

  it('one nested entity read through two parents is one object', () => {
    const tables = createTables();
    const result = tables.normalize(todoArray, [todo(1, 9), todo(2, 9)]);
    const memo = new MemoCache();
    const [a, b] = memo.denormalize(todoArray, result, tables.entities) as Todo[];
    expect(a?.author).toBeInstanceOf(User);
    expect(a?.author).toBe(b?.author);
    expect(memo.denormalize(User, '9', tables.entities)).toBe(a?.author);
  });

  it('a nested entity that appears later changes the parent', () => {
    const tables = createTables();
    // The todo refers to user 9 before user 9 is stored.
    const entities = tables.entities.set(
      'Todo',
      tablesOf({ Todo: { '1': { id: 1, title: 'orphan', author: '9' } } }).get('Todo'),
    );
    const memo = new MemoCache();
    const before = memo.denormalize(Todo, '1', entities) as Todo;
    expect(before.author).toBeUndefined();

    const later = entities.set(
      'User',
      tablesOf({ User: { '9': { id: 9, name: 'Ada' } } }).get('User'),
    );
    const after = memo.denormalize(Todo, '1', later) as Todo;
    expect(after).not.toBe(before);
    expect(after.author).toBeInstanceOf(User);
    expect(after.author?.name).toBe('Ada');
  });

  it('a result for a different input is a different object', () => {
    const tables = createTables();
    const first = tables.normalize(todoArray, [todo(1)]);
    const second = tables.normalize(todoArray, [todo(1)]);
    expect(second).not.toBe(first);
    const memo = new MemoCache();
    const a = memo.denormalize(todoArray, first, tables.entities) as Todo[];
    const b = memo.denormalize(todoArray, second, tables.entities) as Todo[];
    expect(b).not.toBe(a);
    expect(b[0]).toBe(a[0]);
  });

  it('passes undefined and null results through', () => {
    const memo = new MemoCache();
    expect(memo.denormalize(todoArray, undefined, tablesOf({}))).toBeUndefined();
    expect(memo.denormalize(Todo, null, tablesOf({}))).toBeNull();
  });
});

describe('denormalize() without a cache', () => {
  it('builds the value from the tables', () => {
    const tables = createTables();
    const result = tables.normalize({ data: [Todo], total: 0 }, { data: [todo(1, 9)], total: 1 });
    const read = denormalize({ data: [Todo], total: 0 }, result, tables.entities) as {
      data: Todo[];
      total: number;
    };
    expect(read.total).toBe(1);
    expect(read.data[0]).toBeInstanceOf(Todo);
    expect(read.data[0]?.author).toBeInstanceOf(User);
    expect(read.data[0]?.author?.name).toBe('user 9');
  });

  it('remembers nothing between calls', () => {
    const tables = createTables();
    const result = tables.normalize(Todo, todo(1));
    const first = denormalize(Todo, result, tables.entities);
    const second = denormalize(Todo, result, tables.entities);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });
});
