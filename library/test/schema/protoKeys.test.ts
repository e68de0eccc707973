import { describe, expect, it } from 'vitest';
import { createResource, createStore, Endpoint, ExpiryStatus, schema } from '../../src/index.js';
import { Note } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';

const server = serverPerTest();

const Notes = () => createResource({ path: '/notes/:id', schema: Note, urlPrefix: server.url });

/** Object.prototype as it should stay: nothing a response holds reaches it. */
function expectPrototypeUntouched() {
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe('keys named like prototype members', () => {
  it('a response field named "__proto__" is data: the entity stays a Note', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    server.respondNext({
      rawBody: '{"id":"1","text":"hi","__proto__":{"polluted":true,"text":"x"}}',
    });
    const note = await controller.fetch(R.get, { id: '1' });
    for (const read of [note, controller.getResponse(R.get, { id: '1' }, getState()).data]) {
      expect(read).toBeInstanceOf(Note);
      expect(read?.text).toBe('hi');
      expect((read as unknown as { polluted?: unknown }).polluted).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(read, '__proto__')?.value).toEqual({
        polluted: true,
        text: 'x',
      });
    }
    expectPrototypeUntouched();
  });

  it('"__proto__", "constructor" and "toString" are pks like any other, and stay through later writes', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    const odd = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    server.respondNext({ body: odd.map((id) => ({ id, text: `note ${id}` })) });
    await controller.fetch(R.getList, {});
    server.respondNext({ body: { id: 'plain', text: 'a later write' } });
    await controller.fetch(R.get, { id: 'plain' });
    const list = controller.getResponse(R.getList, {}, getState()).data;
    expect(list?.map((note) => note.id)).toEqual(odd);
    for (const id of odd) {
      const read = controller.getResponse(R.get, { id }, getState());
      expect(read.data).toBeInstanceOf(Note);
      expect(read.data?.text).toBe(`note ${id}`);
    }
    const exported = JSON.parse(JSON.stringify(getState().entities)).Note;
    expect(Object.getOwnPropertyDescriptor(exported, '__proto__')?.value).toEqual({
      id: '__proto__',
      text: 'note __proto__',
    });
    expectPrototypeUntouched();
  });

  it('reading a pk named like a prototype member that is not stored finds nothing', () => {
    const R = Notes();
    const { controller, getState } = createStore();
    for (const id of ['toString', 'constructor', '__proto__', 'valueOf']) {
      const read = controller.getResponse(R.get, { id }, getState());
      expect(read.data).toBeUndefined();
      expect(read.expiryStatus).toBe(ExpiryStatus.InvalidIfStale);
    }
    expect(server.requests).toEqual([]);
  });

  it('a search argument or a Values key named "__proto__" is data too', async () => {
    const R = Notes();
    const { controller, getState } = createStore();
    const odd = JSON.parse('{"__proto__":"x"}') as Record<string, string>;
    server.respondNext({ body: [{ id: '1', text: 'one' }] });
    await controller.fetch(R.getList, odd);
    server.respondNext({ body: [{ id: '2', text: 'two' }] });
    await controller.fetch(R.getList, {});
    expect(server.requests.map((request) => request.url)).toEqual(['/notes?__proto__=x', '/notes']);
    const ids = (args: Record<string, string>) =>
      controller.getResponse(R.getList, args, getState()).data?.map((note) => note.id);
    expect(ids(odd)).toEqual(['1']);
    expect(ids({})).toEqual(['2']);

    const byKey = new Endpoint(async () => null, {
      name: 'notesByKey',
      schema: new schema.Values(Note),
      key: () => 'notesByKey',
    });
    await controller.setResponse(byKey, JSON.parse('{"__proto__":{"id":"9","text":"nine"}}'));
    const values = controller.getResponse(byKey, getState()).data as Record<string, Note>;
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBeInstanceOf(Note);
    expectPrototypeUntouched();
  });
});
