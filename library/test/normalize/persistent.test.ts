import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemberList } from '../../src/normalize/memberList.js';
import { PersistentMap } from '../../src/normalize/persistentMap.js';

/** Keys as apps have them, and the ones plain objects trip over. */
const keyArb = fc.oneof(
  fc.uuid(),
  fc.integer({ min: 0, max: 2000 }).map(String),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'a.b', '💥'),
  fc.string({ maxLength: 6 }),
);

type MapOp = { set: [string, number] } | { delete: string };
const mapOpArb: fc.Arbitrary<MapOp> = fc.oneof(
  fc.tuple(keyArb, fc.integer()).map((set) => ({ set })),
  keyArb.map((key) => ({ delete: key })),
);

function applyToModel(model: Map<string, number>, op: MapOp) {
  if ('set' in op) model.set(op.set[0], op.set[1]);
  else model.delete(op.delete);
}

/** The same entries (a key stored again after a delete keeps its first place in the order). */
function expectSame(map: PersistentMap<number>, model: Map<string, number>) {
  expect(map.size).toBe(model.size);
  const byKey = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : a > b ? 1 : 0);
  expect([...map].sort(byKey)).toEqual([...model].sort(byKey));
  for (const [key, value] of model) expect(map.get(key)).toBe(value);
}

describe('PersistentMap', () => {
  it('holds what a Map holds after any writes, every version unchanged', () => {
    fc.assert(
      fc.property(fc.array(mapOpArb, { maxLength: 300 }), (ops) => {
        let map = PersistentMap.empty<number>();
        const model = new Map<string, number>();
        const versions: [PersistentMap<number>, Map<string, number>][] = [];
        for (const op of ops) {
          map = 'set' in op ? map.set(op.set[0], op.set[1]) : map.delete(op.delete);
          applyToModel(model, op);
          versions.push([map, new Map(model)]);
        }
        for (const [version, snapshot] of versions) expectSame(version, snapshot);
      }),
      { numRuns: 150 },
    );
  });

  it('a draft gives the same map as the writes one by one, and leaves its base as it was', () => {
    fc.assert(
      fc.property(
        fc.array(mapOpArb, { maxLength: 100 }),
        fc.array(mapOpArb, { maxLength: 300 }),
        (first, batch) => {
          const model = new Map<string, number>();
          let base = PersistentMap.empty<number>();
          for (const op of first) {
            base = 'set' in op ? base.set(op.set[0], op.set[1]) : base.delete(op.delete);
            applyToModel(model, op);
          }
          const before = new Map(model);
          const after = base.withMutations((draft) => {
            for (const op of batch) {
              if ('set' in op) draft.set(op.set[0], op.set[1]);
              else draft.delete(op.delete);
              applyToModel(model, op);
            }
          });
          expectSame(after, model);
          expectSame(base, before);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('iterates in the order keys were first stored', () => {
    const map = PersistentMap.from([
      ['b', 1],
      ['a', 2],
      ['c', 3],
    ]);
    expect([...map.keys()]).toEqual(['b', 'a', 'c']);
    expect([...map.delete('a').set('d', 4).set('a', 5).keys()]).toEqual(['b', 'a', 'c', 'd']);
  });

  it('returns the very same map for a write that changes nothing', () => {
    const map = PersistentMap.from([['a', 1]]);
    expect(map.set('a', 1)).toBe(map);
    expect(map.delete('b')).toBe(map);
    expect(map.withMutations(() => {})).toBe(map);
  });

  it('keeps working, and stays small, when keys come and go for a long time', () => {
    let map = PersistentMap.empty<number>();
    for (let i = 0; i < 20_000; i++) {
      map = map.set(`key-${i}`, i);
      if (i >= 10) map = map.delete(`key-${i - 10}`);
    }
    expect(map.size).toBe(10);
    expect([...map.keys()]).toEqual(Array.from({ length: 10 }, (_, i) => `key-${19_990 + i}`));
  });

  it("numbers its keys with a sibling's index from its first write on", () => {
    const rows = PersistentMap.from(Array.from({ length: 100 }, (_, i) => [`pk-${i}`, i]));
    const meta = PersistentMap.empty<number>(rows).set('pk-5', 1);
    expect(meta.keyIndex()).toBe(rows.keyIndex());
    expect(meta.get('pk-5')).toBe(1);
    expect(meta.size).toBe(1);
  });

  it('keeps its index small when its only key comes and goes', () => {
    let map = PersistentMap.empty<number>();
    for (let i = 0; i < 1_000; i++) map = map.set(`key-${i}`, i).delete(`key-${i}`);
    expect(map.size).toBe(0);
    expect(map.keyIndex().keys.length).toBeLessThan(100);
  });

  it('takes any string as a key, __proto__ included, and exports JSON with it', () => {
    const map = PersistentMap.from([
      ['__proto__', 1],
      ['toString', 2],
    ]);
    expect(map.get('__proto__')).toBe(1);
    expect(map.get('constructor')).toBeUndefined();
    expect(map.get('hasOwnProperty')).toBeUndefined();
    expect(JSON.parse(JSON.stringify(map))).toEqual(JSON.parse('{"__proto__":1,"toString":2}'));
    expect(Object.getPrototypeOf(map.toObject())).toBeNull();
  });

  it('refuses a draft used after finish', () => {
    const draft = PersistentMap.empty<number>().draft();
    draft.finish();
    expect(() => draft.set('a', 1)).toThrow('a draft cannot be used after finish()');
  });
});

type ListOp = { append: string[] } | { prepend: string[] } | { remove: string };
const pkArb = fc.oneof(
  fc.uuid(),
  fc.integer({ min: 0, max: 50 }).map(String),
  fc.constant('__proto__'),
);
const listOpArb: fc.Arbitrary<ListOp> = fc.oneof(
  fc.array(pkArb, { maxLength: 8 }).map((append) => ({ append })),
  fc.array(pkArb, { maxLength: 8 }).map((prepend) => ({ prepend })),
  pkArb.map((remove) => ({ remove })),
);

function modelApply(model: string[], op: ListOp): string[] {
  if ('remove' in op) return model.filter((pk) => pk !== op.remove);
  const fresh: string[] = [];
  const incoming = 'append' in op ? op.append : op.prepend;
  for (const pk of incoming) if (!model.includes(pk) && !fresh.includes(pk)) fresh.push(pk);
  return 'append' in op ? [...model, ...fresh] : [...fresh, ...model];
}

describe('MemberList', () => {
  it('keeps members in order, each once, through appends, prepends and removals', () => {
    fc.assert(
      fc.property(fc.array(listOpArb, { maxLength: 200 }), (ops) => {
        let list = MemberList.empty();
        let model: string[] = [];
        const versions: [MemberList, string[]][] = [];
        for (const op of ops) {
          list =
            'append' in op
              ? list.append(op.append)
              : 'prepend' in op
                ? list.prepend(op.prepend)
                : list.remove(op.remove);
          model = modelApply(model, op);
          versions.push([list, model]);
        }
        for (const [version, expected] of versions) {
          expect(version.toArray()).toEqual(expected);
          expect(version.length).toBe(expected.length);
          for (const pk of expected) expect(version.has(pk)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('an add that adds nothing gives the very same list', () => {
    const list = MemberList.from(['a', 'b']);
    expect(list.append(['a'])).toBe(list);
    expect(list.prepend(['b', 'a'])).toBe(list);
    expect(list.remove('c')).toBe(list);
  });

  it('is an array of its members to JSON', () => {
    expect(JSON.stringify(MemberList.from(['1', '2']).prepend(['0']))).toBe('["0","1","2"]');
  });
});
