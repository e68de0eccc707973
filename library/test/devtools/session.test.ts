import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_SCHEMA_PATH, sessionSchemaText } from '../../../scripts/session-schema.mjs';
import { replaySession, type Session } from '../../src/devtools/index.js';
import { encode } from '../../src/devtools/page/encode.js';
import {
  checkSession,
  SESSION_FORMAT,
  SESSION_VERSION,
  sessionJsonSchema,
} from '../../src/devtools/protocol/session.js';
import { createResource, createStore, Entity } from '../../src/index.js';
import { plain } from '../fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

class Note extends Entity {
  id = 0;
  title = '';
  userId = 0;
  pk() {
    return this.id;
  }
  static override key = 'Note';
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const notes = () =>
  createResource({
    path: '/todos/:id',
    schema: Note,
    urlPrefix: server.url,
    searchParams: {} as { userId?: number },
    body: {} as Partial<Note>,
  });

/** A session as the Recorder exports it: a list fetched, two pushes, an unshift, a delete. */
function recordedSession(): Session {
  return {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    createdAt: '2026-11-22T12:00:00.000Z',
    mutations: [
      {
        endpoint: 'Note.getList',
        args: [encode({})],
        response: encode([{ id: 1, title: 'a', userId: 1 }]),
      },
      {
        endpoint: 'Note.getList.push',
        args: [encode({}), encode({ title: 'b', userId: 1 })],
        response: encode({ id: 2, title: 'b', userId: 1 }),
      },
      {
        endpoint: 'Note.getList.unshift',
        args: [encode({}), encode({ title: 'c', userId: 1 })],
        response: encode({ id: 3, title: 'c', userId: 1 }),
      },
      { endpoint: 'Note.delete', args: [encode({ id: 1 })], response: encode({ id: 1 }) },
    ],
  };
}

const schemaText = readFileSync(SESSION_SCHEMA_PATH, 'utf8');
const schemaFile = JSON.parse(schemaText);
const validateWithSchema = new Ajv2020({ strict: false }).compile(schemaFile);

describe('session format', () => {
  it('accepts a recorded session, and the JSON Schema agrees', () => {
    const session = recordedSession();
    expect(checkSession(session)).toEqual({ ok: true, session });
    expect(validateWithSchema(JSON.parse(JSON.stringify(session)))).toBe(true);
  });

  it.each([
    ['another format', { ...recordedSession(), format: 'har' }, /not a RestLens session/],
    [
      'a newer version',
      { ...recordedSession(), version: 2 },
      /version 2, made by a newer RestLens; this one reads version 1/,
    ],
    ['no mutations list', { format: SESSION_FORMAT, version: 1 }, /no "mutations" list/],
    [
      'a mutation without args',
      { ...recordedSession(), mutations: [{ endpoint: 'Note.get' }] },
      /mutation 0 is malformed/,
    ],
    [
      'a mutation without endpoint',
      { ...recordedSession(), mutations: [{ args: [] }] },
      /mutation 0 is malformed/,
    ],
  ])('rejects %s with a message naming it, as the JSON Schema does', (_name, value, message) => {
    const checked = checkSession(value);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.error).toMatch(message);
    expect(validateWithSchema(value)).toBe(false);
  });
});

describe('session format, described once', () => {
  it('session.schema.json is the JSON Schema its description writes (node scripts/session-schema.mjs)', () => {
    expect(schemaText).toBe(sessionSchemaText(sessionJsonSchema()));
    expect(schemaFile.properties.format.const).toBe(SESSION_FORMAT);
    expect(schemaFile.properties.version.const).toBe(SESSION_VERSION);
  });

  it("takes a mutation's request fields of another type (replay does not read them), which the JSON Schema types", () => {
    const session = {
      ...recordedSession(),
      mutations: [{ endpoint: 'Note.delete', args: [], method: 42, url: { href: 'x' }, body: 1n }],
    };
    expect(checkSession(session).ok).toBe(true);
    const typed = schemaFile.properties.mutations.items.properties;
    expect([typed.method.type, typed.url.type]).toEqual(['string', 'string']);
    expect(
      validateWithSchema({ ...session, mutations: [{ endpoint: 'e', args: [], method: 42 }] }),
    ).toBe(false);
  });

  it('names the part of a mutation that is wrong', () => {
    const session = (mutation: unknown) =>
      checkSession({ ...recordedSession(), mutations: [mutation] });
    expect(session({ endpoint: 'Note.get', args: [], time: '1' })).toEqual({
      ok: false,
      error: 'mutation 0 is malformed: time: expected a number',
    });
    expect(session('Note.get')).toEqual({
      ok: false,
      error: 'mutation 0 is malformed: expected an object',
    });
    expect(checkSession({ ...recordedSession(), source: 5 })).toEqual({
      ok: false,
      error: "the session's source: expected a string",
    });
  });

  it('checkSession accepts exactly what the JSON Schema accepts', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const mutation = fc.record(
      {
        endpoint: fc.oneof(fc.string({ maxLength: 1030 }), json),
        args: fc.oneof(fc.array(json, { maxLength: 3 }), json),
        response: json,
        time: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), json),
      },
      { requiredKeys: [] },
    );
    const session = fc.record(
      {
        format: fc.constantFrom(SESSION_FORMAT, 'har'),
        version: fc.constantFrom(SESSION_VERSION, SESSION_VERSION + 1, 0, 1.5, '1'),
        createdAt: fc.oneof(fc.string(), json),
        source: fc.oneof(fc.string(), json),
        mutations: fc.oneof(fc.array(mutation, { maxLength: 4 }), json),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(session, (value) => {
        expect(checkSession(value).ok).toBe(validateWithSchema(value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('replaySession', () => {
  it('apply: a fresh store ends with the collections the recording produced, without the network', async () => {
    const Notes = notes();
    const before = server.requests.length;
    const { controller, getState } = createStore({ resources: [Notes] });
    const outcomes = await replaySession(controller, recordedSession(), { mode: 'apply' });
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true, true]);
    expect(plain(getState().entities.get('[Note]'))).toEqual({ '{}': ['3', '2'] });
    expect(server.requests.length).toBe(before);
  });

  it('applies mutations in the recorded order (reordering changes the result)', async () => {
    const Notes = notes();
    const session = recordedSession();
    const [list, push, unshift, remove] = session.mutations;
    const { controller, getState } = createStore({ resources: [Notes] });
    await replaySession(controller, { ...session, mutations: [list, unshift, push, remove] });
    expect(plain(getState().entities.get('[Note]'))).toEqual({ '{}': ['3', '2'] });
    const other = createStore({ resources: [Notes] });
    await replaySession(other.controller, { ...session, mutations: [list, remove, push] });
    expect(plain(other.getState().entities.get('[Note]'))).toEqual({ '{}': ['2'] });
  });

  it('send: runs the endpoints again against the server', async () => {
    const Notes = notes();
    const { controller, getState } = createStore({ resources: [Notes] });
    const session: Session = {
      format: SESSION_FORMAT,
      version: SESSION_VERSION,
      mutations: [
        { endpoint: 'Note.getList', args: [encode({ userId: 1 })] },
        {
          endpoint: 'Note.getList.push',
          args: [encode({ userId: 1 }), encode({ title: 'sent', userId: 1 })],
        },
      ],
    };
    const before = server.requests.length;
    const outcomes = await replaySession(controller, session, { mode: 'send' });
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    const sent = server.requests.slice(before).map((request) => `${request.method} ${request.url}`);
    expect(sent).toEqual(['GET /todos?userId=1', 'POST /todos?userId=1']);
    expect(server.todos.some((todo) => todo.title === 'sent')).toBe(true);
    const row = plain(getState().entities.get('[Note]'))['{"userId":"1"}'] as string[];
    expect(row.at(-1)).toBe(String(server.todos.at(-1)?.id));
  });

  it('throws for an invalid session before running anything', async () => {
    const Notes = notes();
    const { controller, getState } = createStore({ resources: [Notes] });
    await expect(replaySession(controller, { ...recordedSession(), version: 3 })).rejects.toThrow(
      /newer RestLens/,
    );
    expect(getState().endpoints.size).toBe(0);
  });

  it('reports an unknown endpoint by name and still applies the others', async () => {
    const Notes = notes();
    const session = recordedSession();
    const { controller, getState } = createStore({ resources: [Notes] });
    const outcomes = await replaySession(controller, {
      ...session,
      mutations: [
        session.mutations[0],
        { endpoint: 'Nope.create', args: [] },
        session.mutations[1],
      ],
    });
    expect(outcomes[1]).toMatchObject({
      ok: false,
      endpoint: 'Nope.create',
      error: expect.stringMatching(/unknown endpoint "Nope.create"/),
    });
    expect(plain(getState().entities.get('[Note]'))).toEqual({ '{}': ['1', '2'] });
  });

  it('names the recorded response when its encoding cannot be read; nothing of it is applied', async () => {
    const Notes = notes();
    const { controller, getState } = createStore({ resources: [Notes] });
    const outcomes = await replaySession(controller, {
      format: SESSION_FORMAT,
      version: SESSION_VERSION,
      mutations: [
        { endpoint: 'Note.get', args: [{ id: 1 }], response: { '@t': 'map', entries: 5 } },
      ],
    });
    expect(outcomes).toEqual([
      {
        index: 0,
        endpoint: 'Note.get',
        ok: false,
        error: expect.stringMatching(
          /^mutation 0 \(Note.get\) has a recorded response that cannot be read: /,
        ),
      },
    ]);
    expect(getState().endpoints.size).toBe(0);
  });

  it('stops at the first error when asked to', async () => {
    const Notes = notes();
    const session = recordedSession();
    const { controller } = createStore({ resources: [Notes] });
    const outcomes = await replaySession(
      controller,
      {
        ...session,
        mutations: [{ endpoint: 'Nope.create', args: [] }, ...session.mutations],
      },
      { stopOnError: true },
    );
    expect(outcomes).toHaveLength(1);
  });
});
