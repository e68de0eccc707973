import { describe, expect, it } from 'vitest';
import { mergeChanges } from '../../../library/src/devtools/protocol/applyEffects.js';
import type { Effect, StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import {
  appendedFrom,
  collectionRows,
  filterEvents,
  lastEntityChange,
  optimisticOutcome,
  referencesOf,
  summarizeEffects,
} from '../../src/panel/derive.js';
import { applyEvents, emptyStoreView } from '../../src/panel/model.js';
import { tableOf, tablesOf } from '../support/tables.js';

type CollectionChange = Extract<Effect, { type: 'collection-changed' }>;
const removal = (pk: string, before: number): CollectionChange => ({
  type: 'collection-changed',
  collection: '[Todo]',
  row: '{}',
  kind: 'invalidate',
  lengthBefore: before,
  lengthAfter: before - 1,
  inserted: [],
  duplicates: [],
  removed: [pk],
});
const event = (seq: number, action: StoreEvent['action'], effects: Effect[] = []): StoreEvent => ({
  seq,
  time: seq,
  action,
  effects,
});

describe('collection rows', () => {
  it('put the changes one event made to a row back together (a batch delete)', () => {
    expect(mergeChanges([removal('2', 4), removal('4', 3)])).toMatchObject({
      kind: 'invalidate',
      lengthBefore: 4,
      lengthAfter: 2,
      removed: ['2', '4'],
    });
    // The model keeps them together as the row's latest change.
    const ready = {
      ...emptyStoreView('s'),
      ready: true,
      lastSeq: 6,
      collections: tablesOf({ '[Todo]': { '{}': ['1', '2', '3', '4'] } }),
    };
    const { view } = applyEvents(ready, {
      storeId: 's',
      events: [event(7, { type: 'setResponse' }, [removal('2', 4), removal('4', 3)])],
    });
    expect(view.collections['[Todo]']?.get('{}')).toEqual(['1', '3']);
    expect(collectionRows(view)[0]?.lastChange?.effect.removed).toEqual(['2', '4']);
  });
});

describe('references', () => {
  it('tell two types with the same pk apart', () => {
    const stored = {
      ...emptyStoreView('s'),
      lastSeq: 2,
      entities: tablesOf({ Todo: { '3': { id: 3 } }, User: { '3': { id: 3 } } }),
      endpoints: tableOf({ 'GET /users/3': '3', 'GET /todos/3': '3', 'GET /snapshot-only': '3' }),
    };
    // The events that stored them, as the history the page sends with a snapshot.
    const { view } = applyEvents(stored, {
      storeId: 's',
      history: true,
      events: [
        event(1, { type: 'setResponse' }, [
          { type: 'entities-added', entity: 'User', pks: ['3'] },
          {
            type: 'result-stored',
            key: 'GET /users/3',
            endpoint: 'User.get',
            expiresAt: 0,
            kept: true,
            result: '3',
          },
        ]),
        // Stored again unchanged: no entity written, the endpoint's name decides.
        event(2, { type: 'setResponse' }, [
          {
            type: 'result-stored',
            key: 'GET /todos/3',
            endpoint: 'Todo.get',
            expiresAt: 0,
            kept: true,
            result: '3',
          },
        ]),
      ],
    });
    expect(referencesOf(view, 'Todo', '3').results.map((result) => result.key)).toEqual([
      'GET /todos/3',
      'GET /snapshot-only',
    ]);
    expect(referencesOf(view, 'User', '3').results.map((result) => result.key)).toEqual([
      'GET /users/3',
      'GET /snapshot-only',
    ]);
  });
});

describe('timeline', () => {
  const events = [
    event(1, {
      type: 'fetch',
      endpoint: 'Todo.update',
      key: 'PATCH /todos/1',
      optimistic: 'applied',
    }),
    event(2, { type: 'setResponse', endpoint: 'Todo.get', key: 'GET /todos/2' }),
    event(3, {
      type: 'setResponse',
      endpoint: 'Todo.update',
      key: 'PATCH /todos/1',
      optimistic: 'rolled-back',
    }),
  ];

  it('finds how an optimistic update ended', () => {
    expect(optimisticOutcome(events, events[0]!)).toBe('rolled-back');
    expect(optimisticOutcome(events.slice(0, 2), events[0]!)).toBe('applied');
    expect(optimisticOutcome(events, events[1]!)).toBeUndefined();
  });

  it('filters by kind, endpoint and text together', () => {
    const seqs = (filter: { text?: string; kind?: string; endpoint?: string }) =>
      filterEvents(events, { text: '', kind: '', endpoint: '', ...filter }).map((e) => e.seq);
    expect(seqs({ kind: 'fetch' })).toEqual([1]);
    expect(seqs({ endpoint: 'Todo.update' })).toEqual([1, 3]);
    expect(seqs({ endpoint: 'Todo.update', text: 'ROLLED' })).toEqual([3]);
    expect(seqs({ text: '#2' })).toEqual([2]);
  });

  it('summarizes effects by kind', () => {
    expect(
      summarizeEffects([
        { type: 'entities-added', entity: 'Todo', pks: ['1', '2'] },
        { type: 'entities-added', entity: 'User', pks: ['7'] },
        {
          type: 'entities-updated',
          entity: 'Todo',
          updates: [{ pk: '3', fields: [{ field: 'title', before: 'a', after: 'b' }] }],
        },
        removal('3', 2),
        { type: 'result-suspends', key: 'k', endpoint: 'e' },
      ]),
    ).toBe('3 added · 1 updated · 1 removed from lists · 1 result suspends');
  });

  it('finds an entity inside a group by its pk, and says what was done to it', () => {
    const grouped = [
      event(1, { type: 'setResponse', endpoint: 'Todo.getList' }, [
        { type: 'entities-added', entity: 'Todo', pks: ['1', '2', '3'] },
      ]),
      event(2, { type: 'setResponse', endpoint: 'Todo.update' }, [
        { type: 'entities-added', entity: 'User', pks: ['2'] },
        {
          type: 'entities-updated',
          entity: 'Todo',
          updates: [
            { pk: '1', fields: [{ field: 'title', before: 'a', after: 'b' }] },
            {
              pk: '2',
              fields: [
                { field: 'title', before: 'c', after: 'd' },
                { field: 'completed', before: false, after: true },
              ],
            },
          ],
        },
      ]),
    ];
    expect(lastEntityChange(grouped, 'Todo', '2')).toMatchObject({
      event: { seq: 2 },
      change: 'updated Todo 2: title: "c" → "d", completed: false → true',
    });
    expect(lastEntityChange(grouped, 'Todo', '3')).toMatchObject({
      event: { seq: 1 },
      change: 'added Todo 3',
    });
    expect(lastEntityChange(grouped, 'User', '1')).toBeUndefined();
  });

  it('finds an event by any entity of its groups, and by its effects being left out', () => {
    const grouped = [
      event(1, { type: 'setResponse' }, [
        { type: 'entities-added', entity: 'Todo', pks: ['17', '42'] },
      ]),
      { ...event(2, { type: 'setResponse' }), effectsOmitted: true as const },
    ];
    const seqs = (text: string) =>
      filterEvents(grouped, { text, kind: '', endpoint: '' }).map((e) => e.seq);
    expect(seqs('todo 42')).toEqual([1]);
    expect(seqs('added 2 todo')).toEqual([1]);
    expect(seqs('too large')).toEqual([2]);
  });

  it("finds an event by the label of an entity it names, as the entity's row has it now", () => {
    const grouped = [
      event(1, { type: 'setResponse' }, [
        { type: 'entities-added', entity: 'Todo', pks: ['17', '42'] },
      ]),
    ];
    const labels: Record<string, string> = { 'Todo 42': 'Buy milk' };
    const seqs = (text: string) =>
      filterEvents(grouped, { text, kind: '', endpoint: '' }, (entity, pk) => {
        return labels[`${entity} ${pk}`] ?? '';
      }).map((e) => e.seq);
    expect(seqs('milk')).toEqual([1]);
    expect(seqs('bread')).toEqual([]);
    labels['Todo 17'] = 'Bake bread';
    expect(seqs('bread')).toEqual([1]);
  });

  it('tells a timeline that only gained events at its end and lost some at its start', () => {
    const timeline = [1, 2, 3, 4].map((seq) => event(seq, { type: 'fetch' }));
    const [one, two, three, four] = timeline as [StoreEvent, StoreEvent, StoreEvent, StoreEvent];
    const five = event(5, { type: 'fetch' });
    // The index of the first new event.
    expect(appendedFrom(timeline, timeline)).toBe(4);
    expect(appendedFrom(timeline, [...timeline, five])).toBe(4);
    expect(appendedFrom([one, two], [two, three, four])).toBe(1);
    expect(appendedFrom([], timeline)).toBe(0);
    // History filled a hole, a conflict replaced an event, or none of the earlier is left.
    expect(appendedFrom([one, three], [one, two, three])).toBeUndefined();
    expect(appendedFrom(timeline, [one, two, three, { ...four }])).toBeUndefined();
    expect(appendedFrom([one, two], [three, four])).toBeUndefined();
  });
});
