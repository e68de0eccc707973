import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createStore,
  isInvalid,
  NetworkError,
  type State,
  schema,
  stateFromJSON,
  stateToJSON,
} from '../../src/index.js';
import { MemberList } from '../../src/normalize/memberList.js';
import { holdingRows } from '../../src/normalize/rowsHolding.js';
import { endpoint, feedItem, IndexedUser, Note, plain } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { todoResource } from '../react/support.js';

const server = serverPerTest();
afterEach(() => {
  vi.restoreAllMocks();
});

const Feed = endpoint('feed', new schema.Collection([feedItem]));
const RemoveFeedItem = endpoint('removeFeedItem', new schema.Invalidate(feedItem));
const UserByName = endpoint('user', IndexedUser, { dataExpiryLength: Number.POSITIVE_INFINITY });

/** A store holding some of everything a state can: lists, deletes, indexes, errors, expiries. */
async function storeOfEverything() {
  const Todos = todoResource(server.url);
  const store = createStore();
  const { controller } = store;
  await controller.fetch(Todos.getList, { userId: 1 });
  await controller.fetch(Todos.getList, {});
  await controller.fetch(Todos.getList.unshift, { userId: 1 }, { title: 'first', userId: 1 });
  await controller.fetch(Todos.delete, { id: 2 });
  server.failNext(404);
  await expect(controller.fetch(Todos.get, { id: 99 })).rejects.toThrow(NetworkError);
  await controller.fetch(Todos.get, { id: 3 });
  await controller.invalidate(Todos.get, { id: 3 });
  controller.setResponse(UserByName, { username: 'ada' }, { id: 1, name: 'Ada', username: 'ada' });
  controller.setResponse(Feed, {}, [
    { id: 1, type: 'post', title: 'hello' },
    { id: 1, type: 'link', url: 'https://example.com' },
  ]);
  return { store, Todos };
}

/** Which collection rows hold each entity (the order they were noted in aside). */
function holders(state: State) {
  const found: string[] = [];
  for (const [entity, table] of state.rowsHolding)
    for (const [pk, rows] of table)
      for (const { collection, row, union } of holdingRows(rows))
        found.push(`${entity} ${pk} in ${collection} ${row}${union ? ' (union)' : ''}`);
  return found.sort();
}

describe('a state as JSON', () => {
  it('comes back whole: rows, INVALID markers, lists in order, results, meta, expiries, errors, indexes', async () => {
    const { store, Todos } = await storeOfEverything();
    const state = store.getState();
    const json = JSON.stringify(stateToJSON(state));
    const restored = stateFromJSON(json);

    expect(plain(restored.entities)).toEqual(plain(state.entities));
    expect(isInvalid(restored.entities.get('Todo')?.get('2'))).toBe(true);
    const list = restored.entities.get('[Todo]')?.get('{"userId":"1"}');
    expect(list).toBeInstanceOf(MemberList);
    expect((list as MemberList).toArray()).toEqual(['4', '1']);
    expect(plain(restored.entitiesMeta)).toEqual(plain(state.entitiesMeta));
    expect(plain(restored.indexes)).toEqual(plain(state.indexes));
    expect(plain(restored.endpoints)).toEqual(plain(state.endpoints));
    expect(restored.lastReset).toBe(state.lastReset);
    // A store made from it numbers its requests after everything the state holds.
    expect(state.sequence).toBeGreaterThan(0);
    expect(restored.sequence).toBe(state.sequence);
    expect(restored.optimistic).toEqual([]);

    const userKey = UserByName.key({ username: 'ada' });
    expect(restored.meta.get(userKey)).toEqual(state.meta.get(userKey));
    expect(restored.meta.get(userKey)?.expiresAt).toBe(Number.POSITIVE_INFINITY);
    expect(restored.meta.get(Todos.get.key({ id: 3 }))?.invalidated).toBe(true);
    const failed = restored.meta.get(Todos.get.key({ id: 99 }));
    const original = state.meta.get(Todos.get.key({ id: 99 }));
    expect(failed?.error).toBeInstanceOf(Error);
    expect(failed?.error).toMatchObject({
      name: 'NetworkError',
      status: 404,
      message: (original?.error as Error | undefined)?.message,
      body: { error: 'failing on purpose with 404' },
    });
    expect({ ...failed, error: undefined }).toEqual({ ...original, error: undefined });

    // Indexes made again from the lists: the same rows hold the same entities.
    expect(holders(restored)).toEqual(holders(state));
    expect(holders(restored)).toContain('Link 1 in [Post;Link] {} (union)');
    // And the store reads it as the one it came from.
    const reader = createStore({ initialState: restored }).controller;
    for (const [endpointOf, args] of [
      [Todos.getList, { userId: 1 }],
      [UserByName, { username: 'ada' }],
      [Feed, {}],
    ] as const) {
      const before = store.controller.getResponse(endpointOf as never, args, state);
      const after = reader.getResponse(endpointOf as never, args, restored);
      expect(plain(after.data)).toEqual(plain(before.data));
      expect(after.expiryStatus).toBe(before.expiryStatus);
      expect(after.expiresAt).toBe(before.expiresAt);
    }
    expect(reader.get(IndexedUser, { username: 'ada' }, restored)?.name).toBe('Ada');
  });

  it('a store started from it writes as the original does: a push reaches the lists it matches, a delete leaves every list', async () => {
    const { store, Todos } = await storeOfEverything();
    const copy = createStore({
      initialState: stateFromJSON(JSON.stringify(stateToJSON(store.getState()))),
    });
    // Both write at one time, so that their meta can be compared too.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    for (const { controller } of [store, copy]) {
      controller.setResponse(
        Todos.getList.push,
        { userId: 1 },
        { title: 'pushed' },
        {
          id: 7,
          title: 'pushed',
          completed: false,
          userId: 1,
        },
      );
      controller.setResponse(Todos.delete, { id: 1 }, { id: 1 });
      controller.setResponse(RemoveFeedItem, { id: 1, type: 'link' }, { id: 1, type: 'link' });
    }
    const lists = (state: State) => plain(state.entities.get('[Todo]'));
    expect(lists(copy.getState())).toEqual({ '{"userId":"1"}': ['4', '7'], '{}': ['4', '3', '7'] });
    expect(plain(copy.getState().entities.get('[Post;Link]'))).toEqual({ '{}': ['["Post","1"]'] });
    expect(lists(copy.getState())).toEqual(lists(store.getState()));
    expect(stateToJSON(copy.getState())).toEqual(stateToJSON(store.getState()));
    expect(holders(copy.getState())).toEqual(holders(store.getState()));
  });

  it('keys and pks named "__proto__" stay data, and nothing reaches Object.prototype', () => {
    const Notes = endpoint('notes', new schema.Collection([Note]));
    const store = createStore();
    const args = JSON.parse('{"__proto__":"x"}');
    const response = JSON.parse('[{"id":"__proto__","text":"a","__proto__":{"polluted":true}}]');
    store.controller.setResponse(Notes, args, response);
    const text = JSON.stringify(stateToJSON(store.getState()));
    const restored = stateFromJSON(text);
    const row = restored.entities.get('Note')?.get('__proto__') as object;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true });
    const collectionRow = restored.entities.get('[Note]')?.get('{"__proto__":"x"}');
    expect((collectionRow as MemberList).toArray()).toEqual(['__proto__']);
    expect(restored.endpoints.get(Notes.key(args))).toEqual(
      store.getState().endpoints.get(Notes.key(args)),
    );
    expect(holders(restored)).toEqual(['Note __proto__ in [Note] {"__proto__":"x"}']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('pending optimistic updates are refused, by name: their endpoints are code', async () => {
    const Todos = todoResource(server.url);
    const store = createStore();
    server.setDelay(50);
    const Optimistic = Todos.partialUpdate.extend({
      getOptimisticResponse: (_snap: unknown, params: { id: number }, body: object) => ({
        ...params,
        ...body,
      }),
    });
    const pending = store.controller.fetch(Optimistic, { id: 1 }, { title: 'soon' });
    expect(() => stateToJSON(store.getState())).toThrow(
      'stateToJSON: the state has 1 optimistic update(s) pending',
    );
    await pending;
    expect(stateToJSON(store.getState()).entities.Todo?.['1']).toMatchObject({ title: 'soon' });
  });
});

describe('reading a state as JSON refuses, naming what is wrong', () => {
  /** A valid JSON state with `change` made to it (any change: what is read is unchecked text). */
  function withChange(change: (json: Record<string, any>) => void): string {
    const store = createStore();
    store.controller.setResponse(
      UserByName,
      { username: 'ada' },
      { id: 1, name: 'Ada', username: 'ada' },
    );
    store.controller.setResponse(endpoint('todos', new schema.Collection([Note])), {}, [
      { id: 'a', text: 'one' },
    ]);
    const json = JSON.parse(JSON.stringify(stateToJSON(store.getState())));
    change(json);
    return JSON.stringify(json);
  }
  const userKey = UserByName.key({ username: 'ada' });

  it.each([
    ['text that is not JSON', '{"format":', /^stateFromJSON: the text is not JSON \(/],
    [
      'another value',
      '[1]',
      'stateFromJSON: the value is not a RestLens state written by stateToJSON(state): its "format" must be "restlens-state"',
    ],
    [
      'a state written by JSON.stringify(state)',
      JSON.stringify(createStore().getState()),
      'its "format" must be "restlens-state"',
    ],
    [
      'a newer version',
      withChange((json) => {
        json.version = 2;
      }),
      'stateFromJSON: "version" is 2, written by a newer RestLens; this one reads version 1',
    ],
    [
      'a row that is no object',
      withChange((json) => {
        json.entities.User = { 1: 5 };
      }),
      'stateFromJSON: entities["User"]["1"] must be an entity row (an object), not 5',
    ],
    [
      'a table that is no object',
      withChange((json) => {
        json.entities.User = [1];
      }),
      'stateFromJSON: entities["User"] must be an object, not [1]',
    ],
    [
      'a list with a pk twice',
      withChange((json) => {
        json.collections['[Note]'].rows['{}'] = ['a', 'a'];
      }),
      'stateFromJSON: collections["[Note]"].rows["{}"] lists a pk more than once',
    ],
    [
      'a list of numbers',
      withChange((json) => {
        json.collections['[Note]'].rows['{}'] = [1];
      }),
      'stateFromJSON: collections["[Note]"].rows["{}"] must be a list of pks (strings), not [1]',
    ],
    [
      'a collection not named as one',
      withChange((json) => {
        json.collections.Note = json.collections['[Note]'];
      }),
      'stateFromJSON: collections["Note"] is not named as a collection of an entity type, e.g. "[Todo]"',
    ],
    [
      'a collection that is also an entity table',
      withChange((json) => {
        json.entities['[Note]'] = {};
      }),
      'stateFromJSON: collections["[Note]"] is also an entity table',
    ],
    [
      'a union list of plain pks',
      withChange((json) => {
        json.collections['[Note]'].union = true;
      }),
      'stateFromJSON: collections["[Note]"].rows["{}"] holds "a", which is not a union reference such as ["Post","5"]',
    ],
    [
      'a time that is text',
      withChange((json) => {
        json.meta[userKey].expiresAt = 'soon';
      }),
      `stateFromJSON: meta[${JSON.stringify(userKey)}].expiresAt must be a number, not "soon"`,
    ],
    [
      'an unknown error policy',
      withChange((json) => {
        json.meta[userKey].errorPolicy = 'maybe';
      }),
      `stateFromJSON: meta[${JSON.stringify(userKey)}].errorPolicy must be "soft" or "hard", not "maybe"`,
    ],
    [
      'an entity meta without its times',
      withChange((json) => {
        json.entitiesMeta.User['1'] = {};
      }),
      'stateFromJSON: entitiesMeta["User"]["1"].date must be a number, not undefined',
    ],
    [
      'an index pointing at a number',
      withChange((json) => {
        json.indexes.User['["username","ada"]'] = 1;
      }),
      'stateFromJSON: indexes["User"]["[\\"username\\",\\"ada\\"]"] must be a pk (a string), not 1',
    ],
    [
      'no lastReset',
      withChange((json) => {
        delete json.lastReset;
      }),
      'stateFromJSON: "lastReset" must be a number, not undefined',
    ],
  ])('%s', (_what, text, expected) => {
    expect(() => stateFromJSON(text)).toThrow(expected);
    expect(() => stateFromJSON(text)).toThrow(TypeError);
  });
});
