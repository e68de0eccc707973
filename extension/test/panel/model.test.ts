import { describe, expect, it } from 'vitest';
import type { Effect, StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import type { SnapshotMessage } from '../../../library/src/devtools/protocol/messages.js';
import { pageMessage } from '../../../library/src/devtools/protocol/messages.js';
import {
  applyEvents,
  applyListParts,
  applyRows,
  applySnapshotChunk,
  emptyStoreView,
  endpointOf,
  INVALID_ROW,
  type ListPart,
  MAX_TIMELINE,
  membersComing,
  needsRow,
  pksComing,
  resultNamesUpTo,
  resyncPoint,
  type StoreView,
  UNLOADED,
} from '../../src/panel/model.js';
import { rows, snapshot } from '../support/messages.js';
import { keysOf, plainTable, plainTables } from '../support/tables.js';

/** The panel's copy: which pks each entity table holds, and the rows it has fetched. */

const event = (seq: number, effects: Effect[]): StoreEvent => ({
  seq,
  time: seq,
  action: { type: 'setResponse', endpoint: 'Todo.getList' },
  effects,
});
const added = (...pks: string[]): Effect => ({ type: 'entities-added', entity: 'Todo', pks });
const updated = (...pks: string[]): Effect => ({
  type: 'entities-updated',
  entity: 'Todo',
  updates: pks.map((pk) => ({ pk, fields: [{ field: 'title', before: 'old', after: 'new' }] })),
});
const apply = (view: StoreView, ...events: StoreEvent[]) =>
  applyEvents(view, { storeId: 's', events }).view;
const staleOf = (view: StoreView) => [...(view.stale.Todo ?? [])].sort();

/** A copy from a snapshot at seq 1: Todos 1 and 2 loaded, one collection row. */
function loaded(): StoreView {
  return applySnapshotChunk(
    emptyStoreView('s'),
    snapshot('s', 1, {
      Todo: { '1': { id: 1, title: 'one' }, '2': { id: 2, title: 'two' } },
      '[Todo]': { '{}': ['1', '2'] },
    }),
  );
}

describe('the panel copy of a store', () => {
  it('keeps a snapshot apart: entity tables with every row loaded, collections as pk lists', () => {
    const view = loaded();
    expect(plainTables(view.entities)).toEqual({
      Todo: { '1': { id: 1, title: 'one' }, '2': { id: 2, title: 'two' } },
    });
    expect(plainTables(view.collections)).toEqual({ '[Todo]': { '{}': ['1', '2'] } });
    expect(view.stale).toEqual({});
    expect(needsRow(view, 'Todo', '1')).toBe(false);
  });

  it('adds the pks of a grouped add, their rows not fetched yet', () => {
    const view = apply(loaded(), event(2, [added('3', '4')]));
    expect(keysOf(view.entities.Todo)).toEqual(['1', '2', '3', '4']);
    expect(view.entities.Todo?.get('3')).toBe(UNLOADED);
    expect(view.entities.Todo?.get('4')).toBe(UNLOADED);
    expect(needsRow(view, 'Todo', '3')).toBe(true);
    expect(view.entities.Todo?.get('1')).toEqual({ id: 1, title: 'one' });
    expect(needsRow(view, 'Todo', '1')).toBe(false);
  });

  it('shows the rows an add carries at once, and asks only for the ones it does not carry', () => {
    const stale = apply(loaded(), event(2, [updated('1')]));
    const view = apply(
      stale,
      event(3, [
        {
          type: 'entities-added',
          entity: 'Todo',
          pks: ['3', '4', '1'],
          rows: [{ id: 3, title: 'three' }, null, { id: 1, title: 'one again' }],
        },
      ]),
    );
    expect(view.entities.Todo?.get('3')).toEqual({ id: 3, title: 'three' });
    expect(needsRow(view, 'Todo', '3')).toBe(false);
    // Too large to carry whole: fetched when a view shows it.
    expect(view.entities.Todo?.get('4')).toBe(UNLOADED);
    expect(needsRow(view, 'Todo', '4')).toBe(true);
    // Added again with its row: no longer stale.
    expect(view.entities.Todo?.get('1')).toEqual({ id: 1, title: 'one again' });
    expect(staleOf(view)).toEqual([]);
  });

  it('marks fetched rows of a grouped update stale and keeps showing them', () => {
    const view = apply(loaded(), event(2, [added('3')]), event(3, [updated('1', '3')]));
    expect(view.entities.Todo?.get('1')).toEqual({ id: 1, title: 'one' });
    expect(staleOf(view)).toEqual(['1']);
    expect(needsRow(view, 'Todo', '1')).toBe(true);
    // A row never fetched has nothing old to show: it stays unloaded.
    expect(view.entities.Todo?.get('3')).toBe(UNLOADED);
    expect(needsRow(view, 'Todo', '2')).toBe(false);
  });

  it('holds an invalidated entity as INVALID, not stale, until it is added again', () => {
    const invalidated: Effect = {
      type: 'entity-invalidated',
      entity: 'Todo',
      pk: '1',
      from: { id: 1 },
      via: 'url-params',
    };
    let view = apply(loaded(), event(2, [updated('1')]), event(3, [invalidated]));
    expect(view.entities.Todo?.get('1')).toEqual(INVALID_ROW);
    expect(staleOf(view)).toEqual([]);
    view = apply(view, event(4, [added('1')]));
    expect(view.entities.Todo?.get('1')).toBe(UNLOADED);
  });

  it('takes the rows the page answers with: set, no longer stale, and null removes the pk', () => {
    const before = apply(loaded(), event(2, [added('3')]), event(3, [updated('1', '2')]));
    const view = applyRows(
      before,
      rows('s', 3, 'Todo', { '1': { id: 1, title: 'ONE' }, '3': { id: 3, title: 'three' } }),
    );
    expect(plainTable(view.entities.Todo)).toEqual({
      '1': { id: 1, title: 'ONE' },
      '2': { id: 2, title: 'two' },
      '3': { id: 3, title: 'three' },
    });
    expect(staleOf(view)).toEqual(['2']);
    const gone = applyRows(view, rows('s', 3, 'Todo', { '2': null }));
    expect(keysOf(gone.entities.Todo)).toEqual(['1', '3']);
    expect(staleOf(gone)).toEqual([]);
    // An INVALID row comes as the usual marker.
    const invalid = applyRows(gone, rows('s', 3, 'Todo', { '3': INVALID_ROW }));
    expect(invalid.entities.Todo?.get('3')).toEqual(INVALID_ROW);
  });

  it('ignores rows before the snapshot, which brings them all', () => {
    const empty = emptyStoreView('s');
    expect(applyRows(empty, rows('s', 1, 'Todo', { '1': { id: 1 } }))).toBe(empty);
  });

  it('loads every row from a later snapshot and forgets what was stale', () => {
    const stale = apply(loaded(), event(2, [added('3')]), event(3, [updated('1')]));
    const view = applySnapshotChunk(
      stale,
      snapshot('s', 3, { Todo: { '1': { id: 1 }, '3': { id: 3 } } }),
    );
    expect(plainTable(view.entities.Todo)).toEqual({ '1': { id: 1 }, '3': { id: 3 } });
    expect(view.stale).toEqual({});
    expect(plainTables(view.collections)).toEqual({});
  });

  it('keeps only the chunks that came, however many the snapshot announces', () => {
    const whole = snapshot('s', 2, { Todo: { '1': { id: 1 } } });
    const text = whole.data;
    const third = Math.ceil(text.length / 3);
    const chunk = (index: number) => ({
      ...whole,
      index,
      count: 3,
      data: text.slice(index * third, (index + 1) * third),
    });
    let view = applySnapshotChunk(emptyStoreView('s'), chunk(2));
    expect(view.pendingSnapshot?.parts.size).toBe(1);
    view = applySnapshotChunk(view, chunk(0));
    expect(view.pendingSnapshot?.parts.size).toBe(2);
    expect(view.ready).toBe(false);
    view = applySnapshotChunk(view, chunk(1));
    expect(view.pendingSnapshot).toBeUndefined();
    expect(view).toMatchObject({ ready: true, lastSeq: 2 });
    expect(plainTables(view.entities)).toEqual({ Todo: { '1': { id: 1 } } });

    // A count no real snapshot has (the validators refuse it): still one part is kept.
    const huge = applySnapshotChunk(emptyStoreView('s'), {
      ...whole,
      index: 7,
      count: 120_000_000,
    });
    expect(huge.pendingSnapshot?.parts.size).toBe(1);
  });

  it.each(['{}', 'null', '[]', '"snapshot"', '{"entities":null}', '{"entities":{"Todo":5}}'])(
    'takes the JSON %s as no snapshot: the copy stays as it was',
    (text) => {
      const before = loaded();
      const view = applySnapshotChunk(before, { ...snapshot('s', 9), data: text });
      expect(view).toEqual(before);
      expect(
        applySnapshotChunk(emptyStoreView('s'), { ...snapshot('s', 9), data: text }),
      ).toMatchObject({
        ready: false,
        lastSeq: 0,
      });
    },
  );

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'keeps an entity type, pk, collection, row and result key named %s as data',
    (key) => {
      const prototypeNames = Object.getOwnPropertyNames(Object.prototype);
      const row = { id: key, title: `row ${key}` };
      let view = applySnapshotChunk(
        emptyStoreView('s'),
        snapshot('s', 1, { [key]: { [key]: row }, [`[${key}]`]: { [key]: [key] } }),
      );
      expect(Object.keys(view.entities)).toEqual([key]);
      expect(view.entities[key]?.get(key)).toEqual(row);
      expect(view.collections[`[${key}]`]?.get(key)).toEqual([key]);
      view = apply(
        view,
        event(2, [
          { type: 'entities-added', entity: key, pks: ['other'] },
          {
            type: 'entities-updated',
            entity: key,
            updates: [{ pk: key, fields: [{ field: key, before: key, after: key }] }],
          },
          {
            type: 'collection-changed',
            collection: key,
            row: key,
            kind: 'push',
            lengthBefore: 0,
            lengthAfter: 1,
            inserted: [{ index: 0, pks: [key] }],
            duplicates: [],
            removed: [],
          },
          { type: 'result-stored', key, endpoint: key, expiresAt: 5, kept: true, result: key },
          { type: 'result-error', key: `${key}!`, endpoint: key, error: 'bad', kept: true },
        ]),
        event(3, [
          { type: 'entity-invalidated', entity: key, pk: 'other', from: key, via: 'response' },
          { type: 'result-expired', key },
          { type: 'result-invalidated', key: `${key}!` },
        ]),
      );
      view = applyRows(view, rows('s', 3, key, { [key]: { ...row, title: 'fresh' } }));
      const own = (record: object) => Object.keys(record);
      expect(own(view.entities)).toEqual([key]);
      expect(keysOf(view.entities[key])).toEqual([key, 'other']);
      expect(view.entities[key]?.get(key)).toEqual({ ...row, title: 'fresh' });
      expect(view.entities[key]?.get('other')).toEqual(INVALID_ROW);
      expect(own(view.collections).sort()).toEqual([key, `[${key}]`].sort());
      expect(view.collections[key]?.get(key)).toEqual([key]);
      expect(keysOf(view.endpoints)).toEqual([key]);
      expect(view.meta.get(key)).toMatchObject({ expiresAt: 1 });
      // The invalidation ends the error, as in the store: the next read fetches.
      expect(view.meta.get(`${key}!`)).toEqual({ date: 2, expiresAt: 0, invalidated: true });
      expect(keysOf(view.lastChanges)).toEqual([`${key} ${key}`]);
      // Nothing reached a prototype.
      expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeNames);
      expect(({} as Record<string, unknown>).title).toBeUndefined();
      // A key the copy does not hold reads as absent, whatever its name.
      const empty = emptyStoreView('s');
      for (const record of [empty.entities, empty.collections]) expect(record[key]).toBeUndefined();
      for (const table of [empty.endpoints, empty.meta]) expect(table.get(key)).toBeUndefined();
      expect(needsRow(empty, key, key)).toBe(false);
    },
  );

  it('applies a batch without changing the copy it started from', () => {
    const before = loaded();
    const todos = before.entities.Todo;
    const after = apply(before, event(2, [added('3')]), event(3, [updated('1')]));
    expect(before.entities.Todo).toBe(todos);
    expect(keysOf(todos)).toEqual(['1', '2']);
    expect(before.stale).toEqual({});
    expect(after.lastSeq).toBe(3);
  });

  it('clears everything on a reset, then applies the events after it in the same batch', () => {
    const view = apply(
      apply(loaded(), event(2, [updated('2')])),
      event(3, [{ type: 'store-reset' }]),
      event(4, [added('9')]),
    );
    expect(plainTables(view.entities)).toEqual({ Todo: { '9': UNLOADED } });
    expect(plainTables(view.collections)).toEqual({});
    expect(staleOf(view)).toEqual([]);
    expect(view.lastSeq).toBe(4);
    expect(view.events.map((each) => each.seq)).toEqual([2, 3, 4]);
  });

  it('applies many changes to one row in a batch as one after the other, the row before kept', () => {
    const change = (kind: 'push' | 'invalidate' | 'unshift', pks: string[], at = 0): Effect => ({
      type: 'collection-changed',
      collection: '[Todo]',
      row: '{}',
      kind,
      lengthBefore: 0,
      lengthAfter: 0,
      inserted: kind === 'invalidate' ? [] : [{ index: at, pks }],
      duplicates: [],
      removed: kind === 'invalidate' ? pks : [],
    });
    const before = loaded();
    const after = apply(
      before,
      event(2, [change('push', ['3'], 2)]),
      event(3, [change('push', ['4'], 3)]),
      event(4, [change('invalidate', ['1'])]),
      event(5, [change('unshift', ['0'])]),
      event(6, [change('push', ['5'], 4), change('invalidate', ['3'])]),
    );
    expect(after.collections['[Todo]']?.get('{}')).toEqual(['0', '2', '4', '5']);
    expect(before.collections['[Todo]']?.get('{}')).toEqual(['1', '2']);
    // The next batch starts from that list, and leaves it as it was too.
    const next = apply(after, event(7, [change('push', ['6'], 4)]));
    expect(next.collections['[Todo]']?.get('{}')).toEqual(['0', '2', '4', '5', '6']);
    expect(after.collections['[Todo]']?.get('{}')).toEqual(['0', '2', '4', '5']);
  });

  it('takes a replaced row’s list as the event gave it, and never writes into it', () => {
    const members = ['7', '8'];
    const replaced: Effect = {
      type: 'collection-changed',
      collection: '[Todo]',
      row: '{}',
      kind: 'replace',
      lengthBefore: 2,
      lengthAfter: 2,
      inserted: [{ index: 0, pks: ['7', '8'] }],
      duplicates: [],
      removed: ['1', '2'],
      members,
    };
    const pushed: Effect = {
      ...replaced,
      kind: 'push',
      lengthAfter: 3,
      inserted: [{ index: 2, pks: ['9'] }],
      removed: [],
      members: undefined,
    };
    const view = apply(loaded(), event(2, [replaced]), event(3, [pushed]));
    expect(view.collections['[Todo]']?.get('{}')).toEqual(['7', '8', '9']);
    expect(members).toEqual(['7', '8']);
  });
});

describe('what the copy keeps of its timeline', () => {
  const read = (seq: number, key: string, endpoint: string, kept = true): StoreEvent => ({
    seq,
    time: seq,
    action: { type: 'fetch', endpoint, key },
    effects: [{ type: 'result-stored', key, endpoint, expiresAt: 0, kept, result: null }],
  });
  const reset = (seq: number): StoreEvent => ({
    seq,
    time: seq,
    action: { type: 'reset' },
    effects: [{ type: 'store-reset' }],
  });
  const ready = () => ({ ...emptyStoreView('s'), ready: true });
  const history = (view: StoreView, ...events: StoreEvent[]) =>
    applyEvents(view, { storeId: 's', events, history: true }).view;
  const menus = (view: StoreView) => ({
    type: view.actionValues.type.sorted,
    endpoint: view.actionValues.endpoint.sorted,
  });

  it("names a result by the read that first stored it, not a mutation's answer", () => {
    const view = apply(
      ready(),
      read(1, 'GET /todos', 'Todo.getList'),
      read(2, 'GET /todos', 'Todo.getList.getPage'),
      read(3, 'POST /todos', 'Todo.create', false),
    );
    expect(endpointOf(view, 'GET /todos')).toBe('Todo.getList');
    expect(endpointOf(view, 'POST /todos')).toBeUndefined();
  });

  it("keeps a result's name once the timeline has trimmed the event that gave it", () => {
    const named = apply(ready(), read(1, 'GET /todos', 'Todo.getList'));
    const later = Array.from({ length: MAX_TIMELINE }, (_, index) =>
      read(index + 2, `GET /todos/${index}`, 'Todo.get'),
    );
    const view = apply(named, ...later);
    expect(view.events[0]?.seq).toBe(2);
    expect(endpointOf(view, 'GET /todos')).toBe('Todo.getList');
  });

  it('forgets the names before a store reset', () => {
    const view = apply(
      ready(),
      read(1, 'GET /todos', 'Todo.getList'),
      reset(2),
      read(3, 'GET /users', 'User.getList'),
    );
    expect(endpointOf(view, 'GET /todos')).toBeUndefined();
    expect(endpointOf(view, 'GET /users')).toBe('User.getList');
    // The same read again after the reset names it afresh.
    const again = apply(view, read(4, 'GET /todos', 'Todo.getList.getPage'));
    expect(endpointOf(again, 'GET /todos')).toBe('Todo.getList.getPage');
  });

  it('takes names from history, the earliest read first, and none from before a reset', () => {
    const live = apply({ ...ready(), lastSeq: 10 }, read(11, 'GET /todos', 'Todo.getList.getPage'));
    const view = history(
      live,
      read(5, 'GET /todos', 'Todo.getList'),
      read(6, 'GET /users', 'User.getList'),
      reset(4),
      read(3, 'GET /old', 'Old.get'),
    );
    expect(endpointOf(view, 'GET /todos')).toBe('Todo.getList');
    expect(endpointOf(view, 'GET /users')).toBe('User.getList');
    expect(endpointOf(view, 'GET /old')).toBeUndefined();
  });

  it('names as of a past seq: those given up to it, or before a later reset those of its events', () => {
    const view = apply(
      ready(),
      read(1, 'GET /todos', 'Todo.getList'),
      read(2, 'GET /users', 'User.getList'),
    );
    const atOne = { resultNames: resultNamesUpTo(view, 1, view.events.slice(0, 1)) };
    expect(endpointOf(atOne, 'GET /todos')).toBe('Todo.getList');
    expect(endpointOf(atOne, 'GET /users')).toBeUndefined();
    const afterReset = apply(view, reset(3));
    const beforeReset = { resultNames: resultNamesUpTo(afterReset, 2, view.events) };
    expect(endpointOf(beforeReset, 'GET /users')).toBe('User.getList');
  });

  it('drops the names and menu values of the events a snapshot is older than', () => {
    const view = apply(loaded(), read(2, 'GET /todos', 'Todo.getList'), {
      ...read(3, 'GET /users', 'User.getList'),
      action: { type: 'setResponse' },
    });
    expect(menus(view)).toEqual({
      type: ['fetch', 'setResponse'],
      endpoint: ['Todo.getList'],
    });
    // Asked for after a conflict: the copy may be ahead of the store.
    const older = applySnapshotChunk({ ...view, resyncAfter: 0 }, snapshot('s', 2));
    expect(older.events.map((each) => each.seq)).toEqual([2]);
    expect(menus(older)).toEqual({ type: ['fetch'], endpoint: ['Todo.getList'] });
    expect(endpointOf(older, 'GET /todos')).toBe('Todo.getList');
    expect(endpointOf(older, 'GET /users')).toBeUndefined();
  });

  it("offers in the filter menus the kinds and endpoints of the timeline's events", () => {
    const first = apply(
      ready(),
      read(1, 'GET /todos', 'Todo.getList'),
      reset(2),
      read(3, 'GET /users', 'User.getList'),
    );
    // The events before a reset stay on the timeline, and so do their values.
    expect(menus(first)).toEqual({
      type: ['fetch', 'reset'],
      endpoint: ['Todo.getList', 'User.getList'],
    });
    const unchanged = apply(first, read(4, 'GET /todos/1', 'User.getList'));
    expect(unchanged.actionValues.type.sorted).toBe(first.actionValues.type.sorted);
    expect(unchanged.actionValues.endpoint.sorted).toBe(first.actionValues.endpoint.sorted);
    // A value goes once the timeline has trimmed its last event.
    const later = Array.from({ length: MAX_TIMELINE }, (_, index) =>
      read(index + 5, `GET /todos/${index}`, 'Todo.get'),
    );
    expect(menus(apply(unchanged, ...later))).toEqual({
      type: ['fetch'],
      endpoint: ['Todo.get'],
    });
  });

  it('takes back the names and menu values of events a conflict takes out', () => {
    const view = apply(ready(), read(1, 'GET /todos', 'Todo.getList'), {
      ...read(2, 'GET /users', 'User.getList'),
      action: { type: 'setResponse', endpoint: 'User.getList' },
    });
    // Another event with seq 2: a script of the page posted one of the two.
    const disputed = apply(view, read(2, 'GET /other', 'Other.get'));
    expect(disputed.events.map((each) => each.seq)).toEqual([1]);
    expect(menus(disputed)).toEqual({ type: ['fetch'], endpoint: ['Todo.getList'] });
    expect(endpointOf(disputed, 'GET /users')).toBeUndefined();
  });
});

/** A snapshot as pages send it now: sizes, the lists to follow in parts. */
function counted(
  seq: number,
  tableSizes: Record<string, number>,
  collectionSizes: Record<string, Record<string, number>>,
): SnapshotMessage {
  const state = {
    entities: {},
    tableSizes,
    collectionSizes,
    endpoints: {},
    meta: {},
    optimistic: [],
  };
  return pageMessage({
    kind: 'snapshot',
    storeId: 's',
    seq,
    index: 0,
    count: 1,
    data: JSON.stringify(state),
  }) as SnapshotMessage;
}

describe('a snapshot whose lists follow it', () => {
  const head = () =>
    applySnapshotChunk(
      emptyStoreView('s'),
      counted(4, { Todo: 3 }, { '[Todo]': { '{}': 3, '{"a":1}': 0 } }),
    );

  it('is ready at once: every table and row there, empty, with what is still coming', () => {
    const view = head();
    expect(view.ready).toBe(true);
    expect(plainTables(view.entities)).toEqual({ Todo: {} });
    expect(plainTables(view.collections)).toEqual({ '[Todo]': { '{}': [], '{"a":1}': [] } });
    expect(pksComing(view, 'Todo')).toBe(3);
    expect(membersComing(view, '[Todo]', '{}')).toBe(3);
    expect(membersComing(view, '[Todo]', '{"a":1}')).toBe(0);
  });

  it('takes the parts in order until each list is whole, then nothing is coming', () => {
    let view = applyListParts(head(), [
      { seq: 4, table: '[Todo]', row: '{}', pks: ['c', 'a'] },
      { seq: 4, table: 'Todo', pks: ['a'] },
    ]);
    expect(view.collections['[Todo]']?.get('{}')).toEqual(['c', 'a']);
    expect(plainTable(view.entities.Todo)).toEqual({ a: UNLOADED });
    expect(membersComing(view, '[Todo]', '{}')).toBe(1);
    expect(pksComing(view, 'Todo')).toBe(2);
    const before = view;
    view = applyListParts(view, [
      { seq: 4, table: '[Todo]', row: '{}', pks: ['b'] },
      { seq: 4, table: 'Todo', pks: ['b', 'c'] },
    ]);
    expect(view.collections['[Todo]']?.get('{}')).toEqual(['c', 'a', 'b']);
    expect(keysOf(view.entities.Todo)).toEqual(['a', 'b', 'c']);
    expect(view.loading).toBeUndefined();
    // The copy before is unchanged (the views compare copies).
    expect(before.collections['[Todo]']?.get('{}')).toEqual(['c', 'a']);
    expect(keysOf(before.entities.Todo)).toEqual(['a']);
  });

  it('takes a part of any length, as long as the page counted it (the page decides how long)', () => {
    const count = 500_000;
    const pks = Array.from({ length: count }, (_, index) => `${index}`);
    const counting = applySnapshotChunk(
      emptyStoreView('s'),
      counted(4, {}, { '[Todo]': { '{}': count } }),
    );
    const view = applyListParts(counting, [{ seq: 4, table: '[Todo]', row: '{}', pks }]);
    const members = view.collections['[Todo]']?.get('{}');
    expect(members).toHaveLength(count);
    expect([members?.[0], members?.[count - 1]]).toEqual(['0', `${count - 1}`]);
    expect(view.loading).toBeUndefined();
  });

  it('asks for a fresh snapshot on a part it does not expect (a script posted it)', () => {
    const unexpected: ListPart[] = [
      { seq: 3, table: 'Todo', pks: ['old'] },
      { seq: 4, table: 'User', pks: ['1'] },
      { seq: 4, table: '[Todo]', row: '{"b":2}', pks: ['x'] },
      { seq: 4, table: '[Todo]', row: '{"a":1}', pks: ['x'] },
      { seq: 4, table: 'Todo', pks: ['a', 'b', 'c', 'd'] },
    ];
    for (const part of unexpected) {
      const view = applyListParts(head(), [{ seq: 4, table: 'Todo', pks: ['a'] }, part]);
      expect(view.resyncAfter).toBe(0);
      // What came is not taken: the fresh snapshot brings it all.
      expect(plainTables(view.entities)).toEqual({ Todo: {} });
      expect(plainTable(view.collections['[Todo]'])).toEqual({ '{}': [], '{"a":1}': [] });
    }
    // Whole lists take no more.
    const whole = applyListParts(head(), [
      { seq: 4, table: '[Todo]', row: '{}', pks: ['a', 'b', 'c'] },
      { seq: 4, table: 'Todo', pks: ['a', 'b', 'c'] },
    ]);
    expect(whole.loading).toBeUndefined();
    expect(whole.resyncAfter).toBeUndefined();
    expect(applyListParts(whole, [{ seq: 4, table: 'Todo', pks: ['z'] }]).resyncAfter).toBe(0);
  });

  it('asks a resync from 0 while lists are coming: only a snapshot sends them again', () => {
    expect(resyncPoint(head(), 4)).toBe(0);
    expect(resyncPoint(loaded(), 1)).toBe(1);
  });

  it('keeps a row already answered when its pk comes in a part', () => {
    let view = applyRows(head(), rows('s', 4, 'Todo', { b: { id: 'b' } }));
    view = applyListParts(view, [{ seq: 4, table: 'Todo', pks: ['a', 'b'] }]);
    expect(plainTable(view.entities.Todo)).toEqual({ b: { id: 'b' }, a: UNLOADED });
  });

  it('takes any name as a plain key: __proto__ tables, rows and pks', () => {
    let view = applySnapshotChunk(
      emptyStoreView('s'),
      // Parsed, as the page's text is: `__proto__` is then a key of its own.
      counted(
        1,
        JSON.parse('{"__proto__":1,"constructor":1}'),
        JSON.parse('{"__proto__":{"__proto__":2}}'),
      ),
    );
    view = applyListParts(view, [
      { seq: 1, table: '__proto__', pks: ['__proto__'] },
      { seq: 1, table: '__proto__', row: '__proto__', pks: ['toString', '__proto__'] },
    ]);
    expect(Object.keys(view.entities)).toEqual(['__proto__', 'constructor']);
    const proto = '__proto__';
    expect(keysOf(view.entities[proto])).toEqual([proto]);
    expect(view.collections[proto]?.get(proto)).toEqual(['toString', proto]);
    expect(pksComing(view, 'constructor')).toBe(1);
    expect(({} as Record<string, unknown>).toString).toBe(Object.prototype.toString);
  });

  it('a later snapshot starts over: what was coming for the earlier one is dropped', () => {
    const view = applySnapshotChunk(applyListParts(head(), []), counted(5, {}, {}));
    expect(view.loading).toBeUndefined();
    expect(applyListParts(view, [{ seq: 4, table: 'Todo', pks: ['a'] }]).entities).toBe(
      view.entities,
    );
  });
});

describe('a batch applied to large tables', () => {
  const TODOS = 100_000;
  const ROWS = 1_000;
  const listRow = (index: number) => `{"list":${index}}`;

  /** A copy of a store of 100k todos in 1,000 lists of 100 and one user, every list whole. */
  function large(): StoreView {
    const pks = Array.from({ length: TODOS }, (_, index) => `todo-${index}`);
    const sizes = Object.fromEntries(Array.from({ length: ROWS }, (_, row) => [listRow(row), 100]));
    const lists: ListPart[] = Array.from({ length: ROWS }, (_, row) => ({
      seq: 1,
      table: '[Todo]',
      row: listRow(row),
      pks: pks.slice(row * 100, (row + 1) * 100),
    }));
    return applyListParts(
      applySnapshotChunk(
        emptyStoreView('s'),
        counted(1, { Todo: TODOS, User: 1 }, { '[Todo]': sizes }),
      ),
      [{ seq: 1, table: 'Todo', pks }, { seq: 1, table: 'User', pks: ['u'] }, ...lists],
    );
  }

  const pushed: Effect = {
    type: 'collection-changed',
    collection: '[Todo]',
    row: listRow(7),
    kind: 'push',
    lengthBefore: 100,
    lengthAfter: 101,
    inserted: [{ index: 100, pks: ['new'] }],
    duplicates: [],
    removed: [],
  };
  const invalidated: Effect = {
    type: 'entity-invalidated',
    entity: 'Todo',
    pk: 'todo-5',
    from: 'todo-5',
    via: 'response',
  };
  const stored: Effect = {
    type: 'result-stored',
    key: 'GET /todos/new',
    endpoint: 'Todo.get',
    expiresAt: 5,
    kept: true,
    result: 'new',
  };

  it('makes new versions of the tables it changes and leaves the versions before as they were', () => {
    const before = large();
    expect(before.loading).toBeUndefined();
    const after = apply(before, event(2, [added('new'), pushed]), event(3, [invalidated, stored]));

    const todos = before.entities.Todo;
    expect(after.entities.Todo).not.toBe(todos);
    expect(after.entities.Todo?.size).toBe(TODOS + 1);
    expect(after.entities.Todo?.get('new')).toBe(UNLOADED);
    expect(after.entities.Todo?.get('todo-5')).toEqual(INVALID_ROW);
    // The table before the batch still reads as it did: the batch wrote into a new version.
    expect(todos?.size).toBe(TODOS);
    expect(todos?.get('new')).toBeUndefined();
    expect(todos?.get('todo-5')).toBe(UNLOADED);

    const lists = before.collections['[Todo]'];
    expect(after.collections['[Todo]']?.get(listRow(7))).toHaveLength(101);
    expect(lists?.get(listRow(7))).toHaveLength(100);
    // The rows the batch did not change are the very lists they were.
    expect(after.collections['[Todo]']?.get(listRow(8))).toBe(lists?.get(listRow(8)));

    expect(after.lastChanges.get(`[Todo] ${listRow(7)}`)?.seq).toBe(2);
    expect(before.lastChanges.size).toBe(0);
    expect(after.endpoints.get('GET /todos/new')).toBe('new');
    expect(before.endpoints.size).toBe(0);
    expect(before.meta.size).toBe(0);
  });

  it('keeps every table it did not change as it was, by identity', () => {
    const before = large();
    const after = apply(before, event(2, [added('new')]));
    expect(after.entities.User).toBe(before.entities.User);
    expect(after.collections).toBe(before.collections);
    expect(after.endpoints).toBe(before.endpoints);
    expect(after.meta).toBe(before.meta);
    expect(after.lastChanges).toBe(before.lastChanges);
    // An update of rows never fetched changes nothing the copy holds: not even the table.
    const updatedOnly = apply(after, event(3, [updated('todo-1', 'todo-2')]));
    expect(updatedOnly.entities).toBe(after.entities);
    expect(updatedOnly.stale).toBe(after.stale);
  });
});
