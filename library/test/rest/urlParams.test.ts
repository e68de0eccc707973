import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AnyQuery, createResource, createStore, RestEndpoint } from '../../src/index.js';
import { Note } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { invalidated, lastRequest, received } from './support.js';

const server = serverPerTest();

const Notes = () =>
  createResource({
    path: '/echo/:id',
    schema: Note,
    urlPrefix: server.url,
    body: {} as Record<string, unknown>,
  });

/** The path segment after `/echo/` of the last request, decoded as a server decodes it. */
function segmentReceived(): string {
  const path = new URL(lastRequest(server).url, server.url).pathname;
  return decodeURIComponent(path.slice('/echo/'.length));
}

/** An object with exactly these own members: `{ __proto__: … }` in a literal sets the prototype. */
const own = <V>(members: [string, V][]): Record<string, V> => Object.fromEntries(members);

/** Names an object finds on its prototype, and text a URL must escape. */
const SPECIAL_TEXT = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'a b',
  'a/b',
  'a?b',
  'a#b',
  '%',
  '%2e',
  '%2E%2E',
  '.%2e',
  '%25',
  '&',
  '=',
  '+',
  'ü/é',
  '日本語',
  '😀',
  '...',
  '550e8400-e29b-41d4-a716-446655440000',
];

describe('path parameters of every shape', () => {
  it.each([0, '0', -1, 1.5, ...SPECIAL_TEXT])(
    '%j reaches the server as given, and the entity it answers is the one read back',
    async (id) => {
      const R = Notes();
      const { controller, getState } = createStore();
      const note = await controller.fetch(R.get, { id });
      expect(segmentReceived()).toBe(String(id));
      expect(note).toBeInstanceOf(Note);
      expect(note.id).toBe(String(id));
      const read = controller.getResponse(R.get, { id }, getState()).data;
      expect(read).toBeInstanceOf(Note);
      expect(read?.id).toBe(String(id));
      // Compared as strings: 5 and "5" are one entity, so a number finds what its text stored.
      if (typeof id === 'number')
        expect(controller.getResponse(R.get, { id: String(id) }, getState()).data).toBe(read);
    },
  );

  it('update, partialUpdate and delete address the same entity for such values', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    const ids = ['__proto__', 'constructor', 'a/b?c#d', '%2e', 'ü b'];
    server.respondNext({ body: ids.map((id) => ({ id, text: 'listed' })) });
    await controller.fetch(R.getList);
    for (const id of ids) {
      await controller.fetch(R.update, { id }, { text: `updated ${id}` });
      expect(segmentReceived()).toBe(id);
      await controller.fetch(R.partialUpdate, { id }, { text: `patched ${id}` });
      expect(segmentReceived()).toBe(id);
      expect(controller.getResponse(R.get, { id }, getState()).data?.text).toBe(`patched ${id}`);
    }
    for (const id of ids.slice(0, 3)) {
      await controller.fetch(R.delete, { id });
      expect(lastRequest(server).method).toBe('DELETE');
      expect(segmentReceived()).toBe(id);
      expect(invalidated(getState(), id, 'Note')).toBe(true);
    }
    const list = controller.getResponse(R.getList, getState()).data;
    expect(list?.map((note) => [note.id, note.text])).toEqual(
      ids.slice(3).map((id) => [id, `patched ${id}`]),
    );
  });

  it('an empty value for a required parameter is refused, naming it, before any request', async () => {
    // `/echo/` is the list, and `/users//todos/1` no resource at all.
    const R = Notes();
    const UserTodos = createResource({
      path: '/users/:userId/todos/:id',
      schema: Note,
      urlPrefix: server.url,
    });
    const { controller } = createStore();
    const refused = (member: string, name: string) =>
      new TypeError(
        `Note.${member}: the URL parameter "${name}" cannot be "" (an empty path segment would address another resource)`,
      );
    await expect(controller.fetch(R.get, { id: '' })).rejects.toThrow(refused('get', 'id'));
    await expect(controller.fetch(R.update, { id: '' }, { text: 'x' })).rejects.toThrow(
      refused('update', 'id'),
    );
    await expect(controller.fetch(R.delete, { id: '' })).rejects.toThrow(refused('delete', 'id'));
    await expect(controller.fetch(UserTodos.get, { userId: '', id: 1 })).rejects.toThrow(
      refused('get', 'userId'),
    );
    expect(received(server)).toEqual([]);
  });

  it('an optional parameter may be empty, as in data-client', () => {
    const endpoint = new RestEndpoint({ path: '/echo/:id?', urlPrefix: server.url });
    expect(endpoint.url({ id: '' })).toBe(`${server.url}/echo/`);
  });

  it('text no URL can carry (a lone surrogate) is refused with a TypeError naming the parameter', async () => {
    const R = Notes();
    const { controller } = createStore();
    for (const id of ['\uD800', 'a\uDC00b']) {
      await expect(controller.fetch(R.get, { id })).rejects.toThrow(
        new TypeError(
          `Note.get: the URL parameter "id" cannot be ${JSON.stringify(id)} (a lone UTF-16 surrogate has no URL encoding)`,
        ),
      );
    }
    // A surrogate pair is one character, and fine.
    await controller.fetch(R.get, { id: '\uD83D\uDE00' });
    expect(segmentReceived()).toBe('😀');
    expect(received(server)).toHaveLength(1);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'a parameter named %s fills the path when given and is missing when not',
    async (name) => {
      const endpoint = new RestEndpoint({ path: `/echo/:${name}`, urlPrefix: server.url });
      const { controller } = createStore();
      const answer = await controller.fetch(endpoint, own([[name, 'given']]) as never);
      expect(segmentReceived()).toBe('given');
      expect(answer).toEqual({ id: 'given', text: 'echo' });
      // An object's prototype has a member of that name; it is not the caller's argument.
      expect(() => endpoint.url({})).toThrow(
        new TypeError(
          `${server.url}/echo/:${name}: missing URL parameter "${name}" for path "/echo/:${name}"`,
        ),
      );
      expect(received(server)).toHaveLength(1);
    },
  );

  it('any string pk round-trips: the server receives it and the entity it answers is read back by it', async () => {
    const R = Notes();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...SPECIAL_TEXT), fc.string({ unit: 'binary', minLength: 1 })),
        async (id) => {
          fc.pre(id !== '.' && id !== '..' && id !== 'undefined');
          const { controller, getState } = createStore();
          const note = await controller.fetch(R.get, { id });
          expect(segmentReceived()).toBe(id);
          expect(note.id).toBe(id);
          expect(controller.getResponse(R.get, { id }, getState()).data?.id).toBe(id);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('search parameters of every shape', () => {
  /** The query the server decoded from the last request, as [name, value] pairs. */
  const queryReceived = () => [...new URL(lastRequest(server).url, server.url).searchParams];

  it('names and values reach the server as given, and the list is stored under them', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    const args = own(SPECIAL_TEXT.map((text, i) => [text, SPECIAL_TEXT.at(-1 - i)]));
    const list = await controller.fetch(R.getList, args);
    const sorted = Object.entries(args).sort(([a], [b]) => (a < b ? -1 : 1));
    expect(queryReceived()).toEqual(sorted);
    expect(list.map((note) => [note.id, note.text])).toEqual(sorted);
    expect(controller.getResponse(R.getList, args, getState()).data).toEqual(list);
    // The same arguments in another order are the same list; another value is another list.
    const reversed = own(Object.entries(args).reverse());
    expect(controller.getResponse(R.getList, reversed, getState()).data).toEqual(list);
    const other = { ...args, constructor: 'another' };
    expect(controller.getResponse(R.getList, other, getState()).data).toBeUndefined();
  });

  it('a nested filter object holding "__proto__" is a list of its own', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    const odd = { filter: own([['__proto__', 'x']]) };
    const empty = { filter: {} };
    await controller.fetch(R.getList, odd);
    expect(queryReceived()).toEqual([['filter[__proto__]', 'x']]);
    await controller.fetch(R.getList, empty);
    expect(queryReceived()).toEqual([]);
    const ids = (args: AnyQuery) =>
      controller.getResponse(R.getList, args, getState()).data?.map((note) => note.id);
    expect(ids(odd)).toEqual(['filter[__proto__]']);
    expect(ids(empty)).toEqual([]);
  });

  it('nested values compare as text too: arguments that make one URL make one list', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    const numbers = { ids: [1, 2], range: { from: 0, open: true } };
    const texts = { ids: ['1', '2'], range: { open: 'true', from: '0' } };
    server.respondNext({ body: [] });
    await controller.fetch(R.getList, numbers);
    server.respondNext({ body: [] });
    await controller.fetch(R.getList, texts);
    const [first, second] = server.requests.map((request) => request.url);
    expect(first).toBe('/echo?ids=1&ids=2&range%5Bfrom%5D=0&range%5Bopen%5D=true');
    expect(second).toBe(first);
    // A push whose body carries the values as numbers reaches the list, read either way.
    await controller.fetch(R.getList.push, { id: 'n', ...numbers });
    for (const args of [numbers, texts])
      expect(
        controller.getResponse(R.getList, args, getState()).data?.map((note) => note.id),
      ).toEqual(['n']);
  });

  it('a push reaches the lists whose filter values equal its own as text, whatever their names', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    const filters = [{}, { owner: 5 }, { owner: '5' }, { owner: '6' }, own([['constructor', 'x']])];
    for (const filter of filters) {
      server.respondNext({ body: [] });
      await controller.fetch(R.getList, filter);
    }
    await controller.fetch(R.getList.push, { id: 'n1', owner: 5, text: 'five' });
    await controller.fetch(
      R.getList.push,
      own([
        ['id', 'n2'],
        ['constructor', 'x'],
      ]),
    );
    const ids = (args: AnyQuery) =>
      controller.getResponse(R.getList, args, getState()).data?.map((note) => note.id);
    expect(ids({})).toEqual(['n1', 'n2']);
    // `{ owner: 5 }` and `{ owner: '5' }` are one list (one URL, one row).
    expect(ids({ owner: 5 })).toEqual(['n1']);
    expect(ids({ owner: '5' })).toEqual(['n1']);
    expect(ids({ owner: '6' })).toEqual([]);
    expect(ids(own([['constructor', 'x']]))).toEqual(['n2']);
  });
});
