import { describe, expect, it } from 'vitest';
import { createResource, createStore, Entity, RestEndpoint } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, lastRequest, Todo } from './support.js';

/**
 * Search and URL parameters that are not plain JSON values: sent, and keyed, in the form JSON
 * gives them; refused by name when JSON has none.
 */

const server = serverPerTest({ todos: FOUR_TODOS });

/** `/todos/:id` with search parameters of any type. */
function todoResource() {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    searchParams: {} as Record<string, unknown>,
  });
}

/** What `GET /echo` answers: one `{ id: name, text: value }` per query parameter received. */
class Param extends Entity {
  id = '';
  text = '';
  pk() {
    return `${this.id}=${this.text}`;
  }
  static override key = 'Param';
}

/** `GET /echo`, to see the query as the server decodes it. */
function echo() {
  return new RestEndpoint({
    path: '/echo',
    urlPrefix: server.url,
    schema: [Param],
    searchParams: {} as Record<string, unknown>,
  });
}

/** The query of a URL as name=value pairs, decoded. */
function queryOf(url: string): string[] {
  return [...new URL(url).searchParams].map(([name, value]) => `${name}=${value}`);
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('Dates', () => {
  it('two Dates make two keys and two URLs, each carrying the Date as ISO 8601', () => {
    const { getList } = todoResource();
    const early = getList.url({ since: new Date(1000) });
    const late = getList.url({ since: new Date(1500) });
    expect(queryOf(early)).toEqual(['since=1970-01-01T00:00:01.000Z']);
    expect(queryOf(late)).toEqual(['since=1970-01-01T00:00:01.500Z']);
    expect(getList.key({ since: new Date(1000) })).not.toBe(getList.key({ since: new Date(1500) }));
    expect(getList.key({ since: new Date(1000) })).toBe(getList.key({ since: new Date(1000) }));
  });

  it('reach the server as ISO 8601 text', async () => {
    const params = await echo()({ since: new Date(Date.UTC(2024, 1, 29, 12)) });
    expect(params).toEqual([{ id: 'since', text: '2024-02-29T12:00:00.000Z' }]);
  });

  it('are the same argument as their ISO 8601 text: one key', () => {
    const { getList } = todoResource();
    expect(getList.key({ since: new Date(1000) })).toBe(
      getList.key({ since: '1970-01-01T00:00:01.000Z' }),
    );
  });

  it('nested in lists and objects are ISO 8601 too, a list of them repeating its name', () => {
    const { getList } = todoResource();
    expect(queryOf(getList.url({ days: [new Date(0), new Date(86_400_000)] }))).toEqual([
      'days=1970-01-01T00:00:00.000Z',
      'days=1970-01-02T00:00:00.000Z',
    ]);
    expect(queryOf(getList.url({ range: { from: new Date(0), to: undefined } }))).toEqual([
      'range[from]=1970-01-01T00:00:00.000Z',
    ]);
  });

  it('an invalid Date is refused, by name, before any request', async () => {
    const TodoResource = todoResource();
    const { controller } = createStore();
    await expect(
      controller.fetch(TodoResource.getList, { since: new Date('not a date') }),
    ).rejects.toThrow(
      new TypeError(
        'Todo.getList: the search parameter "since" is an invalid Date, which has no JSON form',
      ),
    );
    expect(() => TodoResource.getList.url({ range: { from: new Date(Number.NaN) } })).toThrow(
      'Todo.getList: the search parameter "range[from]" is an invalid Date, which has no JSON form',
    );
    expect(server.requests).toEqual([]);
  });
});

describe('Sets and Maps', () => {
  it('a Set is sent as a list, as an array is', () => {
    const { getList } = todoResource();
    expect(getList.url({ tag: new Set(['a', 'b']) })).toBe(getList.url({ tag: ['a', 'b'] }));
    expect(queryOf(getList.url({ tag: new Set(['a', 'b']) }))).toEqual(['tag=a', 'tag=b']);
    expect(getList.key({ tag: new Set(['a']) })).not.toBe(getList.key({ tag: new Set(['b']) }));
    expect(queryOf(getList.url({ tag: new Set() }))).toEqual(['tag=']);
  });

  it('a Map is sent as an object, as a plain object is', () => {
    const { getList } = todoResource();
    const filter = new Map<string, unknown>([
      ['done', true],
      ['owner', 'ada'],
    ]);
    expect(getList.url({ filter })).toBe(getList.url({ filter: { owner: 'ada', done: true } }));
    expect(queryOf(getList.url({ filter }))).toEqual(['filter[done]=true', 'filter[owner]=ada']);
  });

  it('nested, with undefined members left out and a __proto__ key kept as a member', () => {
    const { getList } = todoResource();
    const filter = new Map<string | number, unknown>([
      ['__proto__', 1],
      [2, new Set([new Date(0), undefined])],
      ['skipped', undefined],
    ]);
    expect(queryOf(getList.url({ filter }))).toEqual([
      'filter[2]=1970-01-01T00:00:00.000Z',
      'filter[__proto__]=1',
    ]);
    expect(queryOf(getList.url({ tags: new Set([new Set(['a']), { b: 1 }]) }))).toEqual([
      'tags[0]=a',
      'tags[1][b]=1',
    ]);
  });

  it('a Map whose key is not text or a number is refused, by name', () => {
    const { getList } = todoResource();
    expect(() => getList.url({ filter: new Map([[{}, 1]]) })).toThrow(
      'Todo.getList: the search parameter "filter" is a Map with a key that is not text or a number, which has no JSON form',
    );
  });

  it('a Set that holds itself is refused, naming where', () => {
    const { getList } = todoResource();
    const tags = new Set<unknown>(['a']);
    tags.add(tags);
    expect(() => getList.url({ tags })).toThrow(
      'Todo.getList: the search parameter "tags[1]" holds itself',
    );
  });

  it('lists of different Sets are different lists in the store', async () => {
    const TodoResource = todoResource();
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { userId: new Set([1]) });
    await controller.fetch(TodoResource.getList, { userId: new Set([2]) });
    const titles = (userId: number) =>
      controller
        .getResponse(TodoResource.getList, { userId: new Set([userId]) }, getState())
        .data?.map((todo) => todo.title);
    expect(titles(1)).toEqual(['write tests', 'fix bugs']);
    expect(titles(2)).toEqual(['ship', 'celebrate']);
    expect(lastRequest(server).url).toBe('/todos?userId=2');
  });
});

describe('values with a toJSON', () => {
  it('are sent as what toJSON returns (a URL as its address)', () => {
    const { getList } = todoResource();
    class Money {
      constructor(readonly cents: number) {}
      toJSON() {
        return { cents: this.cents, currency: 'EUR' };
      }
    }
    expect(queryOf(getList.url({ from: new URL('https://example.com/a b') }))).toEqual([
      'from=https://example.com/a%20b',
    ]);
    expect(queryOf(getList.url({ price: new Money(250) }))).toEqual([
      'price[cents]=250',
      'price[currency]=EUR',
    ]);
  });

  it('bigints are their digits, boxed values their value', () => {
    const { getList } = todoResource();
    expect(queryOf(getList.url({ big: 2n ** 64n, flag: Object(true) }))).toEqual([
      'big=18446744073709551616',
      'flag=true',
    ]);
  });
});

describe('values with no JSON form are refused, naming the argument, before any request', () => {
  it.each([
    [
      'an instance of a class without toJSON',
      new Point(1, 2),
      'is a Point, which has no JSON form',
    ],
    ['a function', () => 1, 'is a function, which has no JSON form'],
    ['a symbol', Symbol('s'), 'is a symbol, which has no JSON form'],
    ['NaN', Number.NaN, 'is NaN, which has no JSON form'],
    ['Infinity', Number.POSITIVE_INFINITY, 'is Infinity, which has no JSON form'],
    ['a RegExp', /a/, 'is a RegExp, which has no JSON form'],
  ])('%s', async (_what, value, why) => {
    const TodoResource = todoResource();
    const { controller } = createStore();
    await expect(controller.fetch(TodoResource.getList, { near: value })).rejects.toThrow(
      new TypeError(`Todo.getList: the search parameter "near" ${why}`),
    );
    expect(() => TodoResource.getList.url({ at: [{ near: value }] })).toThrow(
      `Todo.getList: the search parameter "at[0][near]" ${why}`,
    );
    expect(server.requests).toEqual([]);
  });
});

describe('URL parameters', () => {
  it('a Date is its ISO 8601 text in the path (typed as data-client types it: text or a number)', async () => {
    const day = new RestEndpoint({ path: '/echo/:id', urlPrefix: server.url });
    const at = (ms: number) => new Date(ms) as unknown as string;
    expect(await day({ id: at(0) })).toEqual({ id: '1970-01-01T00:00:00.000Z', text: 'echo' });
    expect(day.key({ id: at(0) })).not.toBe(day.key({ id: at(1) }));
  });

  it.each([
    ['an invalid Date', new Date(Number.NaN), 'is an invalid Date, which has no JSON form'],
    [
      'an instance of a class without toJSON',
      new Point(1, 2),
      'is a Point, which has no JSON form',
    ],
    ['a function', () => 1, 'is a function, which has no JSON form'],
    ['NaN', Number.NaN, 'is NaN, which has no JSON form'],
  ])('%s is refused, by name', (_what, value, why) => {
    const { get } = todoResource();
    expect(() => get.url({ id: value as never })).toThrow(
      new TypeError(`Todo.get: the URL parameter "id" ${why}`),
    );
  });

  it('a Set, a Map or an object is refused as a list or an object is', () => {
    const { get } = todoResource();
    expect(() => get.url({ id: new Set([1]) as never })).toThrow(
      'Todo.get: the URL parameter "id" must be a string or a number, not [1]',
    );
    expect(() => get.url({ id: new Map([['a', 1]]) as never })).toThrow(
      'Todo.get: the URL parameter "id" must be a string or a number, not {"a":1}',
    );
  });
});
