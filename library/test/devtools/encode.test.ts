// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { decode, encode, encodeWhole } from '../../src/devtools/page/encode.js';
import { type Encoded, TRUNCATED_FIELDS } from '../../src/devtools/protocol/messages.js';

/** The encoded form survives JSON (what postMessage relays through the extension carry). */
function overJson(value: unknown): Encoded {
  const encoded = encode(value);
  const text = JSON.stringify(encoded);
  expect(JSON.parse(text)).toEqual(encoded);
  return JSON.parse(text) as Encoded;
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

describe('encode / decode round trips', () => {
  it('plain JSON values stand for themselves', () => {
    const value = { a: 1, b: 'two', c: [true, false, null], d: { e: -0.5 } };
    expect(encode(value)).toEqual(value);
    expect(decode(overJson(value))).toEqual(value);
  });

  it('undefined, NaN and ±Infinity', () => {
    const value = { u: undefined, nan: Number.NaN, inf: Infinity, minus: -Infinity };
    const encoded = overJson(value);
    expect(encoded).toEqual({
      u: { '@t': 'undefined' },
      nan: { '@t': 'number', v: 'NaN' },
      inf: { '@t': 'number', v: 'Infinity' },
      minus: { '@t': 'number', v: '-Infinity' },
    });
    const decoded = decode(encoded) as typeof value;
    expect('u' in decoded && decoded.u === undefined).toBe(true);
    expect(decoded.nan).toBeNaN();
    expect(decoded.inf).toBe(Infinity);
    expect(decoded.minus).toBe(-Infinity);
    expect(decode(overJson([undefined]))).toEqual([undefined]);
  });

  it('Date (and an invalid Date)', () => {
    const date = new Date('2024-05-06T07:08:09.010Z');
    expect(overJson(date)).toEqual({ '@t': 'date', v: '2024-05-06T07:08:09.010Z' });
    const decoded = decode(overJson({ at: date })) as { at: Date };
    expect(decoded.at).toBeInstanceOf(Date);
    expect(decoded.at.getTime()).toBe(date.getTime());
    expect(overJson(new Date(Number.NaN))).toEqual({ '@t': 'date', v: 'Invalid Date' });
  });

  it('Map and Set, with encoded keys and values', () => {
    const map = new Map<unknown, unknown>([
      ['a', 1],
      [2, new Set([undefined, 3n])],
      [{ k: 1 }, new Date(0)],
    ]);
    const encoded = overJson(map);
    expect(encoded).toEqual({
      '@t': 'map',
      entries: [
        ['a', 1],
        [2, { '@t': 'set', values: [{ '@t': 'undefined' }, { '@t': 'bigint', v: '3' }] }],
        [{ k: 1 }, { '@t': 'date', v: '1970-01-01T00:00:00.000Z' }],
      ],
    });
    const decoded = decode(encoded) as Map<unknown, unknown>;
    expect(decoded).toBeInstanceOf(Map);
    expect(decoded.get('a')).toBe(1);
    expect(decoded.get(2)).toEqual(new Set([undefined, 3n]));
    expect([...decoded.keys()][2]).toEqual({ k: 1 });
  });

  it('BigInt, beyond the safe integers', () => {
    const big = 2n ** 80n + 1n;
    expect(overJson(big)).toEqual({ '@t': 'bigint', v: '1208925819614629174706177' });
    expect(decode(overJson({ big }))).toEqual({ big });
  });

  it('class instances by class name; decoded as their fields', () => {
    const encoded = overJson({ at: new Point(1, 2) });
    expect(encoded).toEqual({ at: { '@t': 'instance', class: 'Point', fields: { x: 1, y: 2 } } });
    expect(decode(encoded)).toEqual({ at: { x: 1, y: 2 } });
    // Objects without a prototype are plain data.
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(overJson(bare)).toEqual({ a: 1 });
  });

  it('errors: name, message, and the HTTP status when there is one', () => {
    expect(overJson(new TypeError('bad input'))).toEqual({
      '@t': 'error',
      name: 'TypeError',
      message: 'bad input',
    });
    const encoded = overJson(new HttpError('not found', 404));
    expect(encoded).toEqual({
      '@t': 'error',
      name: 'HttpError',
      message: 'not found',
      status: 404,
    });
    const decoded = decode(encoded) as Error & { status?: number };
    expect(decoded).toBeInstanceOf(Error);
    expect(decoded).toMatchObject({ name: 'HttpError', message: 'not found', status: 404 });
  });

  it('cycles become a cycle marker; a value seen twice (no cycle) is written twice', () => {
    const node: Record<string, unknown> = { name: 'root' };
    node.self = node;
    node.list = [node, { up: node }];
    expect(overJson(node)).toEqual({
      name: 'root',
      self: { '@t': 'cycle' },
      list: [{ '@t': 'cycle' }, { up: { '@t': 'cycle' } }],
    });
    const shared = { id: 1 };
    expect(overJson({ a: shared, b: shared, c: [shared, shared] })).toEqual({
      a: { id: 1 },
      b: { id: 1 },
      c: [{ id: 1 }, { id: 1 }],
    });
    const map = new Map<string, unknown>();
    map.set('me', map);
    expect(overJson(map)).toEqual({ '@t': 'map', entries: [['me', { '@t': 'cycle' }]] });
  });

  it('an object that has an `@t` key is wrapped, so it is not read as a tag', () => {
    const tricky = { '@t': 'date', v: 'not a date', nested: { '@t': 'cycle' } };
    const encoded = overJson(tricky);
    expect(encoded).toEqual({
      '@t': 'object',
      fields: {
        '@t': 'date',
        v: 'not a date',
        nested: { '@t': 'object', fields: { '@t': 'cycle' } },
      },
    });
    expect(decode(encoded)).toEqual(tricky);
    // The same for the fields of a class instance.
    const point = Object.assign(new Point(1, 2), { '@t': 'bigint', v: 'x' });
    expect(overJson(point)).toEqual({
      '@t': 'instance',
      class: 'Point',
      fields: { x: 1, y: 2, '@t': 'bigint', v: 'x' },
    });
    expect(decode(overJson(point))).toEqual({ x: 1, y: 2, '@t': 'bigint', v: 'x' });
  });

  it('functions and symbols are named, never run', () => {
    let calls = 0;
    function handler() {
      calls++;
    }
    expect(overJson({ handler, tag: Symbol('t') })).toEqual({
      handler: { '@t': 'function', name: 'handler' },
      tag: { '@t': 'symbol', description: 't' },
    });
    expect(calls).toBe(0);
  });
});

describe('caps: a visible truncated marker', () => {
  it('depth', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 10; level++) deep = { level, next: deep };
    const encoded = encode(deep, { maxDepth: 3 });
    expect(encoded).toEqual({
      level: 9,
      next: { level: 8, next: { level: 7, next: { '@t': 'truncated', reason: 'depth' } } },
    });
    expect(JSON.stringify(encode(deep))).toContain('bottom'); // default depth 12 suffices
  });

  it('string length: what was omitted, and a preview', () => {
    expect(encode({ s: 'abcdefghij' }, { maxStringLength: 4 })).toEqual({
      s: { '@t': 'truncated', reason: 'length', omitted: 6, preview: 'abcd' },
    });
    expect(encode('abcd', { maxStringLength: 4 })).toBe('abcd');
  });

  it('item count of arrays and sets: the first items, then how many were left out', () => {
    const items = Array.from({ length: 10 }, (_, index) => index);
    expect(encode(items, { maxItems: 3 })).toEqual([
      0,
      1,
      2,
      { '@t': 'truncated', reason: 'length', omitted: 7 },
    ]);
    expect(encode(new Set(items), { maxItems: 3 })).toEqual({
      '@t': 'set',
      values: [0, 1, 2, { '@t': 'truncated', reason: 'length', omitted: 7 }],
    });
  });

  it('item count of maps: the first entries, then a marker of how many were left out', () => {
    const map = new Map(Array.from({ length: 10 }, (_, index) => [`k${index}`, index]));
    const encoded = encode(map, { maxItems: 3 }) as { '@t': 'map'; entries: [Encoded, Encoded][] };
    expect(encoded.entries.slice(0, 3)).toEqual([
      ['k0', 0],
      ['k1', 1],
      ['k2', 2],
    ]);
    const marker = { '@t': 'truncated', reason: 'length', omitted: 7 };
    expect(encoded.entries).toEqual([...encoded.entries.slice(0, 3), [marker, marker]]);
  });

  it('total size of a list: items stop with a size marker', () => {
    const list = Array.from({ length: 100 }, () => 'x'.repeat(10));
    const encoded = encode(list, { maxSize: 100 }) as Encoded[];
    expect(encoded.length).toBeLessThan(20);
    expect(encoded.at(-1)).toEqual({
      '@t': 'truncated',
      reason: 'size',
      omitted: 100 - (encoded.length - 1),
    });
    expect(JSON.stringify(encoded).length).toBeLessThan(400);
  });

  it('total size of an object: fields stop with a size marker, not silently', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 100 }, (_, index) => [`key${index}`, 'x'.repeat(10)]),
    );
    const encoded = encode(wide, { maxSize: 100 }) as Record<string, Encoded>;
    const kept = Object.keys(encoded).filter((field) => field in wide);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(20);
    expect(kept).toEqual(Object.keys(wide).slice(0, kept.length)); // the first fields, in order
    expect(encoded[TRUNCATED_FIELDS]).toEqual({
      '@t': 'truncated',
      reason: 'size',
      omitted: 100 - kept.length,
    });
    // Also on a class instance's fields.
    const instance = Object.assign(new Point(0, 0), wide);
    const fields = (encode(instance, { maxSize: 100 }) as { fields: Record<string, Encoded> })
      .fields;
    expect(fields[TRUNCATED_FIELDS]).toMatchObject({ '@t': 'truncated', reason: 'size' });
  });

  it('total size of a map: entries stop with a size marker', () => {
    const map = new Map(Array.from({ length: 100 }, (_, index) => [index, 'y'.repeat(10)]));
    const encoded = encode(map, { maxSize: 100 }) as { entries: [Encoded, Encoded][] };
    expect(encoded.entries.length).toBeLessThan(20);
    const marker = encoded.entries.at(-1)?.[0];
    expect(marker).toEqual({
      '@t': 'truncated',
      reason: 'size',
      omitted: 100 - (encoded.entries.length - 1),
    });
  });

  it('total size of one long string: cut at the size left, with a size marker and a preview', () => {
    // Under the string cap, but over the size cap: the size cap decides.
    expect(encode('y'.repeat(500), { maxSize: 100 })).toEqual({
      '@t': 'truncated',
      reason: 'size',
      omitted: 400,
      preview: 'y'.repeat(100),
    });
    // The first field takes most of the budget; the next string gets only what is left.
    const encoded = encode({ a: 'a'.repeat(80), b: 'b'.repeat(80) }, { maxSize: 100 }) as Record<
      string,
      Encoded
    >;
    expect(encoded.a).toBe('a'.repeat(80));
    const b = encoded.b as { '@t': string; reason: string; omitted: number; preview: string };
    expect(b).toMatchObject({ '@t': 'truncated', reason: 'size' });
    expect(b.preview.length).toBeGreaterThan(0);
    expect(b.preview.length).toBeLessThan(20);
    expect(b.preview).toBe('b'.repeat(b.preview.length));
    expect(b.omitted + b.preview.length).toBe(80);
    expect(JSON.stringify(encoded).length).toBeLessThan(200);
    // The string cap still applies below the size cap, as a length cut.
    expect(encode('z'.repeat(50), { maxSize: 100, maxStringLength: 20 })).toMatchObject({
      reason: 'length',
      omitted: 30,
    });
  });

  it('the default caps keep an ordinary response whole', () => {
    const response = Array.from({ length: 200 }, (_, id) => ({ id, title: `todo ${id}` }));
    expect(encode(response)).toEqual(response);
  });
});

describe('encodeWhole: a value whole within its limits, or nothing', () => {
  it('gives the same encoding as encode when nothing is cut', () => {
    const value = { id: 1, when: new Date(0), tags: new Set(['a']), nested: { list: [1, 2] } };
    expect(encodeWhole(value, { maxSize: 1024 })).toEqual(encode(value, { maxSize: 1024 }));
  });

  it.each([
    ['a string past the size', { text: 'x'.repeat(200) }, { maxSize: 100 }],
    ['a string past the string length', { text: 'x'.repeat(20) }, { maxStringLength: 10 }],
    ['fields past the size', { a: 'x'.repeat(40), b: 'y'.repeat(40), c: 1 }, { maxSize: 60 }],
    ['a list past its items', { list: [1, 2, 3] }, { maxItems: 2 }],
    [
      'a map past its items',
      {
        map: new Map([
          [1, 1],
          [2, 2],
        ]),
      },
      { maxItems: 1 },
    ],
    ['nesting past the depth', { a: { b: { c: {} } } }, { maxDepth: 2 }],
  ])('is undefined for %s', (_name, value, limits) => {
    expect(encodeWhole(value, limits)).toBeUndefined();
  });
});
