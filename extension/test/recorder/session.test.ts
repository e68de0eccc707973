// @vitest-environment node
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  checkSession,
  SESSION_FORMAT,
  SESSION_VERSION,
} from '../../../library/src/devtools/protocol/session.js';
import type { EntryFields } from '../../src/panel/recorder/entries.js';
import {
  buildSession,
  entriesFromSession,
  parseSession,
  sessionFileName,
  sessionText,
} from '../../src/panel/recorder/session.js';

const schema = JSON.parse(
  readFileSync(
    new URL('../../../library/src/devtools/protocol/session.schema.json', import.meta.url),
    'utf8',
  ),
);
const validate = new Ajv2020({ strict: false }).compile(schema);

const date = { '@t': 'date', v: '2025-01-01T00:00:00.000Z' } as const;
const entries: EntryFields[] = [
  {
    endpoint: 'Todo.getList.push',
    args: [{ userId: 1 }, { title: 'new', due: date }],
    body: { title: 'new', due: date },
    response: { id: 5, title: 'new', due: date },
    time: 1_700_000_000_000,
    method: 'POST',
    url: 'http://api.test/todos?userId=1',
  },
  { endpoint: 'Todo.delete', args: [{ id: 3 }], response: '', time: 1_700_000_000_500 },
  { endpoint: 'Todo.getList.getPage', args: [{ page: 2 }] }, // imported without answer or time
];

describe('buildSession', () => {
  it('makes a session that checkSession and the JSON Schema accept, each mutation with its request', () => {
    const now = new Date('2025-03-04T05:06:07.890Z');
    const session = buildSession(entries, { source: 'Todo app', now });
    const text = sessionText(session);
    const parsed = JSON.parse(text);
    expect(checkSession(parsed)).toEqual({ ok: true, session: parsed });
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    expect(parsed).toEqual({
      format: SESSION_FORMAT,
      version: SESSION_VERSION,
      createdAt: '2025-03-04T05:06:07.890Z',
      source: 'Todo app',
      mutations: [
        {
          endpoint: 'Todo.getList.push',
          args: [{ userId: 1 }, { title: 'new', due: date }],
          response: { id: 5, title: 'new', due: date },
          time: 1_700_000_000_000,
          method: 'POST',
          url: 'http://api.test/todos?userId=1',
          body: { title: 'new', due: date },
        },
        { endpoint: 'Todo.delete', args: [{ id: 3 }], response: '', time: 1_700_000_000_500 },
        { endpoint: 'Todo.getList.getPage', args: [{ page: 2 }] },
      ],
    });
    expect(text).toContain('\n  "format": "restlens-session",\n'); // pretty-printed
  });

  it('names the file after the time, without characters a file system refuses', () => {
    expect(sessionFileName(new Date('2025-03-04T05:06:07.890Z'))).toBe(
      'restlens-session-2025-03-04T05-06-07.json',
    );
  });
});

describe('parseSession', () => {
  const valid = () => buildSession(entries);

  it('reads back what was exported: every entry with its method, URL and body', () => {
    const parsed = parseSession(sessionText(valid()));
    expect(parsed.ok && entriesFromSession(parsed.session)).toEqual(entries);
  });

  it.each([
    ['text that is not JSON', '{"format": "restlens-session",', /^the file is not JSON \(/],
    [
      'another format',
      JSON.stringify({ format: 'har', version: 1, mutations: [] }),
      /not a RestLens session/,
    ],
    [
      'a newer version',
      JSON.stringify({ ...buildSession([]), version: SESSION_VERSION + 1 }),
      /version 2, made by a newer RestLens; this one reads version 1/,
    ],
    ['no version', JSON.stringify({ format: SESSION_FORMAT, mutations: [] }), /no valid "version"/],
    ['no mutations', JSON.stringify({ format: SESSION_FORMAT, version: 1 }), /no "mutations" list/],
    [
      'a mutation without endpoint',
      JSON.stringify({ ...buildSession(entries), mutations: [{ args: [] }] }),
      /mutation 0 is malformed/,
    ],
  ])('says what is wrong with %s', (_name, text, message) => {
    const parsed = parseSession(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(message);
  });
});

describe('entriesFromSession', () => {
  it('reads a session kept as a value (the saved recording) as it was', () => {
    const checked = checkSession(structuredClone(buildSession(entries)));
    expect(checked.ok && entriesFromSession(checked.session)).toEqual(entries);
  });

  it('drops display fields of the wrong type instead of showing them', () => {
    const stored = buildSession([{ endpoint: 'Todo.delete', args: [] }]);
    Object.assign(stored.mutations[0] as object, { method: 42, url: { href: 'x' } });
    expect(entriesFromSession(stored)).toEqual([{ endpoint: 'Todo.delete', args: [] }]);
  });

  it('drops a body nested deeper than a carried value (JSON.parse reads it at any depth)', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = `{"format":"${SESSION_FORMAT}","version":${SESSION_VERSION},"mutations":[{"endpoint":"Todo.delete","args":[],"body":${deep}},{"endpoint":"Todo.delete","args":[],"body":[[1]]}]}`;
    const parsed = parseSession(text);
    expect(parsed.ok && entriesFromSession(parsed.session)).toEqual([
      { endpoint: 'Todo.delete', args: [] },
      { endpoint: 'Todo.delete', args: [], body: [[1]] },
    ]);
  });
});
