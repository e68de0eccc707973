import { describe, expect, it } from 'vitest';
import {
  createStore,
  type NormalizedTables,
  normalize,
  paginatedFilter,
  paginatedMerge,
  schema,
  type TraceEvent,
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

/** Normalizes on top of `tables` and returns what the trace sink received. */
function traced(
  tables: ReturnType<typeof createTables>,
  traceSchema: unknown,
  input: unknown,
  args: readonly unknown[] = [],
): TraceEvent[] {
  const events: TraceEvent[] = [];
  tables.normalize(traceSchema, input, args, { trace: (event) => events.push(event) });
  return events;
}

const ofType = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) =>
  events.filter((event): event is Extract<TraceEvent, { type: T }> => event.type === type);

describe('trace: entities', () => {
  it('reports each entity added, nested ones included', () => {
    const events = traced(createTables(), Todo, {
      ...todo(1),
      author: { id: 9, name: 'Ada' },
    });
    expect(events).toEqual([
      { type: 'entity-added', entity: 'User', pk: '9', row: expect.any(Object) },
      { type: 'entity-added', entity: 'Todo', pk: '1', row: expect.any(Object) },
    ]);
  });

  it('reports an update with exactly the fields whose value changed', () => {
    const tables = createTables();
    tables.normalize(Todo, { ...todo(1), completed: false });
    const events = traced(tables, Todo, { id: 1, title: 'renamed', completed: true, userId: 1 });
    expect(events).toEqual([
      {
        type: 'entity-updated',
        entity: 'Todo',
        pk: '1',
        fields: ['title', 'completed'],
        row: expect.any(Object),
      },
    ]);
  });

  it('reports a field first carried by a later response as updated', () => {
    const tables = createTables();
    tables.normalize(Todo, { id: 1 });
    expect(traced(tables, Todo, { id: 1, userId: 3 })).toEqual([
      {
        type: 'entity-updated',
        entity: 'Todo',
        pk: '1',
        fields: ['userId'],
        row: expect.any(Object),
      },
    ]);
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
      { type: 'entity-added', entity: 'Todo', pk: '1', row: expect.any(Object) },
    ]);
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
        inserted: [{ pk: '3', index: 0 }],
        duplicates: [],
        removed: ['2'],
        members: ['3', '1'],
      },
    ]);
  });

  it('reports a push per receiving row with the pk, its index and the lengths', () => {
    const tables = listed();
    const events = traced(tables, todoList.push, todo(3), [{ userId: 1 }]);
    expect(ofType(events, 'entity-added')).toEqual([
      { type: 'entity-added', entity: 'Todo', pk: '3', row: expect.any(Object) },
    ]);
    expect(ofType(events, 'collection-changed')).toEqual([
      {
        type: 'collection-changed',
        collection: '[Todo]',
        row: '{}',
        kind: 'push',
        lengthBefore: 2,
        lengthAfter: 3,
        inserted: [{ pk: '3', index: 2 }],
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
        inserted: [{ pk: '3', index: 1 }],
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
        inserted: [{ pk: '4', index: 0 }],
        lengthBefore: 2,
        lengthAfter: 3,
      },
      {
        row: '{"userId":"2"}',
        kind: 'unshift',
        inserted: [{ pk: '4', index: 0 }],
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
        inserted: [
          { pk: '20', index: 3 },
          { pk: '21', index: 4 },
        ],
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
    store.observe((record) => events.push(...record.trace));
    const getList = endpoint('getList', todoList);
    store.controller.setResponse(getList, {}, [todo(1)]);
    expect(events.map((event) => event.type)).toEqual(['entity-added', 'collection-changed']);
  });
});

describe('trace: no sink', () => {
  it('produces the same tables with and without a sink', () => {
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
      const a = normalize(stepSchema, input, args, withSink, {
        meta,
        trace: () => {
          eventCount++;
        },
      });
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
