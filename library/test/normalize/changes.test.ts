import { describe, expect, it } from 'vitest';
import {
  type ChangeSet,
  type CollectionChange,
  createStore,
  Entity,
  type NormalizedTables,
  normalize,
  paginatedFilter,
  paginatedMerge,
  pushMerge,
  schema,
  unshiftMerge,
} from '../../src/index.js';
import { ChangeRecorder } from '../../src/normalize/changes.js';
import {
  collectionRows,
  createTables,
  emptyTables,
  endpoint,
  Todo,
  todoList,
} from '../fixtures.js';

/** The change-set: what one write did, recorded by the normalizer and the reducer. */

const todo = (id: number, userId = 1) => ({ id, title: `todo ${id}`, userId });
const getPage = todoList.addWith(
  paginatedMerge,
  paginatedFilter((params) => {
    const { cursor: _cursor, ...rest } = params as Record<string, unknown>;
    return [rest];
  }),
);

/** Normalizes on top of `tables` and returns the change-set it recorded. */
function recorded(
  tables: ReturnType<typeof createTables>,
  changeSchema: unknown,
  input: unknown,
  args: readonly unknown[] = [],
): ChangeSet {
  const changes = new ChangeRecorder();
  tables.normalize(changeSchema, input, args, { changes });
  return changes.finish();
}

/** The collection changes of a change-set, each without the fields a test does not look at. */
const runs = ({ collections }: ChangeSet) =>
  collections.map(({ kind, inserted, duplicates, removed }) => ({
    kind,
    inserted,
    duplicates,
    removed,
  }));

const only = ({ collections }: ChangeSet): CollectionChange => {
  expect(collections).toHaveLength(1);
  return collections[0]!;
};

describe('entities', () => {
  it('added: each entity stored for the first time, nested ones included, grouped per type', () => {
    const tables = createTables();
    const changes = recorded(
      tables,
      [Todo],
      [{ ...todo(1), author: { id: 9, name: 'Ada' } }, todo(2)],
    );
    expect(changes.entities).toEqual([
      { entity: 'User', added: ['9'], updated: [], invalidated: [] },
      { entity: 'Todo', added: ['1', '2'], updated: [], invalidated: [] },
    ]);
    expect(changes.collections).toEqual([]);
    expect(changes.results).toEqual([]);
    expect(tables.rows.Todo['1']).toMatchObject({ id: 1, author: '9' });
  });

  it('updated: exactly the fields whose value changed, each with its value before and after', () => {
    const tables = createTables();
    tables.normalize(Todo, { ...todo(1), completed: false });
    const changes = recorded(tables, Todo, { id: 1, title: 'renamed', completed: true, userId: 1 });
    expect(changes.entities).toEqual([
      {
        entity: 'Todo',
        added: [],
        updated: [
          {
            pk: '1',
            fields: [
              { field: 'title', before: 'todo 1', after: 'renamed' },
              { field: 'completed', before: false, after: true },
            ],
          },
        ],
        invalidated: [],
      },
    ]);
  });

  it('updated: a field first carried by a later answer has `undefined` before it', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1 });
    expect(recorded(tables, Todo, { id: 1, userId: 3 }).entities[0]?.updated).toEqual([
      { pk: '1', fields: [{ field: 'userId', before: undefined, after: 3 }] },
    ]);
  });

  it('updated: the values are the very objects the states hold (no copies)', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1, tags: ['a'] });
    const tags = () => (tables.entities.get('Todo')!.get('1') as { tags: string[] }).tags;
    const before = tags();
    const [update] = recorded(tables, Todo, { id: 1, tags: ['b'] }).entities[0]!.updated;
    expect(update?.fields[0]?.before).toBe(before);
    expect(update?.fields[0]?.after).toBe(tags());
    expect(before).toEqual(['a']);
  });

  it('nothing for an unchanged refetch, which keeps the same row objects', () => {
    const tables = createTables();
    tables.normalize(Todo, { ...todo(1), author: { id: 9, name: 'Ada' } });
    const row = tables.entities.get('Todo')?.get('1');
    const changes = recorded(tables, Todo, { ...todo(1), author: { id: 9, name: 'Ada' } });
    expect(changes.entities).toEqual([]);
    expect(tables.entities.get('Todo')?.get('1')).toBe(row);
  });

  it('an entity stored again over an INVALID one is added', () => {
    const tables = createTables();
    tables.normalize(Todo, todo(1));
    tables.normalize(new schema.Invalidate(Todo), 1);
    expect(recorded(tables, Todo, todo(1)).entities[0]?.added).toEqual(['1']);
  });

  it.each([
    ['a pk string', '5', [], 'response'],
    ['a pk number', 5, [], 'response'],
    ['an object', { id: 5 }, [], 'response'],
  ] as const)(
    'invalidated: the pk, the input it came from and the row it held (%s)',
    (_label, input, args, via) => {
      const tables = createTables();
      tables.normalize(Todo, todo(5));
      const last = tables.entities.get('Todo')?.get('5');
      const changes = recorded(tables, new schema.Invalidate(Todo), input, args);
      expect(changes.entities).toEqual([
        {
          entity: 'Todo',
          added: [],
          updated: [],
          invalidated: [{ pk: '5', from: input, via, last }],
        },
      ]);
      // The stored row itself, not a copy.
      expect(changes.entities[0]?.invalidated[0]?.last).toBe(last);
    },
  );

  it("invalidated via the URL params: the call's own params object stood in for the answer", () => {
    const tables = createTables();
    tables.normalize(Todo, todo(5));
    const params = { id: 5 };
    const [invalidation] = recorded(tables, new schema.Invalidate(Todo), params, [params])
      .entities[0]!.invalidated;
    expect(invalidation).toEqual({ pk: '5', from: params, via: 'url-params', last: todo(5) });
    expect(invalidation?.from).toBe(params);
  });

  it('invalidated without a row: the store held none, or held it deleted already', () => {
    const tables = createTables();
    const never = recorded(tables, new schema.Invalidate(Todo), '7');
    expect(never.entities[0]?.invalidated).toEqual([{ pk: '7', from: '7', via: 'response' }]);
    tables.normalize(Todo, todo(5));
    tables.normalize(new schema.Invalidate(Todo), '5');
    const again = recorded(tables, new schema.Invalidate(Todo), '5');
    expect(again.entities[0]?.invalidated).toEqual([{ pk: '5', from: '5', via: 'response' }]);
  });
});

describe('collections', () => {
  function listed() {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    tables.normalize(todoList, [todo(1)], [{ userId: 1 }]);
    tables.normalize(todoList, [todo(2, 2)], [{ userId: 2 }]);
    return tables;
  }

  it('replace: a fetched list, with the runs it inserted, what it removed and its members', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    expect(recorded(tables, todoList, [todo(3), todo(1)], [{}]).collections).toEqual([
      {
        collection: '[Todo]',
        row: '{}',
        kind: 'replace',
        lengthBefore: 2,
        lengthAfter: 2,
        inserted: [{ index: 0, pks: ['3'] }],
        duplicates: [],
        removed: ['2'],
        members: ['3', '1'],
      },
    ]);
  });

  it('replace: a refetch that changed nothing is not news', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    expect(recorded(tables, todoList, [todo(1), todo(2)], [{}]).collections).toEqual([]);
  });

  it('push: each receiving row with the pk, its index and the lengths', () => {
    const tables = listed();
    const changes = recorded(tables, todoList.push, todo(3), [{ userId: 1 }]);
    expect(changes.entities[0]?.added).toEqual(['3']);
    expect(changes.collections).toEqual([
      {
        collection: '[Todo]',
        row: '{}',
        kind: 'push',
        lengthBefore: 2,
        lengthAfter: 3,
        inserted: [{ index: 2, pks: ['3'] }],
        duplicates: [],
        removed: [],
      },
      {
        collection: '[Todo]',
        row: '{"userId":"1"}',
        kind: 'push',
        lengthBefore: 1,
        lengthAfter: 2,
        inserted: [{ index: 1, pks: ['3'] }],
        duplicates: [],
        removed: [],
      },
    ]);
  });

  it('push of several: one run at the end', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    const changes = recorded(tables, todoList.addWith(pushMerge), [todo(3), todo(4)], [{}]);
    expect(runs(changes)).toEqual([
      { kind: 'push', inserted: [{ index: 2, pks: ['3', '4'] }], duplicates: [], removed: [] },
    ]);
  });

  it('push of a member: a duplicate, nothing inserted', () => {
    const tables = listed();
    expect(only(recorded(tables, todoList.push, todo(1), [{}]))).toMatchObject({
      kind: 'push',
      lengthBefore: 2,
      lengthAfter: 2,
      inserted: [],
      duplicates: ['1'],
    });
  });

  it('unshift: one run at index 0 in the order they came, members met again as duplicates', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    const changes = recorded(
      tables,
      todoList.addWith(unshiftMerge),
      [todo(7), todo(2), todo(8)],
      [{}],
    );
    expect(runs(changes)).toEqual([
      {
        kind: 'unshift',
        inserted: [{ index: 0, pks: ['7', '8'] }],
        duplicates: ['2'],
        removed: [],
      },
    ]);
    expect(collectionRows(tables.entities)['{}']).toEqual(['7', '8', '1', '2']);
  });

  it('page-merge: the run after the members, duplicates from the list and within the page', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(3), todo(2)], [{ userId: 1 }]);
    const change = only(
      recorded(
        tables,
        getPage,
        [3, 20, 21, 20, 1, 22].map((id) => todo(id)),
        [{ userId: 1, cursor: 2 }],
      ),
    );
    expect(change).toEqual({
      collection: '[Todo]',
      row: '{"userId":"1"}',
      kind: 'page-merge',
      lengthBefore: 3,
      lengthAfter: 6,
      inserted: [{ index: 3, pks: ['20', '21', '22'] }],
      duplicates: ['3', '20', '1'],
      removed: [],
    });
  });

  it('page-merge creating its row: lengthBefore 0', () => {
    expect(only(recorded(createTables(), getPage, [todo(1)], [{ cursor: 1 }]))).toMatchObject({
      row: '{}',
      kind: 'page-merge',
      lengthBefore: 0,
      lengthAfter: 1,
    });
  });

  it('a custom add (a sorting merge): a run per stretch it inserted, duplicates still right', () => {
    const sorted = todoList.addWith((existing, incoming) =>
      [...new Set([...existing, ...incoming])].sort((a, b) => Number(a) - Number(b)),
    );
    const tables = createTables();
    tables.normalize(
      todoList,
      [1, 3, 5].map((id) => todo(id)),
      [{}],
    );
    const change = only(
      recorded(
        tables,
        sorted,
        [4, 2, 4, 3, 6].map((id) => todo(id)),
        [{}],
      ),
    );
    expect(change).toEqual({
      collection: '[Todo]',
      row: '{}',
      kind: 'add',
      lengthBefore: 3,
      lengthAfter: 6,
      inserted: [
        { index: 1, pks: ['2'] },
        { index: 3, pks: ['4'] },
        { index: 5, pks: ['6'] },
      ],
      duplicates: ['4', '3'],
      removed: [],
    });
    // Every run names the pks found at its index in the new list.
    const members = collectionRows(tables.entities)['{}'] as string[];
    for (const run of change.inserted)
      expect(members.slice(run.index, run.index + run.pks.length)).toEqual(run.pks);
  });

  it('replace: a run for each stretch of new members; one that only drops members has none', () => {
    const tables = createTables();
    tables.normalize(
      todoList,
      [1, 2, 3, 4].map((id) => todo(id)),
      [{}],
    );
    expect(
      runs(
        recorded(
          tables,
          todoList,
          [5, 2, 6, 7, 4].map((id) => todo(id)),
          [{}],
        ),
      ),
    ).toEqual([
      {
        kind: 'replace',
        inserted: [
          { index: 0, pks: ['5'] },
          { index: 2, pks: ['6', '7'] },
        ],
        duplicates: [],
        removed: ['1', '3'],
      },
    ]);
    expect(
      runs(
        recorded(
          tables,
          todoList,
          [5, 4].map((id) => todo(id)),
          [{}],
        ),
      ),
    ).toEqual([{ kind: 'replace', inserted: [], duplicates: [], removed: ['2', '6', '7'] }]);
  });

  it('replace: only repeats within the list are duplicates', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1)], [{}]);
    expect(
      only(
        recorded(
          tables,
          todoList,
          [1, 2, 1, 3, 2].map((id) => todo(id)),
          [{}],
        ),
      ),
    ).toMatchObject({
      kind: 'replace',
      members: ['1', '2', '3'],
      inserted: [{ index: 1, pks: ['2', '3'] }],
      duplicates: ['1', '2'],
    });
  });

  it('invalidate: the pk removed from each row that held it, and no other row', () => {
    const tables = listed();
    const rowOfUser1 = tables.entities.get('[Todo]')?.get('{"userId":"1"}');
    const changes = recorded(tables, new schema.Invalidate(Todo), '2');
    expect(changes.entities[0]?.invalidated).toEqual([
      { pk: '2', from: '2', via: 'response', last: todo(2, 2) },
    ]);
    expect(changes.collections).toEqual([
      {
        collection: '[Todo]',
        row: '{}',
        kind: 'invalidate',
        lengthBefore: 2,
        lengthAfter: 1,
        inserted: [],
        duplicates: [],
        removed: ['2'],
      },
      {
        collection: '[Todo]',
        row: '{"userId":"2"}',
        kind: 'invalidate',
        lengthBefore: 1,
        lengthAfter: 0,
        inserted: [],
        duplicates: [],
        removed: ['2'],
      },
    ]);
    expect(tables.entities.get('[Todo]')?.get('{"userId":"1"}')).toBe(rowOfUser1);
  });
});

describe('recording changes nothing', () => {
  it('the tables are the same with and without a recorder', () => {
    const steps: [unknown, unknown, unknown[]][] = [
      [todoList, [{ ...todo(1), author: { id: 9, name: 'Ada' } }, todo(2)], [{}]],
      [todoList, [todo(1)], [{ userId: 1 }]],
      [todoList.push, todo(3), [{ userId: 1 }]],
      [todoList.unshift, todo(4, 2), [{}]],
      [getPage, [todo(4), todo(5), todo(5)], [{ cursor: 2 }]],
      [Todo, { id: 1, title: 'renamed' }, []],
      [new schema.Invalidate(Todo), 2, []],
    ];
    const meta = { date: 1, fetchedAt: 1, expiresAt: 2 };
    let recordedTables: NormalizedTables = emptyTables();
    let plainTables: NormalizedTables = emptyTables();
    let items = 0;
    for (const [stepSchema, input, args] of steps) {
      const changes = new ChangeRecorder();
      const a = normalize(stepSchema, input, args, recordedTables, { meta, changes });
      const { entities, collections } = changes.finish();
      items += entities.length + collections.length;
      const b = normalize(stepSchema, input, args, plainTables, { meta });
      expect(a.result).toEqual(b.result);
      recordedTables = a;
      plainTables = b;
    }
    expect(items).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(recordedTables.entities))).toEqual(
      JSON.parse(JSON.stringify(plainTables.entities)),
    );
  });
});

describe('through the store: results and reset', () => {
  class Note extends Entity {
    id = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'Note';
  }
  const getNote = endpoint('getNote', Note);
  const saveNote = endpoint('saveNote', Note, { sideEffect: true });

  /** The change-set of every action the store runs. */
  function observed() {
    const store = createStore();
    const changes: ChangeSet[] = [];
    store.observe((record) => changes.push(record.changes));
    return { store, changes, last: () => changes.at(-1) };
  }

  it("result-stored for every answer, with its key and expiry (a mutation's too)", () => {
    const { store, last } = observed();
    store.controller.setResponse(getNote, { id: 1 }, { id: 1 });
    const { expiresAt } = store.getState().meta.get('getNote [{"id":1}]')!;
    expect(last()?.results).toEqual([
      { type: 'result-stored', key: 'getNote [{"id":1}]', expiresAt, kept: true, result: '1' },
    ]);
    store.controller.setResponse(saveNote, { id: 2 }, { id: 2 });
    expect(last()?.results).toMatchObject([{ type: 'result-stored', key: 'saveNote [{"id":2}]' }]);
    expect(last()?.entities[0]?.added).toEqual(['2']);
  });

  it("kept: a read's newest answer is its key's result, with the value the store keeps", () => {
    const { store, last } = observed();
    store.controller.resolve(getNote, { args: [{ id: 1 }], response: { id: 1 }, fetchedAt: 2 });
    const [stored] = last()!.results;
    expect(stored).toMatchObject({ type: 'result-stored', kept: true, result: '1' });
    expect(stored).toHaveProperty('result', store.getState().endpoints.get('getNote [{"id":1}]'));
  });

  it("kept: not an answer to a request older than the stored result's, nor its error", () => {
    const { store, last } = observed();
    const key = 'getNote [{"id":1}]';
    store.controller.resolve(getNote, { args: [{ id: 1 }], response: { id: 1 }, fetchedAt: 2 });
    const stored = store.getState().meta.get(key);
    store.controller.resolve(getNote, {
      args: [{ id: 1 }],
      response: { id: 1, a: 1 },
      fetchedAt: 1,
    });
    expect(last()?.results).toEqual([
      { type: 'result-stored', key, expiresAt: expect.any(Number), kept: false },
    ]);
    const error = new Error('late');
    store.controller.resolve(getNote, { args: [{ id: 1 }], error, fetchedAt: 1 });
    expect(last()?.results).toEqual([{ type: 'result-error', key, error, kept: false }]);
    expect(store.getState().meta.get(key)).toBe(stored);
  });

  it("kept: never a mutation's answer or error (they only reach the tables)", () => {
    const { store, last } = observed();
    store.controller.setResponse(saveNote, { id: 2 }, { id: 2 });
    expect(last()?.results).toEqual([
      {
        type: 'result-stored',
        key: 'saveNote [{"id":2}]',
        expiresAt: expect.any(Number),
        kept: false,
      },
    ]);
    const error = new Error('refused');
    store.controller.setError(saveNote, { id: 3 }, error);
    expect(last()?.results).toEqual([
      { type: 'result-error', key: 'saveNote [{"id":3}]', error, kept: false },
    ]);
    expect(store.getState().meta.get('saveNote [{"id":2}]')).toBeUndefined();
  });

  it('result-error with the error itself; an answer that does not fit the schema records only it', () => {
    const { store, last } = observed();
    const error = new Error('not found');
    store.controller.setError(getNote, { id: 9 }, error);
    expect(last()?.results).toEqual([
      { type: 'result-error', key: 'getNote [{"id":9}]', error, kept: true },
    ]);
    store.controller.setResponse(getNote, { id: 8 }, 'not a note');
    expect(last()?.entities).toEqual([]);
    expect(last()?.results).toMatchObject([
      { type: 'result-error', key: 'getNote [{"id":8}]', error: expect.any(Error), kept: true },
    ]);
  });

  it('result-invalidated and result-expired for each key the action matched', () => {
    const { store, last } = observed();
    store.controller.setResponse(getNote, { id: 1 }, { id: 1 });
    store.controller.setResponse(getNote, { id: 2 }, { id: 2 });
    store.controller.invalidate(getNote, { id: 1 });
    expect(last()?.results).toEqual([{ type: 'result-invalidated', key: 'getNote [{"id":1}]' }]);
    store.controller.expireAll(() => true);
    expect(last()?.results).toEqual([
      { type: 'result-expired', key: 'getNote [{"id":1}]' },
      { type: 'result-expired', key: 'getNote [{"id":2}]' },
    ]);
  });

  it('reset: the flag, and nothing else', () => {
    const { store, last } = observed();
    store.controller.setResponse(getNote, { id: 1 }, { id: 1 });
    store.controller.resetEntireStore();
    expect(last()).toEqual({ entities: [], collections: [], results: [], reset: true });
  });

  it('an action that changes nothing reaches no observer', () => {
    const { store, changes } = observed();
    store.controller.invalidateAll(() => true); // nothing stored yet
    store.controller.expireAll(() => true);
    expect(changes).toEqual([]);
  });
});

describe('a refetch of the same data', () => {
  class Tagged extends Entity {
    id = '';
    tags: string[] = [];
    address = { city: '' };
    pk() {
      return this.id;
    }
    static override key = 'Tagged';
  }
  const Get = endpoint('Tagged.get', Tagged);
  const row = (store: ReturnType<typeof createStore>) =>
    store.getState().entities.get('Tagged')?.get('1');

  it('keeps the row (lists and objects compared by their items) and records no update', async () => {
    const store = createStore();
    const answer = () => ({ id: '1', tags: ['a', 'b'], address: { city: 'Oslo' } });
    await store.controller.setResponse(Get, { id: '1' }, answer());
    const first = row(store);
    const seen: ChangeSet[] = [];
    store.observe(({ changes }) => seen.push(changes));
    await store.controller.setResponse(Get, { id: '1' }, answer());
    expect(row(store)).toBe(first);
    expect(seen.flatMap((changes) => changes.entities)).toEqual([]);
  });

  it('records the fields whose data changed, however deep, and only those', async () => {
    const store = createStore();
    await store.controller.setResponse(
      Get,
      { id: '1' },
      {
        id: '1',
        tags: ['a', 'b'],
        address: { city: 'Oslo' },
      },
    );
    const seen: ChangeSet[] = [];
    store.observe(({ changes }) => seen.push(changes));
    await store.controller.setResponse(
      Get,
      { id: '1' },
      {
        id: '1',
        tags: ['a', 'b'],
        address: { city: 'Bergen' },
      },
    );
    await store.controller.setResponse(
      Get,
      { id: '1' },
      {
        id: '1',
        tags: ['a', 'b', 'c'],
        address: { city: 'Bergen' },
      },
    );
    const updated = seen.flatMap((changes) =>
      changes.entities.flatMap(({ updated }) => updated.flatMap(({ fields }) => fields)),
    );
    expect(updated.map(({ field }) => field)).toEqual(['address', 'tags']);
    expect(row(store)).toEqual({ id: '1', tags: ['a', 'b', 'c'], address: { city: 'Bergen' } });
  });
});
