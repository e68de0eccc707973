import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  Entity,
  NetworkError,
  RestEndpoint,
  SchemaError,
  type State,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import type { CannedResponse } from '../helpers/server.js';

const server = serverPerTest();

class User extends Entity {
  id = 0;
  name = 'anonymous';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

class Todo extends Entity {
  id = 0;
  title = 'untitled';
  completed = false;
  author: User | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  static override schema = { author: User };
}

const Todos = () => createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });

/** Everything a store holds but the results' meta (where a failed fetch records its error). */
const tables = ({ entities, entitiesMeta, indexes, endpoints }: State) => ({
  entities,
  entitiesMeta,
  indexes,
  endpoints,
});

describe('entity fields named like members of Object.prototype', () => {
  /** A building whose relations are named like what every object inherits. */
  class Building extends Entity {
    id = 0;
    name = '';
    pk() {
      return this.id;
    }
    static override key = 'Building';
    static override schema = {
      constructor: User,
      toString: User,
      hasOwnProperty: User,
      valueOf: User,
    };
  }
  const Buildings = () =>
    createResource({ path: '/buildings/:id', schema: Building, urlPrefix: server.url });

  it('a relation so named that the response lacks is absent, not the inherited function', async () => {
    const R = Buildings();
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 1, name: 'tower' } });
    const fetched = await controller.fetch(R.get, { id: 1 });
    const read = controller.getResponse(R.get, { id: 1 }, getState()).data;
    for (const building of [fetched, read]) {
      expect(building).toBeInstanceOf(Building);
      expect(building?.name).toBe('tower');
      expect(Object.hasOwn(building ?? {}, 'constructor')).toBe(false);
      expect(building?.constructor).toBe(Building);
    }
    expect(getState().entities.get('Building')?.get('1')).toEqual({ id: 1, name: 'tower' });
  });

  it('a relation so named that the response holds is normalized like any other', async () => {
    const R = Buildings();
    const { controller, getState } = createStore();
    server.respondNext({
      body: { id: 2, name: 'mill', constructor: { id: 7, name: 'Ada' }, toString: 8 },
    });
    await controller.fetch(R.get, { id: 2 });
    const read = controller.getResponse(R.get, { id: 2 }, getState()).data;
    expect(Object.getOwnPropertyDescriptor(read, 'constructor')?.value).toEqual(
      Object.assign(new User(), { id: 7, name: 'Ada' }),
    );
    expect(getState().entities.get('User')?.get('7')).toEqual({ id: 7, name: 'Ada' });
    // A relation given as the pk of an entity that is not stored reads as missing.
    expect(Object.getOwnPropertyDescriptor(read, 'toString')?.value).toBeUndefined();
  });

  it('a relation so named has no default, so a deleted one is dropped rather than hiding its entity', async () => {
    // A class cannot declare a field named `constructor`: the relation is never required.
    const R = Buildings();
    const Users = createResource({ path: '/users/:id', schema: User, urlPrefix: server.url });
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 2, name: 'mill', constructor: { id: 7, name: 'Ada' } } });
    await controller.fetch(R.get, { id: 2 });
    server.respondNext({ status: 204 });
    await controller.fetch(Users.delete, { id: 7 });
    const read = controller.getResponse(R.get, { id: 2 }, getState());
    expect(read.data).toBeInstanceOf(Building);
    expect(read.data?.name).toBe('mill');
    expect(Object.getOwnPropertyDescriptor(read.data, 'constructor')?.value).toBeUndefined();
  });

  it('an object schema member so named that the response lacks is absent', async () => {
    const endpoint = new RestEndpoint({
      path: '/page',
      urlPrefix: server.url,
      schema: { constructor: User, results: [User] },
    });
    const { controller, getState } = createStore();
    server.respondNext({ body: { results: [{ id: 1, name: 'Ada' }], total: 1 } });
    const page = await controller.fetch(endpoint);
    expect(page.results).toEqual([Object.assign(new User(), { id: 1, name: 'Ada' })]);
    expect(Object.hasOwn(page, 'constructor')).toBe(false);
    expect(controller.getResponse(endpoint, getState()).data).toEqual({
      results: page.results,
      total: 1,
    });
  });

  it('plain fields so named are data: stored and read back as they came', async () => {
    const R = Todos();
    const { controller, getState } = createStore();
    server.respondNext({
      rawBody:
        '{"id":3,"constructor":"c","toString":"t","hasOwnProperty":"h","prototype":"p","__proto__":{"polluted":true}}',
    });
    await controller.fetch(R.get, { id: 3 });
    const read = controller.getResponse(R.get, { id: 3 }, getState()).data;
    expect(read).toBeInstanceOf(Todo);
    for (const [field, value] of [
      ['constructor', 'c'],
      ['toString', 't'],
      ['hasOwnProperty', 'h'],
      ['prototype', 'p'],
      ['__proto__', { polluted: true }],
    ] as const)
      expect(Object.getOwnPropertyDescriptor(read, field)?.value).toEqual(value);
    expect(read?.title).toBe('untitled');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('responses read as data-client reads them', () => {
  it('extra fields are kept, missing ones take the defaults, null ones stay null', async () => {
    const R = Todos();
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 1, title: null, extra: { nested: [1] } } });
    await controller.fetch(R.get, { id: 1 });
    const read = controller.getResponse(R.get, { id: 1 }, getState()).data;
    expect(read).toEqual(Object.assign(new Todo(), { id: 1, title: null, extra: { nested: [1] } }));
    expect(read?.completed).toBe(false);
  });

  it('a nested entity that is null or missing reads as null (the default); one given by pk is looked up', async () => {
    const R = Todos();
    const { controller, getState } = createStore();
    server.respondNext({
      body: [
        { id: 1, author: null },
        { id: 2 },
        { id: 3, author: { id: 9, name: 'Ada' } },
        { id: 4, author: 9 },
      ],
    });
    await controller.fetch(R.getList);
    const list = controller.getResponse(R.getList, getState()).data;
    expect(list?.map((todo) => todo.author?.name ?? todo.author)).toEqual([
      null,
      null,
      'Ada',
      'Ada',
    ]);
    expect(list?.[2]?.author).toBe(list?.[3]?.author);
  });

  it('a list with null items leaves them out; an object keyed by id is the list of its values', async () => {
    const R = Todos();
    const { controller, getState } = createStore();
    server.respondNext({ body: [null, { id: 1 }, null, { id: '2' }] });
    await controller.fetch(R.getList, { page: 1 });
    server.respondNext({ body: { 5: { id: 5, title: 'five' }, 6: { id: 6, title: 'six' } } });
    await controller.fetch(R.getList, { page: 2 });
    const ids = (page: number) =>
      controller.getResponse(R.getList, { page }, getState()).data?.map((todo) => todo.id);
    expect(ids(1)).toEqual([1, '2']);
    expect(ids(2)).toEqual([5, 6]);
  });

  it('a content type names JSON in any case (media types are case-insensitive)', async () => {
    const endpoint = new RestEndpoint({ path: '/anything', urlPrefix: server.url });
    server.respondNext({ rawBody: '{"a":[1,2]}', contentType: 'Application/JSON; Charset=UTF-8' });
    expect(await endpoint()).toEqual({ a: [1, 2] });
    server.respondNext({ rawBody: '{"a":', contentType: 'APPLICATION/JSON' });
    await expect(endpoint()).rejects.toMatchObject({
      name: 'NetworkError',
      status: 400,
      message: expect.stringContaining('expected JSON'),
    });
  });
});

describe('responses that cannot be read', () => {
  // Each fails with an error naming what was wrong, and the store keeps everything it held: only
  // the result fetched records the error.
  const cases: [string, CannedResponse, new (...args: never[]) => Error, RegExp][] = [
    ['an empty body', { rawBody: '' }, SchemaError, /Todo expects data but the response was empty/],
    ['204 No Content', { status: 204 }, SchemaError, /Todo expects data/],
    ['JSON null', { rawBody: 'null' }, SchemaError, /Todo expects data/],
    ['a JSON string', { body: 'abc' }, SchemaError, /Todo expects an object but received "abc"/],
    ['a number', { body: 5 }, SchemaError, /Todo expects an object but received 5/],
    ['a list', { body: [{ id: 1 }] }, SchemaError, /Todo expects an object but received \[/],
    [
      'an object without the pk',
      { body: { title: 'x' } },
      SchemaError,
      /lacks the Todo identifier/,
    ],
    ['a pk that is an object', { body: { id: { a: 1 } } }, SchemaError, /a pk must be a string/],
    [
      'a nested entity without its pk',
      { body: { id: 1, author: { name: 'x' } } },
      SchemaError,
      /lacks the User identifier/,
    ],
    [
      'a nested entity that is a boolean',
      { body: { id: 1, author: true } },
      SchemaError,
      /User expects an object but received true/,
    ],
    [
      'text/plain words',
      { body: 'hello', contentType: 'text/plain' },
      NetworkError,
      /expected JSON from .* but received text\/plain: hello/,
    ],
    [
      'an HTML page',
      { body: '<html></html>', contentType: 'text/html' },
      NetworkError,
      /received text\/html: <html>/,
    ],
    [
      'broken JSON under a JSON content type',
      { rawBody: '{"id":' },
      NetworkError,
      /received application\/json: \{"id":/,
    ],
  ];

  it.each(cases)(
    '%s: a clear error, and the store as it was',
    async (_name, answer, type, message) => {
      const R = Todos();
      const { controller, getState } = createStore();
      await controller.setResponse(R.get, { id: 1 }, { id: 1, title: 'kept', author: { id: 2 } });
      await controller.setResponse(R.getList, [{ id: 1 }, { id: 3 }]);
      const before = getState();
      server.respondNext(answer);
      const failure = await controller.fetch(R.get, { id: 1 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(type);
      expect((failure as Error).message).toMatch(message);
      expect((failure as { status?: number }).status).toBe(400);
      const after = getState();
      for (const [name, table] of Object.entries(tables(after)))
        expect(table, `${name} changed`).toBe(
          tables(before)[name as keyof ReturnType<typeof tables>],
        );
      expect(after.meta.get(R.get.key({ id: 1 }))?.error).toBe(failure);
      // A 400 is a hard error: it is shown, over the data held before.
      expect(controller.getError(R.get, { id: 1 }, after)).toBe(failure);
      expect(controller.getResponse(R.getList, after).data?.map((todo) => todo.title)).toEqual([
        'kept',
        'untitled',
      ]);
    },
  );
});
