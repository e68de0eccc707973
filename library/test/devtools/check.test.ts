import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  anyValue,
  array,
  boolean,
  both,
  type Check,
  custom,
  documented,
  guard,
  integer,
  lenient,
  literal,
  named,
  nullable,
  number,
  object,
  optional,
  pathText,
  problemText,
  record,
  refine,
  string,
  variants,
} from '../../src/devtools/protocol/check.js';

/** What a check says of a value, in words; undefined when it accepts it. */
const said = (check: Check<unknown>, value: unknown) => {
  const problem = check.problem(value);
  return problem === undefined ? undefined : problemText(problem);
};

/** Holds a check's JSON Schema to the check: both accept or both refuse each value. */
function schemaAgrees(check: Check<unknown>, values: unknown[]) {
  const validate = new Ajv2020({ strict: false }).compile(check.jsonSchema());
  for (const value of values)
    expect([value, validate(value)]).toEqual([value, check.accepts(value)]);
}

describe('leaves', () => {
  it.each([
    [string(), ['', 'a', '__proto__'], [1, null, undefined, ['a'], {}], 'a string'],
    [
      string({ nonEmpty: true, max: 3 }),
      ['a', 'abc'],
      ['', 'abcd', 3],
      'a non-empty string of at most 3 characters',
    ],
    [number(), [0, -1.5, Number.NaN, Number.POSITIVE_INFINITY], ['1', null, 1n], 'a number'],
    [
      number({ finite: true, above: 0 }),
      [0.5, 1e9],
      [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5'],
      'a finite number above 0',
    ],
    [
      integer({ min: 1, max: 10 }),
      [1, 10],
      [0, 11, 1.5, '3', 2 ** 53, Number.NaN],
      'a whole number from 1 to 10',
    ],
    [integer({ min: 0 }), [0, 2 ** 53 - 1], [-1, 2 ** 53], 'a whole number from 0'],
    [boolean(), [true, false], [0, 'true', null], 'a boolean'],
    [literal('push'), ['push'], ['Push', 'pus', 1, undefined], '"push"'],
    [literal(4, true), [4, true], ['4', 1, false], 'one of 4, true'],
    [
      custom<string>('an even-length text', (value) => String(value).length % 2 === 0),
      ['ab', 12],
      ['a', 1],
      'an even-length text',
    ],
  ] as const)(
    '%#: accepts its values and refuses others, saying what they must be',
    (check, good, bad, expected) => {
      for (const value of good) expect(check.problem(value)).toBeUndefined();
      for (const value of bad) expect(check.problem(value)).toEqual({ path: [], expected });
      expect(check.expected).toBe(expected);
    },
  );

  it('anyValue accepts anything, undefined included', () => {
    for (const value of [undefined, null, 1, 'a', JSON.parse('{"__proto__": 1}'), [[]], new Map()])
      expect(anyValue().accepts(value)).toBe(true);
  });

  it('write JSON Schemas that accept what the checks accept', () => {
    schemaAgrees(string({ nonEmpty: true, max: 3 }), ['', 'a', 'abc', 'abcd', 3, null]);
    schemaAgrees(number({ above: 0 }), [0, 1, -1, '1']);
    schemaAgrees(integer({ min: 1, max: 10 }), [0, 1, 10, 11, 1.5, '3']);
    schemaAgrees(boolean(), [true, 0]);
    schemaAgrees(literal('a'), ['a', 'b']);
    schemaAgrees(literal('a', 2), ['a', 2, '2']);
  });
});

describe('optional, nullable, lenient', () => {
  it('optional: absent or undefined, else what its check accepts', () => {
    const check = object({ name: optional(string()) });
    expect(check.accepts({})).toBe(true);
    expect(check.accepts({ name: undefined })).toBe(true);
    expect(check.accepts({ name: 'a' })).toBe(true);
    expect(said(check, { name: null })).toBe('name: expected a string');
  });

  it('nullable: null, else what its check accepts', () => {
    const check = nullable(integer({ min: 0 }));
    expect(check.accepts(null)).toBe(true);
    expect(check.accepts(3)).toBe(true);
    expect(said(check, undefined)).toBe('expected a whole number from 0');
    expect(check.expected).toBe('null, or a whole number from 0');
    schemaAgrees(check, [null, 3, -1, undefined, 'x']);
  });

  it('lenient: accepts any value, and its JSON Schema still says the type', () => {
    const check = lenient(string());
    for (const value of [42, { href: 'x' }, 'GET']) expect(check.accepts(value)).toBe(true);
    expect(check.jsonSchema()).toEqual({ type: 'string' });
  });
});

describe('array', () => {
  it('names the index of the first wrong item', () => {
    const check = array(string());
    expect(check.accepts([])).toBe(true);
    expect(check.accepts(['a', 'b'])).toBe(true);
    expect(said(check, ['a', 2])).toBe('[1]: expected a string');
    expect(said(check, { 0: 'a', length: 1 })).toBe('expected a list');
    expect(said(check, 'ab')).toBe('expected a list');
  });

  it('refuses a hole where an item must be (a sparse list is no JSON list)', () => {
    const sparse = ['a'];
    sparse[2] = 'c';
    expect(said(array(string()), sparse)).toBe('[1]: expected a string');
  });

  it('refuses more than `max` items', () => {
    const check = array(boolean(), { max: 2 });
    expect(check.accepts([true, false])).toBe(true);
    expect(said(check, [true, false, true])).toBe('expected a list of at most 2 items');
    schemaAgrees(check, [[], [true], [true, 1], [true, true, true]]);
  });
});

describe('record', () => {
  it('checks every own field, whatever its name, and names the wrong one', () => {
    const check = record(integer({ min: 0 }));
    const own = JSON.parse('{"__proto__": 1, "constructor": 2, "toString": 3}');
    expect(check.accepts(own)).toBe(true);
    expect(said(check, JSON.parse('{"a": 1, "__proto__": "x"}'))).toBe(
      '__proto__: expected a whole number from 0',
    );
    expect(said(check, { 'GET /todos': -1 })).toBe(
      '["GET /todos"]: expected a whole number from 0',
    );
    // Fields it does not own are not its fields.
    expect(check.accepts(Object.create({ inherited: 'x' }))).toBe(true);
    for (const value of [null, [], 'a', undefined])
      expect(said(check, value)).toBe('expected an object');
    schemaAgrees(check, [{}, { a: 1 }, { a: -1 }, [], null]);
  });
});

describe('object', () => {
  const todo = object({ id: string(), done: boolean(), tags: optional(array(string())) });

  it('checks each described field, leaves others alone, and names the path of the wrong part', () => {
    expect(todo.accepts({ id: '1', done: false })).toBe(true);
    expect(todo.accepts({ id: '1', done: true, tags: ['a'], extra: new Map() })).toBe(true);
    expect(said(todo, { done: false })).toBe('id: expected a string');
    expect(said(todo, { id: '1', done: false, tags: ['a', 1] })).toBe('tags[1]: expected a string');
    for (const value of [null, ['1'], 'x']) expect(said(todo, value)).toBe('expected an object');
  });

  it('reads no field from the prototype: a description may not name an inherited one', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(() => object({ [name]: string() })).toThrow(
        `a described field may not be named "${name}": objects inherit it`,
      );
  });

  it('writes a JSON Schema with its required and optional fields', () => {
    expect(todo.jsonSchema()).toEqual({
      type: 'object',
      required: ['id', 'done'],
      properties: {
        id: { type: 'string' },
        done: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
      },
    });
    schemaAgrees(todo, [
      { id: '1', done: true },
      { id: '1', done: true, tags: [] },
      { id: 1, done: true },
      { id: '1' },
      { id: '1', done: true, tags: [1] },
    ]);
  });
});

describe('variants', () => {
  const added = object({ type: literal('added'), pks: array(string()) });
  const reset = object({ type: literal('reset') });
  const closed = variants('type', { added, reset });

  it('checks an object by the member its tag names', () => {
    expect(closed.accepts({ type: 'added', pks: ['1'] })).toBe(true);
    expect(closed.accepts({ type: 'reset' })).toBe(true);
    expect(said(closed, { type: 'added', pks: [1] })).toBe('pks[0]: expected a string');
  });

  it('refuses a tag no member has, naming the tags it knows, whatever the tag is', () => {
    for (const type of ['removed', '__proto__', 'constructor', 'toString', undefined, 1])
      expect(said(closed, { type })).toBe('type: expected one of "added", "reset"');
    expect(said(closed, null)).toBe('expected an object');
  });

  it('with `otherwise`, checks a value of any other tag by it', () => {
    const open = variants('type', { added, reset }, object({ type: string() }));
    expect(open.accepts({ type: 'moved', whatever: 1 })).toBe(true);
    expect(open.accepts({ type: '__proto__' })).toBe(true);
    expect(said(open, { type: 5 })).toBe('type: expected a string');
    // A known tag is still checked by its own member.
    expect(said(open, { type: 'added' })).toBe('pks: expected a list');
  });

  it('writes a JSON Schema of its members', () => {
    schemaAgrees(closed, [{ type: 'added', pks: [] }, { type: 'reset' }, { type: 'added' }, {}]);
  });
});

describe('both, refine, named, documented', () => {
  it('both: runs the second check only on what the first accepts', () => {
    const seen: unknown[] = [];
    const second = custom<unknown>('seen', (value) => {
      seen.push(value);
      return true;
    });
    const check = both(string({ max: 2 }), second);
    expect(said(check, 'abc')).toBe('expected a string of at most 2 characters');
    expect(seen).toEqual([]);
    expect(check.accepts('ab')).toBe(true);
    expect(seen).toEqual(['ab']);
    schemaAgrees(both(string(), string({ max: 2 })), ['ab', 'abc', 1]);
  });

  it('refine: a rule across fields, said when it does not hold', () => {
    const chunk = refine(
      object({ index: integer({ min: 0 }), count: integer({ min: 0 }) }),
      'a chunk whose index is below its count',
      ({ index, count }) => index < count,
    );
    expect(chunk.accepts({ index: 0, count: 1 })).toBe(true);
    expect(said(chunk, { index: 1, count: 1 })).toBe(
      'expected a chunk whose index is below its count',
    );
    expect(said(chunk, { index: -1, count: 1 })).toBe('index: expected a whole number from 0');
  });

  it('named: says its name when the value is wrong, and the path when a part of it is', () => {
    const row = named('an entity row', object({ table: string(), pk: string() }));
    expect(said(row, 5)).toBe('expected an entity row');
    expect(said(row, { table: 'Todo', pk: 1 })).toBe('pk: expected a string');
    expect(row.accepts({ table: 'Todo', pk: '1' })).toBe(true);
  });

  it('documented: says what the value means in its JSON Schema, after what its check says', () => {
    const check = documented(
      custom('a value', () => true, { description: 'any value' }),
      'The body',
    );
    expect(check.jsonSchema()).toEqual({ description: 'The body: any value' });
    expect(documented(string(), 'A name').jsonSchema()).toEqual({
      type: 'string',
      description: 'A name',
    });
  });
});

describe('paths and guards', () => {
  it('writes paths as code would', () => {
    expect(pathText(['effects', 3, 'pks', 0])).toBe('effects[3].pks[0]');
    expect(pathText(['polling', 'GET /todos', 'x'])).toBe('polling["GET /todos"].x');
    expect(pathText([0, '', '__proto__', '$a_1'])).toBe('[0][""].__proto__.$a_1');
    expect(problemText({ path: [], expected: 'a list' })).toBe('expected a list');
  });

  it('a guard answers false when reading the value throws, and narrows when it answers true', () => {
    const isTodo = guard(object({ id: string() }));
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(isTodo(trap)).toBe(false);
    const value: unknown = { id: '1' };
    expect(isTodo(value) && value.id).toBe('1');
  });
});
