import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  denormalize,
  paginatedFilter,
  paginatedMerge,
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

/** Drops `cursor` from the URL params: a page belongs to the list without it. */
const removeCursor = (params: unknown, ...rest: readonly unknown[]): readonly unknown[] => {
  const { cursor: _cursor, ...others } = (params ?? {}) as Record<string, unknown>;
  return [others, ...rest];
};
const getPage = todoList.addWith(paginatedMerge, paginatedFilter(removeCursor));

const todo = (id: number, userId = 1) => ({ id, title: `todo ${id}`, userId });
const ALL = '{}';
const USER_1 = '{"userId":"1"}';
const USER_2 = '{"userId":"2"}';

/** Tables holding three rows: all todos, user 1's and user 2's. */
function threeRows() {
  const tables = createTables();
  tables.normalize(todoList, [todo(1, 1), todo(2, 2)], [{}]);
  tables.normalize(todoList, [todo(1, 1)], [{ userId: 1 }]);
  tables.normalize(todoList, [todo(2, 2)], [{ userId: 2 }]);
  return tables;
}

describe('Collection row identity', () => {
  it('stores the list under the table key [Todo] and the serialized args as the row', () => {
    const tables = createTables();
    const result = tables.normalize(todoList, [todo(1), todo(2)], [{ userId: 1 }]);
    expect(todoList.key).toBe('[Todo]');
    expect(result).toBe(USER_1);
    expect(collectionRows(tables.entities)).toEqual({ [USER_1]: ['1', '2'] });
  });

  it('sorts the argument keys', () => {
    expect(todoList.pk([{ userId: 1, completed: true }])).toBe(
      todoList.pk([{ completed: true, userId: 1 }]),
    );
    expect(todoList.pk([{ userId: 1, completed: true }])).toBe('{"completed":"true","userId":"1"}');
  });

  it('drops undefined arguments', () => {
    expect(todoList.pk([{ userId: undefined }])).toBe(ALL);
    expect(todoList.pk([{ userId: 1, q: undefined }])).toBe(USER_1);
    expect(todoList.pk([])).toBe(ALL);
  });

  it('never counts the body', () => {
    expect(todoList.pk([{ userId: 1 }, { userId: 2, title: 'x' }])).toBe(USER_1);
    expect(todoList.pk([undefined, { userId: 2 }])).toBe(ALL);
  });

  it('compares numbers as strings: {userId: 1} and {userId: "1"} are one row', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1)], [{ userId: 1 }]);
    tables.normalize(todoList, [todo(2)], [{ userId: '1' }]);
    expect(collectionRows(tables.entities)).toEqual({ [USER_1]: ['2'] });
  });

  it('a fetch of the list replaces the row, keeping each pk once', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    tables.normalize(todoList, [todo(3), todo(1), todo(3)], [{}]);
    expect(collectionRows(tables.entities)).toEqual({ [ALL]: ['3', '1'] });
  });

  it('reads the row back as instances in order', () => {
    const tables = createTables();
    const row = tables.normalize(todoList, [todo(2), todo(1)], [{}]);
    const read = denormalize(todoList, row, tables.entities) as Todo[];
    expect(read.map((t) => t.id)).toEqual([2, 1]);
    expect(read[0]).toBeInstanceOf(Todo);
  });

  it('finds a stored row from the args alone (queryKey) and nothing for an absent row', () => {
    const tables = threeRows();
    const ctx = {
      getRow: (table: string, pk: string) => tables.entities.get(table)?.get(pk),
      hasTable: (table: string) => tables.entities.has(table),
      findByIndex: () => undefined,
      find: () => undefined,
    };
    expect(todoList.queryKey([{ userId: '2' }], ctx)).toBe(USER_2);
    expect(todoList.queryKey([{ userId: 3 }], ctx)).toBeUndefined();
  });

  it('rejects a member schema that is not an entity', () => {
    expect(() => new schema.Collection([{ results: Todo }])).toThrow(
      /holds entities of one Entity class/,
    );
  });
});

describe('Collection push and unshift', () => {
  it('.push appends and reads back as the pushed entity', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    const result = tables.normalize(todoList.push, todo(3), [{}]);
    expect(result).toBe('3');
    expect(collectionRows(tables.entities)[ALL]).toEqual(['1', '2', '3']);
    expect(denormalize(todoList.push, result, tables.entities)).toBeInstanceOf(Todo);
  });

  it('.unshift prepends', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    tables.normalize(todoList.unshift, todo(3), [{}]);
    expect(collectionRows(tables.entities)[ALL]).toEqual(['3', '1', '2']);
  });

  it('.push and .unshift of a list keep its order', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1)], [{}]);
    tables.normalize(todoList.push, [todo(2), todo(3)], [{}]);
    tables.normalize(todoList.unshift, [todo(4), todo(5)], [{}]);
    expect(collectionRows(tables.entities)[ALL]).toEqual(['4', '5', '1', '2', '3']);
  });

  it('pushing or unshifting a pk already present does not duplicate it', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    tables.normalize(todoList.push, { ...todo(1), title: 'pushed again' }, [{}]);
    tables.normalize(todoList.unshift, todo(2), [{}]);
    tables.normalize(todoList.push, [todo(3), todo(3)], [{}]);
    expect(collectionRows(tables.entities)[ALL]).toEqual(['1', '2', '3']);
    // The entity itself is still updated.
    expect((denormalize(Todo, '1', tables.entities) as Todo).title).toBe('pushed again');
  });

  it('lands in every stored row whose filtering args match the URL params, and no other', () => {
    const tables = threeRows();
    tables.normalize(todoList.push, todo(3, 1), [{ userId: 1 }, {}]);
    expect(collectionRows(tables.entities)).toEqual({
      [ALL]: ['1', '2', '3'],
      [USER_1]: ['1', '3'],
      [USER_2]: ['2'],
    });
  });

  it('matches rows on the body when the URL params lack the argument', () => {
    const tables = threeRows();
    tables.normalize(todoList.push, todo(4, 2), [{}, { userId: 2, title: 'todo 4' }]);
    expect(collectionRows(tables.entities)).toEqual({
      [ALL]: ['1', '2', '4'],
      [USER_1]: ['1'],
      [USER_2]: ['2', '4'],
    });
  });

  it('compares the args as strings: a numeric body value matches a string row value', () => {
    const tables = threeRows();
    tables.normalize(todoList.unshift, todo(5, 2), [undefined, { userId: '2' }]);
    expect(collectionRows(tables.entities)[USER_2]).toEqual(['5', '2']);
    expect(collectionRows(tables.entities)[USER_1]).toEqual(['1']);
  });

  it('with no args lands only in the row without filtering args', () => {
    const tables = threeRows();
    tables.normalize(todoList.push, todo(6, 1), []);
    expect(collectionRows(tables.entities)).toEqual({
      [ALL]: ['1', '2', '6'],
      [USER_1]: ['1'],
      [USER_2]: ['2'],
    });
  });

  it('never creates a row that is not stored', () => {
    const tables = createTables();
    tables.normalize(todoList.push, todo(1), [{ userId: 1 }]);
    expect(plain(tables.entities)['[Todo]']).toBeUndefined();
    tables.normalize(todoList, [todo(2)], [{ userId: 2 }]);
    tables.normalize(todoList.unshift, todo(3, 1), [{ userId: 1 }]);
    expect(collectionRows(tables.entities)).toEqual({ [USER_2]: ['2'] });
    // The entity is stored all the same.
    expect(plain(tables.entities).Todo?.['3']).toBeDefined();
  });

  it('rejects a non-object input naming the collection', () => {
    expect(() => createTables().normalize(todoList.push, 'oops', [{}])).toThrow(SchemaError);
    expect(() => createTables().normalize(todoList.push, 'oops', [{}])).toThrow(
      /adding to \[Todo\] expects an object/,
    );
  });

  it('works through the store: setResponse of a push endpoint updates the lists read', () => {
    const store = createStore();
    const getList = endpoint('getList', todoList);
    const create = endpoint('create', todoList.push, { sideEffect: true });
    const { controller } = store;
    controller.setResponse(getList, { userId: 1 }, [todo(1)]);
    controller.setResponse(getList, { userId: 2 }, [todo(2, 2)]);
    controller.setResponse(create, { userId: 2 }, { title: 'todo 3' }, todo(3, 2));
    const read = (userId: number) =>
      (controller.getResponse(getList, { userId }, store.getState()).data as Todo[]).map(
        (t) => t.id,
      );
    expect(read(1)).toEqual([1]);
    expect(read(2)).toEqual([2, 3]);
  });
});

describe('nonFilterArgumentKeys', () => {
  it('by default ignores argument names starting with "order"', () => {
    expect(todoList.nonFilterArgumentKeys('orderBy')).toBe(true);
    expect(todoList.nonFilterArgumentKeys('order')).toBe(true);
    expect(todoList.nonFilterArgumentKeys('userId')).toBe(false);
    expect(todoList.nonFilterArgumentKeys('reorder')).toBe(false);

    const tables = createTables();
    tables.normalize(todoList, [todo(1)], [{ userId: 1, orderBy: 'title' }]);
    tables.normalize(todoList, [todo(2)], [{ userId: 1 }]);
    tables.normalize(todoList.push, todo(3), [{ userId: 1 }]);
    expect(collectionRows(tables.entities)).toEqual({
      '{"orderBy":"title","userId":"1"}': ['1', '3'],
      [USER_1]: ['2', '3'],
    });
  });

  it('still counts the ignored arguments in the row identity', () => {
    expect(todoList.pk([{ userId: 1, orderBy: 'title' }])).not.toBe(todoList.pk([{ userId: 1 }]));
  });

  it('a subclass can override it', () => {
    class SearchCollection extends schema.Collection {
      override nonFilterArgumentKeys(key: string) {
        return key === 'q';
      }
    }
    const search = new SearchCollection([Todo]);
    const tables = createTables();
    tables.normalize(search, [todo(1)], [{ q: 'milk', userId: 1 }]);
    tables.normalize(search, [todo(2)], [{ orderBy: 'title' }]);
    tables.normalize(search.push, todo(3), [{ userId: 1 }]);
    expect(collectionRows(tables.entities, search.key)).toEqual({
      '{"q":"milk","userId":"1"}': ['1', '3'],
      // orderBy is a filter for this subclass, and the push has no orderBy.
      '{"orderBy":"title"}': ['2'],
    });
  });

  it.each([
    ['a predicate', (key: string) => key === 'sort'],
    ['a RegExp', /^sort$/],
    ['a list', ['sort']],
  ])('the option accepts %s', (_label, nonFilterArgumentKeys) => {
    const sorted = new schema.Collection([Todo], { nonFilterArgumentKeys });
    expect(sorted.nonFilterArgumentKeys('sort')).toBe(true);
    expect(sorted.nonFilterArgumentKeys('orderBy')).toBe(false);
    const tables = createTables();
    tables.normalize(sorted, [todo(1)], [{ sort: 'asc', userId: 1 }]);
    tables.normalize(sorted, [todo(2)], [{ orderBy: 'title', userId: 1 }]);
    tables.normalize(sorted.push, todo(3), [{ userId: 1 }]);
    expect(collectionRows(tables.entities, sorted.key)).toEqual({
      '{"sort":"asc","userId":"1"}': ['1', '3'],
      '{"orderBy":"title","userId":"1"}': ['2'],
    });
  });

  it('the createCollectionFilter option replaces the whole filter (data-client’s option)', () => {
    // Only rows of the same user receive an add; every other argument is ignored.
    const byUser = new schema.Collection([Todo], {
      createCollectionFilter: (params, body) => (rowArgs) =>
        rowArgs.userId === undefined || rowArgs.userId === `${params.userId ?? body?.userId}`,
    });
    const tables = createTables();
    tables.normalize(byUser, [todo(1)], [{ userId: 1, done: 'true' }]);
    tables.normalize(byUser, [todo(2, 2)], [{ userId: 2 }]);
    tables.normalize(byUser.push, todo(3), [{}, { userId: 1 }]);
    expect(collectionRows(tables.entities, byUser.key)).toEqual({
      '{"done":"true","userId":"1"}': ['1', '3'],
      [USER_2]: ['2'],
    });
  });
});

describe('addWith(paginatedMerge, paginatedFilter(removeCursor))', () => {
  it('appends only new pks into the row stored without the cursor', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(3), todo(2)], [{ userId: 1 }]);
    const result = tables.normalize(getPage, [todo(3), todo(20)], [{ userId: 1, cursor: 2 }]);
    expect(result).toBe(USER_1);
    expect(collectionRows(tables.entities)).toEqual({ [USER_1]: ['1', '3', '2', '20'] });
    const read = denormalize(getPage, result, tables.entities) as Todo[];
    expect(read.map((t) => t.id)).toEqual([1, 3, 2, 20]);
  });

  it('skips duplicates inside one page too', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1)], [{}]);
    tables.normalize(getPage, [todo(2), todo(2), todo(1), todo(3), todo(2)], [{ cursor: 'b' }]);
    expect(collectionRows(tables.entities)[ALL]).toEqual(['1', '2', '3']);
  });

  it('creates the row when it is not stored yet', () => {
    const tables = createTables();
    tables.normalize(getPage, [todo(5), todo(6)], [{ userId: 2, cursor: 1 }]);
    expect(collectionRows(tables.entities)).toEqual({ [USER_2]: ['5', '6'] });
  });

  it('lands only in its own row, not in other rows that a push would match', () => {
    const tables = threeRows();
    tables.normalize(getPage, [todo(7, 2)], [{ userId: 2, cursor: 2 }]);
    expect(collectionRows(tables.entities)).toEqual({
      [ALL]: ['1', '2'],
      [USER_1]: ['1'],
      [USER_2]: ['2', '7'],
    });
  });
});

describe('a Collection of union members', () => {
  const members = new schema.Collection([new schema.Union({ todo: Todo, user: User }, 'kind')]);

  it('keeps the entities of a list or a push, and leaves out an item of a type the union does not name', () => {
    const tables = createTables();
    tables.normalize(
      members,
      [
        { kind: 'todo', id: 1 },
        { kind: 'note', id: 2 },
        { kind: 'user', id: 3 },
      ],
      [{}],
    );
    tables.normalize(members.push, { kind: 'note', id: 4 }, [{}]);
    tables.normalize(members.push, { kind: 'user', id: 5 }, [{}]);
    expect(collectionRows(tables.entities, members.key)).toEqual({
      [ALL]: ['["Todo","1"]', '["User","3"]', '["User","5"]'],
    });
  });
});

describe('the list schema of a Collection', () => {
  it('is a schema.Array, whether made from [Todo] or from new schema.Array(Todo)', () => {
    expect(new schema.Collection([Todo]).schema instanceof schema.Array).toBe(true);
    expect(new schema.Collection(new schema.Array(Todo)).schema instanceof schema.Array).toBe(true);
    expect(todoList.schema.schema).toBe(Todo);
    const TodoResource = createResource({ path: '/todos/:id', schema: Todo });
    expect(TodoResource.getList.schema.schema instanceof schema.Array).toBe(true);
  });

  it('is not a schema.Values, and other schemas are not a schema.Array', () => {
    expect(todoList.schema instanceof schema.Values).toBe(false);
    expect(new schema.Values(Todo) instanceof schema.Array).toBe(false);
    expect([Todo] instanceof schema.Array).toBe(false);
    expect(Todo instanceof schema.Array).toBe(false);
  });

  it('is not an instance of a subclass of schema.Array unless made by it', () => {
    class Feed extends schema.Array {}
    expect(todoList.schema instanceof Feed).toBe(false);
    expect(new Feed(Todo) instanceof Feed).toBe(true);
    expect(new Feed(Todo) instanceof schema.Array).toBe(true);
  });
});
