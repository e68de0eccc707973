import { describe, expect, it } from 'vitest';
import {
  createStore,
  Entity,
  type NormalizedTables,
  normalize,
  paginatedFilter,
  paginatedMerge,
  pushMerge,
  schema,
  Trace,
  type TraceEvent,
  unpackTrace,
  unshiftMerge,
} from '../../src/index.js';
import { createTables, emptyTables, endpoint, Todo, todoList } from '../fixtures.js';

const todo = (id: number, userId = 1) => ({ id, title: `todo ${id}`, userId });
const getPage = todoList.addWith(
  paginatedMerge,
  paginatedFilter((params) => {
    const { cursor: _cursor, ...rest } = params as Record<string, unknown>;
    return [rest];
  }),
);

/** Normalizes on top of `tables` and returns what the trace recorded. */
function traced(
  tables: ReturnType<typeof createTables>,
  traceSchema: unknown,
  input: unknown,
  args: readonly unknown[] = [],
): readonly TraceEvent[] {
  const trace = new Trace();
  tables.normalize(traceSchema, input, args, { trace });
  // What a keeper of the trace reads: the packed copy, unpacked.
  return unpackTrace(trace.kept());
}

const ofType = <T extends TraceEvent['type']>(events: readonly TraceEvent[], type: T) =>
  events.filter((event): event is Extract<TraceEvent, { type: T }> => event.type === type);

describe('trace: entities', () => {
  it('reports each entity added, nested ones included', () => {
    const tables = createTables();
    const events = traced(tables, Todo, {
      ...todo(1),
      author: { id: 9, name: 'Ada' },
    });
    expect(events).toEqual([
      { type: 'entities-added', entity: 'User', pks: ['9'] },
      { type: 'entities-added', entity: 'Todo', pks: ['1'] },
    ]);
    // The trace names the rows; the tables hold them.
    expect(tables.entities.User?.['9']).toEqual({ id: 9, name: 'Ada' });
    expect(tables.entities.Todo?.['1']).toMatchObject({ id: 1, title: 'todo 1', author: '9' });
  });

  it('reports an update with exactly the fields whose value changed', () => {
    const tables = createTables();
    tables.normalize(Todo, { ...todo(1), completed: false });
    const events = traced(tables, Todo, { id: 1, title: 'renamed', completed: true, userId: 1 });
    expect(events).toEqual([
      { type: 'entities-updated', entity: 'Todo', pks: ['1'], fields: [['title', 'completed']] },
    ]);
    expect(tables.entities.Todo?.['1']).toMatchObject({ title: 'renamed', completed: true });
  });

  it('reports a field first carried by a later response as updated', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1 });
    expect(traced(tables, Todo, { id: 1, userId: 3 })).toEqual([
      { type: 'entities-updated', entity: 'Todo', pks: ['1'], fields: [['userId']] },
    ]);
    expect(tables.entities.Todo?.['1']).toEqual({ id: 1, userId: 3 });
  });

  it('reports nothing for an unchanged refetch and keeps the same row object', () => {
    const tables = createTables();
    tables.normalize(Todo, { ...todo(1), author: { id: 9, name: 'Ada' } });
    const row = tables.entities.Todo?.['1'];
    const userRow = tables.entities.User?.['9'];
    const events = traced(tables, Todo, { ...todo(1), author: { id: 9, name: 'Ada' } });
    expect(events).toEqual([]);
    expect(tables.entities.Todo?.['1']).toBe(row);
    expect(tables.entities.User?.['9']).toBe(userRow);
  });

  it('reports an entity replacing an INVALID one as added', () => {
    const tables = createTables();
    tables.normalize(Todo, todo(1));
    tables.normalize(new schema.Invalidate(Todo), 1);
    expect(traced(tables, Todo, todo(1))).toEqual([
      { type: 'entities-added', entity: 'Todo', pks: ['1'] },
    ]);
    expect(tables.entities.Todo?.['1']).toEqual(todo(1));
  });

  it.each([
    ['a pk string', '5'],
    ['a pk number', 5],
    ['an object', { id: 5 }],
  ])('reports an invalidation with the input its pk came from (%s)', (_label, input) => {
    const tables = createTables();
    tables.normalize(Todo, todo(5));
    const events = traced(tables, new schema.Invalidate(Todo), input, [{ id: 5 }]);
    expect(ofType(events, 'entity-invalidated')).toEqual([
      { type: 'entity-invalidated', entity: 'Todo', pk: '5', from: input, via: 'response' },
    ]);
  });
});

describe('trace: collections', () => {
  function listed() {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    tables.normalize(todoList, [todo(1)], [{ userId: 1 }]);
    tables.normalize(todoList, [todo(2, 2)], [{ userId: 2 }]);
    return tables;
  }

  it('reports a fetched list as a replace, with the pks it inserted', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    const events = traced(tables, todoList, [todo(3), todo(1)], [{}]);
    expect(ofType(events, 'collection-changed')).toEqual([
      {
        type: 'collection-changed',
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

  it('reports a push per receiving row with the pk, its index and the lengths', () => {
    const tables = listed();
    const events = traced(tables, todoList.push, todo(3), [{ userId: 1 }]);
    expect(ofType(events, 'entities-added')).toEqual([
      { type: 'entities-added', entity: 'Todo', pks: ['3'] },
    ]);
    expect(ofType(events, 'collection-changed')).toEqual([
      {
        type: 'collection-changed',
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
        type: 'collection-changed',
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

  it('reports an unshift with index 0', () => {
    const tables = listed();
    const events = ofType(
      traced(tables, todoList.unshift, todo(4, 2), [{ userId: 2 }]),
      'collection-changed',
    );
    expect(
      events.map(({ row, kind, inserted, lengthBefore, lengthAfter }) => ({
        row,
        kind,
        inserted,
        lengthBefore,
        lengthAfter,
      })),
    ).toEqual([
      {
        row: '{}',
        kind: 'unshift',
        inserted: [{ index: 0, pks: ['4'] }],
        lengthBefore: 2,
        lengthAfter: 3,
      },
      {
        row: '{"userId":"2"}',
        kind: 'unshift',
        inserted: [{ index: 0, pks: ['4'] }],
        lengthBefore: 1,
        lengthAfter: 2,
      },
    ]);
  });

  it('reports a pushed pk already present as a skipped duplicate', () => {
    const tables = listed();
    const events = ofType(traced(tables, todoList.push, todo(1), [{}]), 'collection-changed');
    expect(events).toEqual([
      {
        type: 'collection-changed',
        collection: '[Todo]',
        row: '{}',
        kind: 'push',
        lengthBefore: 2,
        lengthAfter: 2,
        inserted: [],
        duplicates: ['1'],
        removed: [],
      },
    ]);
  });

  it('reports a page merge with inserted pks and duplicates from the list and within the page', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(3), todo(2)], [{ userId: 1 }]);
    const events = traced(
      tables,
      getPage,
      [todo(3), todo(20), todo(21), todo(20)],
      [{ userId: 1, cursor: 2 }],
    );
    expect(ofType(events, 'collection-changed')).toEqual([
      {
        type: 'collection-changed',
        collection: '[Todo]',
        row: '{"userId":"1"}',
        kind: 'page-merge',
        lengthBefore: 3,
        lengthAfter: 5,
        inserted: [{ index: 3, pks: ['20', '21'] }],
        duplicates: ['3', '20'],
        removed: [],
      },
    ]);
  });

  it('reports a page creating its row with lengthBefore 0', () => {
    const events = traced(createTables(), getPage, [todo(1)], [{ cursor: 1 }]);
    expect(ofType(events, 'collection-changed')).toMatchObject([
      { row: '{}', kind: 'page-merge', lengthBefore: 0, lengthAfter: 1 },
    ]);
  });

  it('reports the pks an invalidation removed from each row that held them', () => {
    const tables = listed();
    const events = traced(tables, new schema.Invalidate(Todo), '2');
    expect(events).toEqual([
      { type: 'entity-invalidated', entity: 'Todo', pk: '2', from: '2', via: 'response' },
      {
        type: 'collection-changed',
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
        type: 'collection-changed',
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
  });

  it("reaches the store's observers with each action", () => {
    const events: TraceEvent[] = [];
    const store = createStore();
    store.observe((record) => events.push(...(record.trace?.events ?? [])));
    const getList = endpoint('getList', todoList);
    store.controller.setResponse(getList, {}, [todo(1)]);
    expect(events.map((event) => event.type)).toEqual(['entities-added', 'collection-changed']);
  });
});

describe('trace: entities grouped per type', () => {
  const withAuthor = (id: number, authorId: number, name = `user ${authorId}`) => ({
    ...todo(id),
    author: { id: authorId, name },
  });

  it('a list of todos with nested authors: one group per type, every pk once, in order', () => {
    const tables = createTables();
    const events = traced(
      tables,
      todoList,
      [withAuthor(4, 9), withAuthor(2, 8), withAuthor(7, 9), withAuthor(1, 7), withAuthor(3, 8)],
      [{}],
    );
    expect(events).toEqual([
      // The first author is met before the first todo (nested values are stored first).
      { type: 'entities-added', entity: 'User', pks: ['9', '8', '7'] },
      { type: 'entities-added', entity: 'Todo', pks: ['4', '2', '7', '1', '3'] },
      expect.objectContaining({
        type: 'collection-changed',
        kind: 'replace',
        members: ['4', '2', '7', '1', '3'],
      }),
    ]);
    expect(Object.keys(tables.entities.Todo ?? {}).sort()).toEqual(['1', '2', '3', '4', '7']);
  });

  it('updates: one group per type, with the changed fields of each pk at its index', () => {
    const tables = createTables();
    tables.normalize(todoList, [withAuthor(1, 9), withAuthor(2, 9), withAuthor(3, 8)], [{}]);
    const events = traced(
      tables,
      todoList,
      [
        { ...withAuthor(1, 9), title: 'renamed' },
        withAuthor(2, 9, 'Ada'), // only the author changed
        { ...withAuthor(3, 8), completed: true, userId: 5 }, // fields in the row's order
        withAuthor(4, 6), // new, with a new author
      ],
      [{}],
    );
    expect(events).toEqual([
      {
        type: 'entities-updated',
        entity: 'Todo',
        pks: ['1', '3'],
        fields: [['title'], ['userId', 'completed']],
      },
      { type: 'entities-updated', entity: 'User', pks: ['9'], fields: [['name']] },
      { type: 'entities-added', entity: 'User', pks: ['6'] },
      { type: 'entities-added', entity: 'Todo', pks: ['4'] },
      expect.objectContaining({ type: 'collection-changed', kind: 'replace' }),
    ]);
  });

  it('after an invalidation of a type, its later adds and updates open new groups (order kept)', () => {
    const tables = createTables();
    tables.normalize(Todo, todo(2));
    tables.normalize(Todo, todo(5));
    const events = traced(
      tables,
      {
        first: [Todo],
        gone: new schema.Invalidate(Todo),
        again: [Todo],
      },
      {
        first: [{ id: 5, title: 'five' }, todo(1), withAuthor(6, 9)],
        gone: 2,
        again: [todo(2), { id: 5, title: 'FIVE' }, todo(3), withAuthor(8, 7)],
      },
    );
    expect(events).toEqual([
      { type: 'entities-updated', entity: 'Todo', pks: ['5'], fields: [['title']] },
      { type: 'entities-added', entity: 'Todo', pks: ['1', '6'] },
      // Todo 2's invalidation closes the Todo groups, not the User one.
      { type: 'entities-added', entity: 'User', pks: ['9', '7'] },
      { type: 'entity-invalidated', entity: 'Todo', pk: '2', from: 2, via: 'response' },
      { type: 'entities-added', entity: 'Todo', pks: ['2', '3', '8'] },
      { type: 'entities-updated', entity: 'Todo', pks: ['5'], fields: [['title']] },
    ]);
    // Applied in order, the events end where the store did: todo 2 deleted, then stored again.
    expect(tables.entities.Todo?.['2']).toEqual(todo(2));
    expect(tables.entities.Todo?.['5']).toMatchObject({ title: 'FIVE' });
  });

  it('the Trace class on its own: groups, fields per pk, and invalidations that split groups', () => {
    const trace = new Trace();
    trace.entityAdded('Todo', '1');
    trace.entityUpdated('User', '9', ['name']);
    trace.entityAdded('User', '8');
    trace.entityAdded('Todo', '2');
    trace.entityUpdated('User', '7', ['name', 'email']);
    trace.entityInvalidated({ entity: 'User', pk: '8', from: '8', via: 'response' });
    trace.entityAdded('Todo', '3');
    trace.entityAdded('User', '8');
    trace.entityUpdated('User', '9', ['email']);
    expect(trace.events).toEqual([
      { type: 'entities-added', entity: 'Todo', pks: ['1', '2', '3'] },
      {
        type: 'entities-updated',
        entity: 'User',
        pks: ['9', '7'],
        fields: [['name'], ['name', 'email']],
      },
      { type: 'entities-added', entity: 'User', pks: ['8'] },
      { type: 'entity-invalidated', entity: 'User', pk: '8', from: '8', via: 'response' },
      { type: 'entities-added', entity: 'User', pks: ['8'] },
      { type: 'entities-updated', entity: 'User', pks: ['9'], fields: [['email']] },
    ]);
  });
});

describe('trace: lists name their new entities', () => {
  /** An entity that may nest one of its own type. */
  class Node extends Entity {
    id = 0;
    parent: Node | null = null;
    pk() {
      return `${this.id}`;
    }
    static override key = 'Node';
    static override schema = { parent: Node };
  }

  it("an entity nested in an item of its own type is reported apart from the list's items", () => {
    const tables = createTables();
    const trace = new Trace();
    const result = tables.normalize(
      [Node],
      [{ id: 1, parent: { id: 2 } }, { id: 3 }, { id: 1 }, { id: 4, parent: { id: 1 } }],
      [],
      { trace },
    );
    expect(result).toEqual(['1', '3', '1', '4']);
    expect(trace.events).toEqual([
      { type: 'entities-added', entity: 'Node', pks: ['2'] },
      // Node 1 met again is not new: the items' group is the runs before and after it.
      { type: 'entities-added', entity: 'Node', pks: ['1', '3', '4'] },
    ]);
  });

  it('an invalidation inside a list splits its group: adds before it are reported before it', () => {
    const trace = new Trace();
    const out: string[] = [];
    const item = (pk: string) => {
      trace.entityAdded('Todo', pk);
      out.push(pk);
      trace.itemListed(pk);
    };
    trace.listStarted('Todo', out);
    item('1');
    trace.entityAdded('Todo', '2'); // nested in the next item
    trace.entityInvalidated({ entity: 'Todo', pk: '7', from: 7, via: 'response' });
    item('3');
    trace.listEnded();
    expect(trace.events).toEqual([
      { type: 'entities-added', entity: 'Todo', pks: ['1'] },
      { type: 'entities-added', entity: 'Todo', pks: ['2'] },
      { type: 'entity-invalidated', entity: 'Todo', pk: '7', from: 7, via: 'response' },
      { type: 'entities-added', entity: 'Todo', pks: ['3'] },
    ]);
  });
});

describe('trace: inserted runs', () => {
  const pushMany = todoList.addWith(pushMerge);
  const unshiftMany = todoList.addWith(unshiftMerge);
  const changes = (events: readonly TraceEvent[]) =>
    ofType(events, 'collection-changed').map(({ kind, inserted, duplicates, removed }) => ({
      kind,
      inserted,
      duplicates,
      removed,
    }));

  it('a push of several: one run at the end', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    const events = traced(tables, pushMany, [todo(3), todo(4), todo(5)], [{}]);
    expect(changes(events)).toEqual([
      { kind: 'push', inserted: [{ index: 2, pks: ['3', '4', '5'] }], duplicates: [], removed: [] },
    ]);
    expect(tables.entities['[Todo]']?.['{}']).toEqual(['1', '2', '3', '4', '5']);
  });

  it('an unshift of several: one run at index 0, in the order they came', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{}]);
    const events = traced(tables, unshiftMany, [todo(7), todo(2), todo(8)], [{}]);
    expect(changes(events)).toEqual([
      {
        kind: 'unshift',
        inserted: [{ index: 0, pks: ['7', '8'] }],
        duplicates: ['2'],
        removed: [],
      },
    ]);
    expect(tables.entities['[Todo]']?.['{}']).toEqual(['7', '8', '1', '2']);
  });

  it('a page merged into a long list: one run after the members, whatever its length', () => {
    const tables = createTables();
    const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
    tables.normalize(
      todoList,
      ids(1, 100).map((id) => todo(id)),
      [{ userId: 1 }],
    );
    const page = ids(91, 60); // 91…100 are members already
    const events = traced(
      tables,
      getPage,
      page.map((id) => todo(id)),
      [{ userId: 1, cursor: 2 }],
    );
    expect(changes(events)).toEqual([
      {
        kind: 'page-merge',
        inserted: [{ index: 100, pks: ids(101, 50).map(String) }],
        duplicates: ids(91, 10).map(String),
        removed: [],
      },
    ]);
  });

  it('a replace: a run for each stretch of new members, and the members it lost', () => {
    const tables = createTables();
    tables.normalize(
      todoList,
      [1, 2, 3, 4].map((id) => todo(id)),
      [{}],
    );
    const events = traced(
      tables,
      todoList,
      [5, 2, 6, 7, 4].map((id) => todo(id)),
      [{}],
    );
    expect(changes(events)).toEqual([
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
    // Every run names the pks found at its index in the new list.
    const members = tables.entities['[Todo]']?.['{}'] as string[];
    for (const run of ofType(events, 'collection-changed')[0]!.inserted)
      expect(members.slice(run.index, run.index + run.pks.length)).toEqual(run.pks);
  });

  it('a replace that appends keeps a single run; one that only drops members has none', () => {
    const tables = createTables();
    tables.normalize(
      todoList,
      [1, 2].map((id) => todo(id)),
      [{}],
    );
    expect(
      changes(
        traced(
          tables,
          todoList,
          [1, 2, 3, 4].map((id) => todo(id)),
          [{}],
        ),
      ),
    ).toEqual([
      { kind: 'replace', inserted: [{ index: 2, pks: ['3', '4'] }], duplicates: [], removed: [] },
    ]);
    expect(
      changes(
        traced(
          tables,
          todoList,
          [1, 4].map((id) => todo(id)),
          [{}],
        ),
      ),
    ).toEqual([{ kind: 'replace', inserted: [], duplicates: [], removed: ['2', '3'] }]);
  });
});

describe('trace: duplicates', () => {
  const changed = (events: readonly TraceEvent[]) => {
    const [change] = ofType(events, 'collection-changed');
    if (!change) throw new Error('no collection change');
    return change;
  };

  it('repeats inside a page, and members it met again, each reported where it came', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(3), todo(2)], [{ userId: 1 }]);
    const events = traced(
      tables,
      getPage,
      [3, 20, 21, 20, 1, 21, 22, 3].map((id) => todo(id)),
      [{ userId: 1, cursor: 2 }],
    );
    expect(changed(events)).toMatchObject({
      kind: 'page-merge',
      inserted: [{ index: 3, pks: ['20', '21', '22'] }],
      duplicates: ['3', '20', '1', '21', '3'],
      lengthBefore: 3,
      lengthAfter: 6,
    });
  });

  it('a replace reports only the repeats within the list as duplicates', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1)], [{}]);
    const events = traced(
      tables,
      todoList,
      [1, 2, 1, 3, 2].map((id) => todo(id)),
      [{}],
    );
    expect(changed(events)).toMatchObject({
      kind: 'replace',
      members: ['1', '2', '3'],
      inserted: [{ index: 1, pks: ['2', '3'] }],
      duplicates: ['1', '2'],
    });
  });

  it('a custom merge that sorts the list: several runs, duplicates still right', () => {
    const sorted = todoList.addWith((existing, incoming) =>
      [...new Set([...existing, ...incoming])].sort((a, b) => Number(a) - Number(b)),
    );
    const tables = createTables();
    tables.normalize(
      todoList,
      [1, 3, 5].map((id) => todo(id)),
      [{}],
    );
    const events = traced(
      tables,
      sorted,
      [4, 2, 4, 3, 6].map((id) => todo(id)),
      [{}],
    );
    expect(changed(events)).toEqual({
      type: 'collection-changed',
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
    expect(tables.entities['[Todo]']?.['{}']).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('a custom merge that inserts one run in another order than the input: duplicates still right', () => {
    // Prepends the new pks reversed: one run, but not in the order they came.
    const reversed = todoList.addWith((existing, incoming) => [
      ...[...new Set(incoming)].filter((pk) => !existing.includes(pk)).reverse(),
      ...existing,
    ]);
    const tables = createTables();
    tables.normalize(
      todoList,
      [1, 2].map((id) => todo(id)),
      [{}],
    );
    const events = traced(
      tables,
      reversed,
      [3, 4, 1, 5].map((id) => todo(id)),
      [{}],
    );
    expect(changed(events)).toMatchObject({
      kind: 'add',
      inserted: [{ index: 0, pks: ['5', '4', '3'] }],
      duplicates: ['1'],
      removed: [],
    });
    expect(tables.entities['[Todo]']?.['{}']).toEqual(['5', '4', '3', '1', '2']);
  });
});

describe('trace: invalidation', () => {
  it('removes exactly the invalidated pk from a long row: removed [pk], nothing inserted', () => {
    const tables = createTables();
    const ids = Array.from({ length: 500 }, (_, index) => index + 1);
    tables.normalize(
      todoList,
      ids.map((id) => todo(id)),
      [{}],
    );
    const events = traced(tables, new schema.Invalidate(Todo), { id: 250 });
    expect(ofType(events, 'collection-changed')).toEqual([
      {
        type: 'collection-changed',
        collection: '[Todo]',
        row: '{}',
        kind: 'invalidate',
        lengthBefore: 500,
        lengthAfter: 499,
        inserted: [],
        duplicates: [],
        removed: ['250'],
      },
    ]);
    expect(ofType(events, 'collection-changed')[0]).not.toHaveProperty('members');
    const row = tables.entities['[Todo]']?.['{}'] as string[];
    expect(row).toEqual(ids.filter((id) => id !== 250).map(String));
  });

  it('a row that does not hold the pk is not touched and not reported', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1), todo(2)], [{ userId: 1 }]);
    tables.normalize(todoList, [todo(3)], [{ userId: 2 }]);
    const rowBefore = tables.entities['[Todo]']?.['{"userId":"2"}'];
    const events = traced(tables, new schema.Invalidate(Todo), '1');
    expect(ofType(events, 'collection-changed').map((change) => change.row)).toEqual([
      '{"userId":"1"}',
    ]);
    expect(tables.entities['[Todo]']?.['{"userId":"2"}']).toBe(rowBefore);
  });
});

describe('trace: none', () => {
  it('produces the same tables with and without a trace', () => {
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
    let withSink: NormalizedTables = emptyTables();
    let withoutSink: NormalizedTables = emptyTables();
    let eventCount = 0;
    for (const [stepSchema, input, args] of steps) {
      const trace = new Trace();
      const a = normalize(stepSchema, input, args, withSink, { meta, trace });
      eventCount += trace.events.length;
      const b = normalize(stepSchema, input, args, withoutSink, { meta });
      expect(a.result).toEqual(b.result);
      withSink = { entities: a.entities, entitiesMeta: a.entitiesMeta, indexes: a.indexes };
      withoutSink = { entities: b.entities, entitiesMeta: b.entitiesMeta, indexes: b.indexes };
    }
    expect(eventCount).toBeGreaterThan(0);
    expect(withSink).toEqual(withoutSink);
    expect(JSON.parse(JSON.stringify(withSink))).toEqual(withoutSink);
  });
});

describe('trace: each pk list held once', () => {
  it('a push is kept as one array: its new entity and the pk its list gained are the pk itself', () => {
    const tables = createTables();
    tables.normalize(todoList, [todo(1)], [{}]);
    const trace = new Trace();
    tables.normalize(todoList.push, todo(2), [{}], { trace });
    const kept = trace.kept();
    const events = unpackTrace(kept);
    expect(ofType(events, 'entities-added')).toEqual([
      { type: 'entities-added', entity: 'Todo', pks: ['2'] },
    ]);
    expect(ofType(events, 'collection-changed')[0]?.inserted).toEqual([{ index: 1, pks: ['2'] }]);
    // No list of one: the only lists kept are the shared empty ones (no duplicates, none removed).
    expect(kept.filter((field) => field === '2')).toHaveLength(2);
    expect(
      kept.filter(Array.isArray).every((list) => list.length === 0 && Object.isFrozen(list)),
    ).toBe(true);
  });

  it('a page shares the list of its new entities with the run its list gained; duplicates stay apart', () => {
    const tables = createTables();
    tables.normalize(getPage, [todo(1), todo(2)], [{}]);
    const events = traced(tables, getPage, [todo(2), todo(3), todo(4)], [{ cursor: 2 }]);
    const [added] = ofType(events, 'entities-added');
    const [changed] = ofType(events, 'collection-changed');
    expect(added?.pks).toEqual(['3', '4']);
    expect(changed?.inserted).toEqual([{ index: 2, pks: ['3', '4'] }]);
    expect(changed?.duplicates).toEqual(['2']);
    expect(changed?.inserted[0]?.pks).toBe(added?.pks);
  });

  it('a list response of new entities names them with the result the store keeps', () => {
    const tables = createTables();
    const trace = new Trace();
    const result = tables.normalize([Todo], [todo(1), todo(2)], [], { trace });
    expect(result).toEqual(['1', '2']);
    const [added] = ofType(trace.events, 'entities-added');
    expect(added?.pks).toBe(result);
  });

  it('kept, the lists it grew are copies and the lists it shares stay shared', () => {
    const tables = createTables();
    const trace = new Trace();
    const authored = [1, 2, 3].map((id) => ({ ...todo(id), author: { id: 10 + id, name: 'a' } }));
    const result = tables.normalize([Todo], authored, [], { trace });
    const kept = unpackTrace(trace.kept());
    const [users, todos] = ofType(trace.events, 'entities-added');
    const [keptUsers, keptTodos] = ofType(kept, 'entities-added');
    expect(keptUsers?.pks).toEqual(['11', '12', '13']);
    expect(keptUsers?.pks).not.toBe(users?.pks);
    expect(keptTodos?.pks).toBe(todos?.pks);
    expect(keptTodos?.pks).toBe(result);
  });

  it('keeps lists apart when they differ: some entities were stored already', () => {
    const tables = createTables();
    tables.normalize([Todo], [todo(1)]);
    const trace = new Trace();
    const result = tables.normalize([Todo], [todo(1), todo(2)], [], { trace });
    const [added] = ofType(trace.events, 'entities-added');
    expect(added?.pks).toEqual(['2']);
    expect(added?.pks).not.toBe(result);
    expect(result).toEqual(['1', '2']);
  });

  it('a shared list never grows: later entities of the type start a new group', () => {
    const tables = createTables();
    const events = traced(
      tables,
      { list: todoList, more: [Todo] },
      {
        list: [todo(1), todo(2)],
        more: [todo(3)],
      },
      [{}],
    );
    expect(ofType(events, 'entities-added')).toEqual([
      { type: 'entities-added', entity: 'Todo', pks: ['1', '2'] },
      { type: 'entities-added', entity: 'Todo', pks: ['3'] },
    ]);
    const [changed] = ofType(events, 'collection-changed');
    expect(changed?.members).toEqual(['1', '2']);
    expect(changed?.inserted).toEqual([{ index: 0, pks: ['1', '2'] }]);
  });
});
