import { describe, expect, it } from 'vitest';
import {
  applyCollectionChange,
  applyResultEffect,
  INVALID,
  isInvalidRow,
  mergeChanges,
  type ResultEffect,
  type ResultMeta,
  type RowChange,
} from '../../src/devtools/protocol/applyEffects.js';
import type { CollectionChanged } from '../../src/devtools/protocol/effects.js';
import type { Encoded } from '../../src/devtools/protocol/messages.js';
import { createStore, Endpoint, Entity, schema } from '../../src/index.js';
import { EXPIRED_EXPIRY, INVALIDATED_EXPIRY } from '../../src/store/resultExpiry.js';
import type { State } from '../../src/store/state.js';

/** A copy's results: values and metas in plain Maps, as a panel's drafts hold them. */
function results(entries: Record<string, { value?: Encoded; meta?: ResultMeta }> = {}) {
  const values = new Map<string, Encoded>();
  const metas = new Map<string, ResultMeta>();
  for (const [key, { value, meta }] of Object.entries(entries)) {
    if (value !== undefined) values.set(key, value);
    if (meta !== undefined) metas.set(key, meta);
  }
  return { values, metas };
}

const apply = (
  tables: ReturnType<typeof results>,
  effect: ResultEffect,
  time = 50,
): ReturnType<typeof results> => {
  applyResultEffect(tables, effect, time);
  return tables;
};

/** Keys a meta may be stored under, `__proto__` and Object.prototype's names among them. */
const KEYS = ['GET /todos', '__proto__', 'constructor', 'hasOwnProperty'];

describe('a result effect applied to a copy of the store', () => {
  it.each(KEYS)('a kept answer replaces the value and the whole meta (key %s)', (key) => {
    const tables = apply(
      results({ [key]: { value: ['1'], meta: { expiresAt: 0, invalidated: true, error: 'x' } } }),
      {
        type: 'result-stored',
        key,
        endpoint: 'getTodos',
        expiresAt: 900,
        kept: true,
        result: ['2'],
      },
    );
    expect(tables.values.get(key)).toEqual(['2']);
    expect(tables.metas.get(key)).toEqual({ expiresAt: 900, date: 50 });
    expect([...tables.metas.keys()]).toEqual([key]);
  });

  it('an answer the store did not keep (a mutation’s, or an older one) changes nothing', () => {
    const before = { value: ['1'], meta: { expiresAt: 10, date: 5 } };
    const stored = apply(results({ key: before }), {
      type: 'result-stored',
      key: 'key',
      endpoint: 'push',
      expiresAt: 900,
      kept: false,
    });
    const failed = apply(stored, {
      type: 'result-error',
      key: 'key',
      endpoint: 'push',
      error: 'down',
      kept: false,
    });
    expect(failed.values.get('key')).toEqual(['1']);
    expect(failed.metas.get('key')).toEqual({ expiresAt: 10, date: 5 });
  });

  it('a stored answer that carries no value stores null, not nothing', () => {
    const tables = apply(results(), {
      type: 'result-stored',
      key: 'k',
      endpoint: 'e',
      expiresAt: 1,
      kept: true,
    });
    expect(tables.values.has('k')).toBe(true);
    expect(tables.values.get('k')).toBeNull();
  });

  it.each(KEYS)(
    'a kept failure keeps the value and expiry and ends an invalidation (key %s)',
    (key) => {
      const tables = apply(
        results({ [key]: { value: ['1'], meta: { expiresAt: 0, invalidated: true, date: 3 } } }),
        { type: 'result-error', key, endpoint: 'getTodos', error: { message: 'down' }, kept: true },
      );
      expect(tables.values.get(key)).toEqual(['1']);
      expect(tables.metas.get(key)).toEqual({ expiresAt: 0, date: 50, error: { message: 'down' } });
    },
  );

  it.each(KEYS)(
    'an invalidation removes the value and its error, and marks the meta (key %s)',
    (key) => {
      const tables = apply(
        results({
          [key]: {
            value: ['1'],
            meta: { date: 3, fetchedAt: 2, expiresAt: 9, error: 'down', errorPolicy: 'soft' },
          },
        }),
        { type: 'result-invalidated', key },
      );
      expect(tables.values.has(key)).toBe(false);
      expect(tables.metas.get(key)).toEqual({
        date: 3,
        fetchedAt: 2,
        expiresAt: INVALIDATED_EXPIRY,
        invalidated: true,
      });
      // With no meta before, the marks alone.
      expect(apply(results(), { type: 'result-invalidated', key }).metas.get(key)).toEqual({
        expiresAt: INVALIDATED_EXPIRY,
        invalidated: true,
      });
    },
  );

  it.each(KEYS)('an expiry marks the meta stale and keeps the rest (key %s)', (key) => {
    const tables = apply(results({ [key]: { value: 7, meta: { date: 3, expiresAt: 900 } } }), {
      type: 'result-expired',
      key,
    });
    expect(tables.values.get(key)).toBe(7);
    expect(tables.metas.get(key)).toEqual({ date: 3, expiresAt: EXPIRED_EXPIRY });
  });

  it('keeps a meta field named __proto__ as data, and the metas it started from as they were', () => {
    const meta = JSON.parse('{"__proto__":{"polluted":true},"expiresAt":5,"error":"x"}');
    const tables = results({ k: { meta } });
    apply(tables, { type: 'result-expired', key: 'k' });
    apply(tables, { type: 'result-invalidated', key: 'k' });
    const after = tables.metas.get('k') as ResultMeta;
    expect(Object.getPrototypeOf(after)).toBe(Object.prototype);
    expect(Object.keys(after)).toEqual(['__proto__', 'expiresAt', 'invalidated']);
    expect(Object.hasOwn(after, 'error')).toBe(false);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(meta).toEqual(JSON.parse('{"__proto__":{"polluted":true},"expiresAt":5,"error":"x"}'));
  });

  it('marks results as the store does: an invalidation with 0 and `invalidated`, an expiry with 1', async () => {
    const get = new Endpoint(async () => ['1'], { name: 'get', key: () => 'GET /todos' });
    const store = createStore();
    const { controller } = store;
    await controller.setError(get, new Error('down'));
    await controller.invalidate(get);
    const invalidated = store.getState().meta.get('GET /todos');
    await controller.setResponse(get, ['1']);
    await controller.expireAll(() => true);
    const expired = store.getState().meta.get('GET /todos');

    const copy = results({ 'GET /todos': { meta: { expiresAt: 5, date: 1, error: 'down' } } });
    apply(copy, { type: 'result-invalidated', key: 'GET /todos' });
    expect(copy.metas.get('GET /todos')).toMatchObject({
      expiresAt: invalidated?.expiresAt,
      invalidated: invalidated?.invalidated,
    });
    expect(invalidated?.error).toBeUndefined();
    expect(copy.metas.get('GET /todos')).not.toHaveProperty('error');
    apply(copy, {
      type: 'result-stored',
      key: 'GET /todos',
      endpoint: 'get',
      expiresAt: 900,
      kept: true,
      result: ['1'],
    });
    apply(copy, { type: 'result-expired', key: 'GET /todos' });
    expect(copy.metas.get('GET /todos')?.expiresAt).toBe(expired?.expiresAt);
    expect(expired?.invalidated).toBeUndefined();
    expect(copy.metas.get('GET /todos')).not.toHaveProperty('invalidated');
  });
});

class Todo extends Entity {
  id = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}
const todoList = new schema.Collection([Todo]);
const keyOf =
  (name: string) =>
  (...args: unknown[]) =>
    `${name} ${JSON.stringify(args)}`;
const never = async (..._args: unknown[]): Promise<unknown> => undefined;
const getTodos = new Endpoint(never, { schema: todoList, key: keyOf('getTodos') });
const pushTodo = new Endpoint(never, {
  schema: todoList.push,
  sideEffect: true,
  key: keyOf('pushTodo'),
});
const unshiftTodo = new Endpoint(never, {
  schema: todoList.unshift,
  sideEffect: true,
  key: keyOf('unshiftTodo'),
});
const deleteTodo = new Endpoint(never, {
  schema: new schema.Invalidate(Todo),
  sideEffect: true,
  key: keyOf('deleteTodo'),
});
/** The collection row the pushes reach. */
const ROW = '{"user":"1"}';
const rowOf = (state: State): Iterable<string> =>
  (state.entities.get('[Todo]')?.get(ROW) as Iterable<string> | undefined) ?? [];

const change = (fields: Partial<RowChange>): RowChange => ({
  removed: [],
  inserted: [],
  ...fields,
});

describe('a collection change applied to a row', () => {
  it('puts each run of inserted pks at its index of the new list, after the removals', () => {
    const inserted = [
      { index: 4, pks: ['z'] },
      { index: 0, pks: ['x', 'y'] },
    ];
    expect(
      applyCollectionChange(['a', 'b', 'c', 'd'], change({ removed: ['b'], inserted })),
    ).toEqual(['x', 'y', 'a', 'c', 'z', 'd']);
    // A page appended at the end, and nothing in or out.
    expect(
      applyCollectionChange(['a'], change({ inserted: [{ index: 1, pks: ['b', 'c'] }] })),
    ).toEqual(['a', 'b', 'c']);
    expect(applyCollectionChange(['a'], change({}))).toEqual(['a']);
  });

  it('takes a replaced row’s whole list: the change’s own, whatever the row held', () => {
    const members = ['c', 'd'];
    const before = ['a', 'b'];
    const replaced = change({ removed: ['a', 'b'], members });
    expect(applyCollectionChange(before, replaced)).toBe(members);
    expect(applyCollectionChange(before, replaced, true)).toBe(members);
    expect([before, members]).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('removes one pk (a delete) and several (a batch delete), wherever they are', () => {
    expect(applyCollectionChange(['a', 'b', 'c'], change({ removed: ['b'] }))).toEqual(['a', 'c']);
    expect(applyCollectionChange(['a', 'b', 'c', 'd'], change({ removed: ['d', 'a'] }))).toEqual([
      'b',
      'c',
    ]);
    expect(applyCollectionChange(['a'], change({ removed: ['gone'] }))).toEqual(['a']);
  });

  it('leaves the list it was given as it was, unless told it is writable', () => {
    const shared = ['a', 'b', 'c'];
    const pushed = applyCollectionChange(shared, change({ inserted: [{ index: 3, pks: ['d'] }] }));
    const deleted = applyCollectionChange(shared, change({ removed: ['b'] }));
    expect(shared).toEqual(['a', 'b', 'c']);
    expect([pushed, deleted]).toEqual([
      ['a', 'b', 'c', 'd'],
      ['a', 'c'],
    ]);

    // A list the caller owns is written in place for a push and a delete.
    const own = ['a', 'b', 'c'];
    expect(applyCollectionChange(own, change({ inserted: [{ index: 3, pks: ['d'] }] }), true)).toBe(
      own,
    );
    expect(applyCollectionChange(own, change({ removed: ['a'] }), true)).toBe(own);
    expect(own).toEqual(['b', 'c', 'd']);
    // An insert in the middle makes a new list.
    const unshifted = applyCollectionChange(
      own,
      change({ inserted: [{ index: 0, pks: ['z'] }] }),
      true,
    );
    expect(unshifted).toEqual(['z', 'b', 'c', 'd']);
  });

  it('takes __proto__ and Object.prototype’s names as pks like any other', () => {
    const row = applyCollectionChange(
      ['constructor', 'a'],
      change({
        removed: ['constructor'],
        inserted: [{ index: 0, pks: ['__proto__', 'toString'] }],
      }),
    );
    expect(row).toEqual(['__proto__', 'toString', 'a']);
    expect(applyCollectionChange(row, change({ removed: ['__proto__', 'toString'] }))).toEqual([
      'a',
    ]);
  });

  it('gives the row the store holds after each change a real store made', async () => {
    const store = createStore();
    const row = () => [...rowOf(store.getState())];
    let copy = row();
    let changes = 0;
    store.observe(({ changes: { collections }, after }) => {
      for (const each of collections)
        if (each.row === ROW) {
          copy = applyCollectionChange(copy, each);
          changes++;
        }
      expect(copy).toEqual([...rowOf(after)]);
    });
    const { controller } = store;
    const todos = (...ids: string[]) => ids.map((id) => ({ id }));
    await controller.setResponse(getTodos, { user: '1' }, todos('a', 'b', 'c', '__proto__'));
    await controller.setResponse(pushTodo, { user: '1' }, { id: 'd' });
    await controller.setResponse(unshiftTodo, { user: '1' }, { id: 'constructor' });
    await controller.setResponse(deleteTodo, { id: 'b' }, { id: 'b' });
    await controller.setResponse(deleteTodo, { id: '__proto__' }, { id: '__proto__' });
    await controller.setResponse(getTodos, { user: '1' }, todos('d', 'e'));
    expect(copy).toEqual(['d', 'e']);
    expect(changes).toBe(6);
  });
});

describe('successive changes of one row', () => {
  const changed = (fields: Partial<CollectionChanged>): CollectionChanged => ({
    type: 'collection-changed',
    collection: '[Todo]',
    row: '{}',
    kind: 'invalidate',
    lengthBefore: 0,
    lengthAfter: 0,
    inserted: [],
    duplicates: [],
    removed: [],
    ...fields,
  });

  it('merge into one: the first length before, the last after, everything that went in and out', () => {
    const merged = mergeChanges([
      changed({ lengthBefore: 4, lengthAfter: 3, removed: ['2'] }),
      changed({ lengthBefore: 3, lengthAfter: 2, removed: ['4'] }),
    ]);
    expect(merged).toMatchObject({ kind: 'invalidate', lengthBefore: 4, lengthAfter: 2 });
    expect(merged.removed).toEqual(['2', '4']);
    const mixed = mergeChanges([
      changed({ kind: 'push', inserted: [{ index: 0, pks: ['a'] }], duplicates: ['b'] }),
      changed({ removed: ['c'] }),
    ]);
    expect(mixed).toMatchObject({ kind: 'replace', inserted: [{ index: 0, pks: ['a'] }] });
    expect([mixed.duplicates, mixed.removed]).toEqual([['b'], ['c']]);
  });
});

describe('an entity row an Invalidate removed', () => {
  it('is the store’s INVALID marker, and reads as one after JSON too', () => {
    expect(isInvalidRow(INVALID)).toBe(true);
    expect(isInvalidRow(JSON.parse(JSON.stringify(INVALID)))).toBe(true);
    expect(isInvalidRow({ id: 1, title: 'x' })).toBe(false);
    expect(isInvalidRow(null)).toBe(false);
    expect(isInvalidRow(Symbol('unloaded'))).toBe(false);
  });
});
