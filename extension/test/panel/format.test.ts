import { describe, expect, it } from 'vitest';
import type {
  Effect,
  EntityUpdate,
  StoreEvent,
} from '../../../library/src/devtools/protocol/effects.js';
import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import {
  describeCollectionChange,
  describeEffect,
  describePkOrigin,
  effectLines,
  entityLabel,
  entityName,
  eventNamer,
  formatExpiry,
  formatRowKey,
  formatValue,
} from '../../src/panel/format.js';
import { INVALID_ROW } from '../../src/panel/model.js';

type CollectionChange = Extract<Effect, { type: 'collection-changed' }>;
const change = (fields: Partial<CollectionChange>): CollectionChange => ({
  type: 'collection-changed',
  collection: '[Todo]',
  row: '{"userId":"1"}',
  kind: 'push',
  lengthBefore: 2,
  lengthAfter: 3,
  inserted: [],
  duplicates: [],
  removed: [],
  ...fields,
});

describe('formatValue', () => {
  it('writes plain values like a console', () => {
    expect(formatValue({ id: 1, title: 'a', tags: ['x', null], 'odd key': true })).toBe(
      '{ id: 1, title: "a", tags: ["x", null], "odd key": true }',
    );
    expect(formatValue([])).toBe('[]');
    expect(formatValue({})).toBe('{}');
    expect(formatValue(undefined)).toBe('undefined');
  });

  it('writes every tagged value the encoder makes', () => {
    const cases: [Encoded, string][] = [
      [{ '@t': 'undefined' }, 'undefined'],
      [{ '@t': 'number', v: 'NaN' }, 'NaN'],
      [{ '@t': 'bigint', v: '12' }, '12n'],
      [{ '@t': 'date', v: '2024-01-01T00:00:00.000Z' }, 'Date(2024-01-01T00:00:00.000Z)'],
      [{ '@t': 'map', entries: [['a', 1]] }, 'Map(1) { "a" => 1 }'],
      [{ '@t': 'set', values: [1, 2] }, 'Set(2) { 1, 2 }'],
      [{ '@t': 'instance', class: 'Todo', fields: { id: 1 } }, 'Todo { id: 1 }'],
      [
        { '@t': 'error', name: 'NetworkError', message: 'boom', status: 500 },
        'NetworkError: boom (status 500)',
      ],
      [{ '@t': 'function', name: 'load' }, 'ƒ load()'],
      [{ '@t': 'symbol', description: 'id' }, 'Symbol(id)'],
      [{ '@t': 'object', fields: { '@t': 'mine' } }, '{ "@t": "mine" }'],
      [{ '@t': 'cycle' }, '[cycle]'],
      [
        { '@t': 'truncated', reason: 'size', omitted: 3, preview: '"abc' },
        '… "abc [cut: size, 3 omitted]',
      ],
    ];
    for (const [value, text] of cases) expect(formatValue(value)).toBe(text);
  });

  it('cuts long values at the limit', () => {
    const text = formatValue(
      Array.from({ length: 1000 }, (_, index) => index),
      30,
    );
    expect(text).toHaveLength(30);
    expect(text.endsWith('…')).toBe(true);
  });

  it('writes a malformed tagged value as the object it is, without throwing', () => {
    const cases: [unknown, string][] = [
      [{ '@t': 'map', entries: 5 }, '{ "@t": "map", entries: 5 }'],
      [{ '@t': 'map', entries: [[1]] }, '{ "@t": "map", entries: [[1]] }'],
      [{ '@t': 'set', values: null }, '{ "@t": "set", values: null }'],
      [
        { '@t': 'instance', class: 'Todo', fields: 3 },
        '{ "@t": "instance", class: "Todo", fields: 3 }',
      ],
      [{ '@t': 'object', fields: null }, '{ "@t": "object", fields: null }'],
      [
        { '@t': 'error', name: ['E'], message: 'm' },
        '{ "@t": "error", name: ["E"], message: "m" }',
      ],
      [{ '@t': 'number', v: { toString: 1 } }, '{ "@t": "number", v: { toString: 1 } }'],
      [{ '@t': 'date' }, '{ "@t": "date" }'],
      [{ '@t': 'bigint', v: 12 }, '{ "@t": "bigint", v: 12 }'],
      [{ '@t': 'truncated', reason: {} }, '{ "@t": "truncated", reason: {} }'],
      [{ '@t': 'function', name: 1 }, '{ "@t": "function", name: 1 }'],
      [{ '@t': 'symbol' }, '{ "@t": "symbol" }'],
      [{ '@t': 'toString' }, '{ "@t": "toString" }'],
      [{ '@t': '__proto__' }, '{ "@t": "__proto__" }'],
      [{ '@t': 7 }, '{ "@t": 7 }'],
    ];
    for (const [value, text] of cases) expect(formatValue(value as Encoded)).toBe(text);
    // Inside a well-formed one, too.
    expect(
      formatValue({ '@t': 'set', values: [{ '@t': 'map', entries: 5 }] } as unknown as Encoded),
    ).toBe('Set(1) { { "@t": "map", entries: 5 } }');
  });

  it('writes a value of any depth (JSON.parse reads 100,000 levels), cutting deep levels', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as Encoded;
    expect(formatValue(deep, 10_000)).toMatch(/^\[{128}…\]{128}$/);
    expect(formatValue([[['x']]])).toBe('[[["x"]]]');
  });

  it('keeps HTML as the characters it is made of', () => {
    expect(formatValue('<img src=x onerror=alert(1)>')).toBe('"<img src=x onerror=alert(1)>"');
  });
});

describe('labels', () => {
  it('names an entity by its title or name', () => {
    expect(entityLabel({ id: 1, title: 'Buy milk', name: 'x' })).toBe('Buy milk');
    expect(entityLabel({ id: 1, name: 'Ada' })).toBe('Ada');
    expect(entityLabel({ id: 1 })).toBe('');
    expect(entityLabel(INVALID_ROW)).toBe('');
    expect(entityLabel('1')).toBe('');
  });

  it('writes a row key it cannot read as it is', () => {
    const depth = 100_000;
    const deep = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(formatRowKey(deep)).toBe(deep);
  });

  it('writes a row key as its arguments', () => {
    expect(formatRowKey('{"userId":"1","done":"true"}')).toBe('userId: "1", done: "true"');
    expect(formatRowKey('{}')).toBe('all (no arguments)');
    expect(formatRowKey('not json')).toBe('not json');
  });

  it('tells a result invalidated, expired or when it expires', () => {
    expect(formatExpiry({ invalidated: true, expiresAt: 0 })).toBe('invalidated');
    expect(formatExpiry({ expiresAt: 1 }, 100)).toBe('expired');
    expect(formatExpiry({ expiresAt: 200 }, 100)).toMatch(/^expires \d\d:\d\d:\d\d\.\d{3}$/);
    expect(formatExpiry(undefined)).toBe('');
  });
});

describe('effects in words', () => {
  it('describes each kind of collection change', () => {
    expect(describeCollectionChange(change({ inserted: [{ index: 2, pks: ['5'] }] }))).toBe(
      'pushed Todo 5 at the end (2 → 3)',
    );
    expect(
      describeCollectionChange(change({ kind: 'unshift', inserted: [{ index: 0, pks: ['5'] }] })),
    ).toBe('unshifted Todo 5 at the start (2 → 3)');
    expect(
      describeCollectionChange(
        change({ inserted: [{ index: 2, pks: ['5', '6'] }], lengthAfter: 4 }),
      ),
    ).toBe('pushed Todo 5, Todo 6 at the end (2 → 4)');
    expect(
      describeCollectionChange(
        change({
          kind: 'page-merge',
          inserted: [{ index: 2, pks: ['7'] }],
          duplicates: ['3', '4'],
        }),
      ),
    ).toBe('merged a page: added Todo 7; skipped duplicates Todo 3, Todo 4 (2 → 3)');
    expect(
      describeCollectionChange(change({ kind: 'invalidate', removed: ['1'], lengthAfter: 1 })),
    ).toBe('removed Todo 1: deleted (Invalidate) (2 → 1)');
  });

  it('describes a group of entities by its count, and one entity by its pk', () => {
    const added: Effect = { type: 'entities-added', entity: 'Todo', pks: ['1', '2', '3'] };
    expect(describeEffect(added)).toBe('added 3 Todo');
    expect(describeEffect({ ...added, pks: ['5'] })).toBe('added Todo 5');
    const five: EntityUpdate<Encoded> = {
      pk: '5',
      fields: [
        { field: 'title', before: 'a', after: { '@t': 'date', v: '2030-01-01T00:00:00.000Z' } },
        { field: 'completed', before: { '@t': 'undefined' }, after: true },
      ],
    };
    const updated: Effect = {
      type: 'entities-updated',
      entity: 'Todo',
      updates: [five, { pk: '6', fields: [] }],
    };
    expect(describeEffect(updated)).toBe('updated 2 Todo');
    // Each changed field with its value before and after.
    expect(describeEffect({ ...updated, updates: [five] })).toBe(
      'updated Todo 5: title: "a" → Date(2030-01-01T00:00:00.000Z), completed: undefined → true',
    );
    // The timeline lists each entity of a group under it, each line opening its entity.
    expect(effectLines(updated)).toEqual([
      { text: 'updated 2 Todo' },
      {
        text: 'updated Todo 5: title: "a" → Date(2030-01-01T00:00:00.000Z), completed: undefined → true',
        entity: { entity: 'Todo', pk: '5' },
        nested: true,
      },
      {
        text: 'updated Todo 6: no field changed',
        entity: { entity: 'Todo', pk: '6' },
        nested: true,
      },
    ]);
    expect(effectLines({ ...added, pks: ['5'] })).toEqual([
      { text: 'added Todo 5', entity: { entity: 'Todo', pk: '5' } },
    ]);
  });

  it('tells results that suspend from results that only lost a member', () => {
    expect(
      describeEffect({ type: 'result-suspends', key: 'GET /todos/1', endpoint: 'Todo.get' }),
    ).toBe('GET /todos/1 (Todo.get) will suspend and fetch again');
    expect(
      describeEffect({ type: 'result-lost-member', key: 'GET /todos', endpoint: 'Todo.getList' }),
    ).toBe('GET /todos (Todo.getList) stays valid but lost a member');
  });

  it('says how an invalidated pk was computed', () => {
    const base = { type: 'entity-invalidated', entity: 'Todo', pk: '5' } as const;
    expect(describePkOrigin({ ...base, from: { id: 5 }, via: 'url-params' })).toBe(
      'empty response → URL params { id: 5 } → Todo pk "5"',
    );
    expect(describePkOrigin({ ...base, from: '5', via: 'response' })).toBe(
      'response "5" → Todo pk "5"',
    );
  });
});

describe('entities named in descriptions', () => {
  const event = (effects: Effect[]): StoreEvent => ({
    seq: 1,
    time: 0,
    action: { type: 'setResponse', endpoint: 'Todo.getList.getPage' },
    effects,
  });

  it('names an entity by type, pk and label; an optimistic one as new and pending', () => {
    expect(entityName('Todo', '7', 'Buy milk')).toBe('Todo 7 "Buy milk"');
    expect(entityName('Todo', '7')).toBe('Todo 7');
    expect(entityName('Todo', 'optimistic-3', 'Buy milk')).toBe('new Todo (pending)');
  });

  it('names the members of a merged page by the labels the event carries, else the copy', () => {
    const merged = event([
      { type: 'entities-added', entity: 'Todo', pks: ['7', '8'], labels: ['Buy milk', ''] },
      change({ kind: 'page-merge', inserted: [{ index: 2, pks: ['7', '8'] }], duplicates: ['3'] }),
    ]);
    const fromCopy = (entity: string, pk: string) => (pk === '3' ? `${entity} three` : '');
    expect(describeEffect(merged.effects[1] as Effect, eventNamer(merged, fromCopy))).toBe(
      '[Todo] userId: "1": merged a page: added Todo 7 "Buy milk", Todo 8; skipped duplicates Todo 3 "Todo three" (2 → 3)',
    );
    expect(effectLines(merged.effects[0] as Effect, eventNamer(merged))).toEqual([
      { text: 'added 2 Todo' },
      { text: 'added Todo 7 "Buy milk"', entity: { entity: 'Todo', pk: '7' }, nested: true },
      { text: 'added Todo 8', entity: { entity: 'Todo', pk: '8' }, nested: true },
    ]);
  });

  it('names a deleted entity by the label it had, and reads any pk as data', () => {
    const deleted = event([
      {
        type: 'entity-invalidated',
        entity: 'Todo',
        pk: '__proto__',
        from: { id: '__proto__' },
        via: 'url-params',
        label: 'Buy milk',
      },
    ]);
    expect(describeEffect(deleted.effects[0] as Effect, eventNamer(deleted))).toBe(
      'Todo __proto__ "Buy milk" invalidated (pk from URL params { id: "__proto__" })',
    );
  });
});
