import { describe, expect, it } from 'vitest';
import {
  createStore,
  denormalize,
  Entity,
  ExpiryStatus,
  INVALID,
  isInvalid,
  normalize,
  SchemaError,
  schema,
} from '../../src/index.js';
import {
  collectionRows,
  createTables,
  endpoint,
  plain,
  Todo,
  todoList,
  User,
} from '../fixtures.js';

const invalidateTodo = new schema.Invalidate(Todo);

/** A comment always belongs to a todo: its `todo` relation is required (non-null default). */
class Comment extends Entity {
  id = 0;
  text = '';
  todo: Todo = Todo.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Comment';
  static override schema = { todo: Todo };
}

const todo = (id: number, userId = 1) => ({ id, title: `todo ${id}`, userId });

function withTodos() {
  const tables = createTables();
  tables.normalize(todoList, [todo(1), todo(2), todo(3, 2)], [{}]);
  tables.normalize(todoList, [todo(1), todo(2)], [{ userId: 1 }]);
  tables.normalize(todoList, [todo(3, 2)], [{ userId: 2 }]);
  return tables;
}

describe('schema.Invalidate', () => {
  it('has the key of its entity', () => {
    expect(invalidateTodo.key).toBe('Todo');
  });

  it.each([
    ['a pk string', '2'],
    ['a pk number', 2],
    ['an object the pk is computed from', { id: 2 }],
  ])('marks the entity INVALID given %s', (_label, input) => {
    const tables = withTodos();
    const result = tables.normalize(invalidateTodo, input, [{ id: 2 }]);
    expect(result).toBe('2');
    expect(isInvalid(plain(tables.entities).Todo?.['2'])).toBe(true);
    expect(plain(tables.entities).Todo?.['1']).toEqual(todo(1));
  });

  it('computes the pk of an object input through process()', () => {
    class Wrapped extends Entity {
      id = 0;
      pk() {
        return this.id;
      }
      static override key = 'Wrapped';
      static override process(input: Record<string, unknown>) {
        return { ...(input.data as Record<string, unknown>) };
      }
    }
    const tables = createTables();
    tables.normalize(Wrapped, { data: { id: 4 } });
    tables.normalize(new schema.Invalidate(Wrapped), { data: { id: 4 } });
    expect(isInvalid(plain(tables.entities).Wrapped?.['4'])).toBe(true);
  });

  it('removes the entity from every collection row that held it', () => {
    const tables = withTodos();
    tables.normalize(invalidateTodo, 2);
    expect(collectionRows(tables.entities)).toEqual({
      '{}': ['1', '3'],
      '{"userId":"1"}': ['1'],
      '{"userId":"2"}': ['3'],
    });
  });

  it('leaves rows that did not hold it as the same arrays', () => {
    const tables = withTodos();
    const row = (key: string) => tables.entities.get('[Todo]')?.get(key);
    const before = row('{"userId":"1"}');
    tables.normalize(invalidateTodo, 3);
    expect(row('{"userId":"1"}')).toBe(before);
    expect(collectionRows(tables.entities)['{"userId":"2"}']).toEqual([]);
  });

  it('is undone by a later response with the entity', () => {
    const tables = withTodos();
    tables.normalize(invalidateTodo, 1);
    tables.normalize(Todo, { id: 1, title: 'back' });
    expect(plain(tables.entities).Todo?.['1']).toEqual({ id: 1, title: 'back' });
    expect((denormalize(Todo, '1', tables.entities) as Todo).title).toBe('back');
  });

  it('reads back as INVALID for the invalidated entity', () => {
    const tables = withTodos();
    const result = tables.normalize(invalidateTodo, { id: 1 });
    expect(denormalize(invalidateTodo, result, tables.entities)).toBe(INVALID);
  });

  it.each([
    ['an empty string', ''],
    ['a list', ['1']],
    ['an object without the pk', { title: 'no id' }],
    ['a boolean', true],
  ])('rejects %s with an error naming Todo', (_label, input) => {
    let error: unknown;
    try {
      normalize(invalidateTodo, input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toContain('schema.Invalidate(Todo)');
    expect((error as SchemaError).input).toBe(input);
  });

  it('accepts only Entity classes', () => {
    expect(() => new schema.Invalidate({} as unknown as typeof Todo)).toThrow(
      /expects an Entity class/,
    );
  });
});

describe('reading INVALID entities', () => {
  it('drops them from plain lists', () => {
    const tables = createTables();
    const result = tables.normalize([Todo], [todo(1), todo(2), todo(3)]);
    tables.normalize(invalidateTodo, '2');
    const read = denormalize([Todo], result, tables.entities) as Todo[];
    expect(read.map((t) => t.id)).toEqual([1, 3]);
  });

  it('drops them from collections', () => {
    const tables = withTodos();
    tables.normalize(invalidateTodo, '1');
    const read = denormalize(todoList, '{}', tables.entities) as Todo[];
    expect(read.map((t) => t.id)).toEqual([2, 3]);
  });

  it('a required nested entity that is INVALID makes its parent INVALID', () => {
    const tables = createTables();
    const list = tables.normalize(
      [Comment],
      [
        { id: 10, text: 'on 1', todo: todo(1) },
        { id: 11, text: 'on 2', todo: todo(2) },
      ],
    );
    tables.normalize(invalidateTodo, 1);
    expect(denormalize(Comment, '10', tables.entities)).toBe(INVALID);
    // ... and a list leaves that parent out.
    const read = denormalize([Comment], list, tables.entities) as Comment[];
    expect(read.map((c) => c.id)).toEqual([11]);
  });

  it('an optional nested entity (null default) that is INVALID is read as undefined', () => {
    const tables = createTables();
    tables.normalize(Todo, { ...todo(1), author: { id: 9, name: 'Ada' } });
    tables.normalize(new schema.Invalidate(User), 9);
    const read = denormalize(Todo, '1', tables.entities) as Todo;
    expect(read).toBeInstanceOf(Todo);
    expect(read.title).toBe('todo 1');
    expect(read.author).toBeUndefined();
  });

  it('a top-level read of an INVALID entity is INVALID', () => {
    const tables = withTodos();
    tables.normalize(invalidateTodo, 3);
    expect(denormalize(Todo, '3', tables.entities)).toBe(INVALID);
  });

  it('a get through the store reads as no data with ExpiryStatus.Invalid (must refetch)', () => {
    const store = createStore();
    const get = endpoint('get', Todo);
    const remove = endpoint('delete', invalidateTodo, { sideEffect: true });
    const { controller } = store;
    controller.setResponse(get, { id: 1 }, todo(1));
    expect(controller.getResponse(get, { id: 1 }, store.getState()).data).toBeInstanceOf(Todo);
    controller.setResponse(remove, { id: 1 }, { id: 1 });
    const response = controller.getResponse(get, { id: 1 }, store.getState());
    expect(response.data).toBeUndefined();
    expect(response.expiryStatus).toBe(ExpiryStatus.Invalid);
  });
});
