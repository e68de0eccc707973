import { describe, expect, it } from 'vitest';
import type { StoreEvent } from '../../src/devtools/protocol/effects.js';
import {
  type EventsMessage,
  extensionCommand,
  MAX_MESSAGE_LENGTH,
  MAX_ROWS_PER_REQUEST,
  MAX_SEARCH_LENGTH,
  MAX_SNAPSHOT_CHUNKS,
  MAX_VALUE_DEPTH,
  PROTOCOL_VERSION,
  pageMessage,
} from '../../src/devtools/protocol/messages.js';
import { checkSession } from '../../src/devtools/protocol/session.js';
import {
  inspectorCommandRefusal,
  isExtensionCommand,
  isPageMessage,
  parseEvents,
  parseSnapshot,
} from '../../src/devtools/protocol/validate.js';

/** The validators of protocol v3, on messages built by hand (the bridge tests cover the page). */

const storeId = 'store-1-abc';

/** An events message carrying `data` as it is. */
const eventsMessage = (data: string): EventsMessage =>
  pageMessage({ kind: 'events', storeId, data }) as EventsMessage;

/** An events message carrying one event with these effects. */
const withEffects = (...effects: unknown[]): EventsMessage =>
  eventsMessage(JSON.stringify([{ seq: 1, time: 0, action: { type: 'setResponse' }, effects }]));

const valid: StoreEvent[] = [
  {
    seq: 1,
    time: 10,
    action: { type: 'setResponse', endpoint: 'Todo.getList', args: [{}] },
    effects: [
      { type: 'entities-added', entity: 'User', pks: ['9'] },
      { type: 'entities-added', entity: 'Todo', pks: ['1', '2'] },
      {
        type: 'entities-updated',
        entity: 'Todo',
        updates: [
          {
            pk: '3',
            fields: [
              { field: 'title', before: 'a', after: 'b' },
              { field: 'due', before: { '@t': 'undefined' }, after: { '@t': 'date', v: 'x' } },
            ],
          },
        ],
      },
      {
        type: 'collection-changed',
        collection: '[Todo]',
        row: '{}',
        kind: 'push',
        lengthBefore: 1,
        lengthAfter: 3,
        inserted: [{ index: 1, pks: ['1', '2'] }],
        duplicates: ['3'],
        removed: [],
      },
      {
        type: 'result-stored',
        key: 'GET /todos',
        endpoint: 'Todo.getList',
        expiresAt: 5,
        kept: true,
        result: '{}',
      },
    ],
  },
  {
    seq: 2,
    time: 11,
    action: { type: 'setResponse', endpoint: 'Todo.delete' },
    effects: [
      { type: 'entity-invalidated', entity: 'Todo', pk: '1', from: { id: 1 }, via: 'response' },
      { type: 'result-invalidated', key: 'GET /todos/1' },
    ],
  },
  { seq: 3, time: 12, action: { type: 'setResponse' }, effects: [], effectsOmitted: true },
];

describe('parseEvents', () => {
  it('reads the events of a well-formed message', () => {
    expect(parseEvents(eventsMessage(JSON.stringify(valid)))).toEqual(valid);
    expect(parseEvents(eventsMessage('[]'))).toEqual([]);
  });

  it.each([
    ['text that is not JSON', '[{"seq":1,'],
    ['an empty text', ''],
    ['JSON that is not a list', JSON.stringify({ 0: valid[0] })],
    ['a list of something else', '[1, 2]'],
    ['an event without a seq', JSON.stringify([{ time: 0, action: { type: 'x' }, effects: [] }])],
    ['a negative seq', JSON.stringify([{ ...valid[2], seq: -1 }])],
    ['seq 0 (seqs start at 1)', JSON.stringify([{ ...valid[2], seq: 0 }])],
    ['an action without a type', JSON.stringify([{ ...valid[2], action: {} }])],
    ['effects that are not a list', JSON.stringify([{ ...valid[2], effects: {} }])],
    ['an effect without a type', JSON.stringify([{ ...valid[2], effects: [{ entity: 'Todo' }] }])],
  ])('rejects %s', (_label, data) => {
    expect(parseEvents(eventsMessage(data))).toBeUndefined();
  });

  it.each([
    [
      'entities-added whose pks are not a list',
      { type: 'entities-added', entity: 'Todo', pks: '1' },
    ],
    ['entities-added whose pks are numbers', { type: 'entities-added', entity: 'Todo', pks: [1] }],
    ['entities-added without an entity', { type: 'entities-added', pks: ['1'] }],
    [
      'entities-updated as v2 wrote it (pks and field names)',
      { type: 'entities-updated', entity: 'Todo', pks: ['1'], fields: [['title']] },
    ],
    [
      'entities-updated whose fields are names, not changes',
      { type: 'entities-updated', entity: 'Todo', updates: [{ pk: '1', fields: ['title'] }] },
    ],
    [
      'entities-updated whose update has a numeric pk',
      { type: 'entities-updated', entity: 'Todo', updates: [{ pk: 1, fields: [] }] },
    ],
    [
      'entities-updated whose field name is not text',
      {
        type: 'entities-updated',
        entity: 'Todo',
        updates: [{ pk: '1', fields: [{ field: 1, before: 1, after: 2 }] }],
      },
    ],
    [
      'entities-updated whose value nests too deep',
      {
        type: 'entities-updated',
        entity: 'Todo',
        updates: [
          { pk: '1', fields: [{ field: 'f', before: 1, after: nested(MAX_VALUE_DEPTH + 1) }] },
        ],
      },
    ],
    ['entity-invalidated with a numeric pk', { type: 'entity-invalidated', entity: 'Todo', pk: 1 }],
    [
      'collection-changed with an inserted run of numeric pks',
      { ...valid[0]!.effects[3], inserted: [{ index: 0, pks: [1] }] },
    ],
    [
      'collection-changed with a run at a negative index',
      { ...valid[0]!.effects[3], inserted: [{ index: -1, pks: ['1'] }] },
    ],
    [
      'collection-changed with inserted as v1 wrote it',
      { ...valid[0]!.effects[3], inserted: [{ pk: '1', index: 0 }] },
    ],
    ['collection-changed without duplicates', { ...valid[0]!.effects[3], duplicates: undefined }],
    ['collection-changed with removed numbers', { ...valid[0]!.effects[3], removed: [2] }],
    [
      'collection-changed whose members are not a list',
      { ...valid[0]!.effects[3], kind: 'replace', members: {} },
    ],
    ['result-invalidated whose key is not text', { type: 'result-invalidated', key: {} }],
    ['result-expired as v2 wrote it (keys)', { type: 'result-expired', keys: ['k'] }],
  ])('rejects a malformed effect: %s', (_label, effect) => {
    expect(parseEvents(withEffects(effect))).toBeUndefined();
    // One malformed effect spoils the whole message, well-formed events included.
    const mixed = JSON.parse(withEffects(effect).data) as unknown[];
    expect(parseEvents(eventsMessage(JSON.stringify([...valid, ...mixed])))).toBeUndefined();
  });
});

/** A value nested `depth` lists deep. */
const nested = (depth: number): unknown =>
  JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;

describe('parseEvents: every field the panel reads has its type', () => {
  const event = valid[0]!;
  const withAction = (action: Record<string, unknown>) =>
    eventsMessage(JSON.stringify([{ ...event, action: { ...event.action, ...action } }]));

  it('accepts every optional field of an action and an effect of every type', () => {
    const full: StoreEvent = {
      seq: 1,
      time: 1,
      action: {
        type: 'fetch',
        endpoint: 'Todo.update',
        key: 'PUT /todos/1',
        method: 'PUT',
        url: '/todos/1',
        mutation: true,
        args: [{ id: 1 }, nested(MAX_VALUE_DEPTH - 1) as never],
        body: { title: 'a' },
        response: { '@t': 'map', entries: [] },
        error: { '@t': 'error', name: 'Error', message: 'x' },
        duration: 5,
        optimistic: 'applied',
        replayId: 'r1',
        cause: {
          reason: { kind: 'invalid', component: 'TodoList' },
          by: { seq: 3, label: 'Todo.delete' },
          trace: [{ function: 'onClick', url: 'http://app.test/app.js', line: 12, column: 5 }],
        },
      },
      effects: [
        ...event.effects,
        { type: 'entity-invalidated', entity: 'Todo', pk: '1', from: 1, via: 'url-params' },
        { type: 'result-stored', key: 'm', endpoint: 'e', expiresAt: 1, kept: false },
        { type: 'result-error', key: 'k', endpoint: 'e', error: 'bad', kept: true },
        { type: 'result-invalidated', key: 'k' },
        { type: 'result-expired', key: 'k' },
        { type: 'result-suspends', key: 'k', endpoint: 'e' },
        { type: 'result-lost-member', key: 'k', endpoint: 'e' },
        { type: 'store-reset' },
        { type: 'replay-result', replayId: 'r', index: 0, endpoint: 'e', ok: false, error: 'x' },
      ],
    };
    expect(parseEvents(eventsMessage(JSON.stringify([full])))).toEqual([full]);
    // A reason of a kind it does not know is kept: it is shown by its kind.
    const newer = { reason: { kind: 'prefetch', hint: 1 } };
    expect(parseEvents(withAction({ cause: newer }))?.[0]?.action.cause).toEqual(newer);
    // Effects of types it does not know are kept (a newer library may send them).
    const future = { type: 'entities-moved', whatever: 1 };
    expect(parseEvents(withEffects(future))?.[0]?.effects).toEqual([future]);
    // So are types named after what every object has.
    for (const type of ['constructor', 'toString', '__proto__'])
      expect(parseEvents(withEffects({ type }))?.[0]?.effects).toEqual([{ type }]);
  });

  it.each([
    ['an endpoint that is not text', { endpoint: 5 }],
    ['a key that is an object', { key: { toString: 1 } }],
    ['a method that is not text', { method: ['PUT'] }],
    ['a url that is not text', { url: null }],
    ['a mutation flag that is not a boolean', { mutation: 'yes' }],
    ['args that are not a list', { args: { 0: 1 } }],
    ['a duration that is not a number', { duration: '5' }],
    ['an optimistic state it does not know', { optimistic: 'maybe' }],
    ['a replay id that is not text', { replayId: 1 }],
    ['a cause without a reason', { cause: {} }],
    ['a mount whose component is not text', { cause: { reason: { kind: 'mount', component: 1 } } }],
    ['a poll without its frequency', { cause: { reason: { kind: 'poll' } } }],
    ['a cause by no seq', { cause: { reason: { kind: 'invalid' }, by: { label: 'x' } } }],
    [
      'a trace frame whose line is not a number',
      { cause: { reason: { kind: 'app' }, trace: [{ url: 'u', line: '1', column: 1 }] } },
    ],
    [
      'a trace of more than 64 frames',
      {
        cause: {
          reason: { kind: 'app' },
          trace: Array.from({ length: 65 }, () => ({ url: 'u', line: 1, column: 1 })),
        },
      },
    ],
    [`args nested deeper than ${MAX_VALUE_DEPTH}`, { args: [nested(MAX_VALUE_DEPTH)] }],
  ])('rejects an action with %s', (_label, action) => {
    expect(parseEvents(withAction(action))).toBeUndefined();
  });

  it.each([
    [
      'entity-invalidated whose via is unknown',
      { type: 'entity-invalidated', entity: 'T', pk: '1', via: 'x' },
    ],
    ['collection-changed of an unknown kind', { ...valid[0]!.effects[3], kind: 'eval' }],
    ['collection-changed whose length is text', { ...valid[0]!.effects[3], lengthAfter: '3' }],
    ['result-stored whose key is a number', { ...valid[0]!.effects[4], key: 5 }],
    ['result-stored without an endpoint', { ...valid[0]!.effects[4], endpoint: undefined }],
    ['result-stored whose expiry is text', { ...valid[0]!.effects[4], expiresAt: 'soon' }],
    ['result-stored without kept', { ...valid[0]!.effects[4], kept: undefined }],
    [
      'result-stored whose result nests too deep',
      { ...valid[0]!.effects[4], result: nested(MAX_VALUE_DEPTH + 1) },
    ],
    [
      'result-error whose key is an object',
      { type: 'result-error', key: {}, endpoint: 'e', error: 1, kept: true },
    ],
    [
      'result-error whose kept is text',
      { type: 'result-error', key: 'k', endpoint: 'e', error: 1, kept: 'no' },
    ],
    ['result-suspends without a key', { type: 'result-suspends', endpoint: 'e' }],
    [
      'result-lost-member whose endpoint is a list',
      { type: 'result-lost-member', key: 'k', endpoint: [] },
    ],
    [
      'replay-result at a negative index',
      { type: 'replay-result', replayId: 'r', index: -1, endpoint: 'e', ok: true },
    ],
    [
      'replay-result whose ok is text',
      { type: 'replay-result', replayId: 'r', index: 0, endpoint: 'e', ok: 'yes' },
    ],
    [
      'replay-result whose error is an object',
      { type: 'replay-result', replayId: 'r', index: 0, endpoint: 'e', ok: false, error: {} },
    ],
  ])('rejects %s', (_label, effect) => {
    expect(parseEvents(withEffects(effect))).toBeUndefined();
  });

  it('rejects a response nested 100,000 deep (which JSON.parse reads, and nothing can write)', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = `[{"seq":1,"time":0,"action":{"type":"fetch","response":${deep}},"effects":[]}]`;
    expect(parseEvents(eventsMessage(text))).toBeUndefined();
  });

  it('rejects an event whose effectsOmitted flag is not a boolean', () => {
    expect(
      parseEvents(eventsMessage(JSON.stringify([{ ...valid[2], effectsOmitted: 'yes' }]))),
    ).toBeUndefined();
  });
});

describe('parseSnapshot', () => {
  const state = {
    entities: { Todo: { '1': { id: 1 } }, '[Todo]': { '{}': ['1'] } },
    endpoints: { 'GET /todos': '{}' },
    meta: { 'GET /todos': { expiresAt: 1 } },
    entitiesMeta: {},
    indexes: {},
    optimistic: [{ key: 'k', endpoint: 'e', fetchedAt: 1 }],
  };

  it('reads a snapshot’s JSON text', () => {
    expect(parseSnapshot(JSON.stringify(state))).toEqual(state);
  });

  it.each([
    ['text that is not JSON', '{"entities":'],
    ['an empty object', '{}'],
    ['null', 'null'],
    ['a list', '[]'],
    ['entities that are null', JSON.stringify({ ...state, entities: null })],
    ['an entity table that is a list', JSON.stringify({ ...state, entities: { Todo: [] } })],
    ['an entity table that is text', JSON.stringify({ ...state, entities: { Todo: 'x' } })],
    ['no endpoints', JSON.stringify({ ...state, endpoints: undefined })],
    ['meta that is a number', JSON.stringify({ ...state, meta: 5 })],
    ['optimistic updates that are not a list', JSON.stringify({ ...state, optimistic: {} })],
  ])('rejects %s', (_label, text) => {
    expect(parseSnapshot(text)).toBeUndefined();
  });
});

describe('checkSession: values', () => {
  it(`rejects a mutation whose args or response nest deeper than ${MAX_VALUE_DEPTH}`, () => {
    const session = {
      format: 'restlens-session',
      version: 1,
      mutations: [{ endpoint: 'e', args: [] }],
    };
    expect(checkSession(session).ok).toBe(true);
    // The args list counts as a level of its own.
    expect(
      checkSession({ ...session, mutations: [{ endpoint: 'e', args: [nested(MAX_VALUE_DEPTH)] }] }),
    ).toEqual({
      ok: false,
      error: `mutation 0 is malformed: args: expected a list nested at most ${MAX_VALUE_DEPTH} levels deep`,
    });
    expect(
      checkSession({
        ...session,
        mutations: [{ endpoint: 'e', args: [], response: nested(MAX_VALUE_DEPTH + 5) }],
      }),
    ).toEqual({
      ok: false,
      error: `mutation 0 is malformed: response: expected a value nested at most ${MAX_VALUE_DEPTH} levels deep`,
    });
  });
});

describe('isPageMessage: events', () => {
  it('checks only the envelope: the data is text, read later by parseEvents', () => {
    expect(isPageMessage(eventsMessage(JSON.stringify(valid)))).toBe(true);
    expect(isPageMessage({ ...eventsMessage('[]'), history: true })).toBe(true);
    // Not parsed here: parseEvents turns it away.
    expect(isPageMessage(eventsMessage('not json'))).toBe(true);
  });

  it.each([
    ['a list of events (as v1 sent them)', valid],
    ['a number', 42],
    ['an object', { events: valid }],
    ['null', null],
    ['nothing', undefined],
  ])('rejects data that is not a string: %s', (_label, data) => {
    expect(isPageMessage({ ...eventsMessage('[]'), data })).toBe(false);
  });

  it('accepts data up to MAX_MESSAGE_LENGTH and rejects longer data', () => {
    const padding = (length: number) => `[${' '.repeat(length - 2)}]`;
    expect(isPageMessage(eventsMessage(padding(MAX_MESSAGE_LENGTH)))).toBe(true);
    expect(isPageMessage(eventsMessage(padding(MAX_MESSAGE_LENGTH + 1)))).toBe(false);
  });

  it('rejects another version, a missing store id, or a history flag that is not a boolean', () => {
    const message = eventsMessage('[]');
    expect(isPageMessage({ ...message, v: PROTOCOL_VERSION - 1 })).toBe(false);
    expect(isPageMessage({ ...message, storeId: '' })).toBe(false);
    expect(isPageMessage({ ...message, history: 'yes' })).toBe(false);
  });
});

describe('isPageMessage: snapshot and hello', () => {
  const chunk = pageMessage({ kind: 'snapshot', storeId, seq: 3, index: 0, count: 1, data: '{}' });
  const hello = pageMessage({
    kind: 'hello',
    storeId,
    storeName: 'Todos',
    libraryVersion: '0.1.0',
    seq: 0,
  });

  it(`accepts snapshots of up to MAX_SNAPSHOT_CHUNKS (${MAX_SNAPSHOT_CHUNKS}) chunks`, () => {
    expect(isPageMessage(chunk)).toBe(true);
    expect(
      isPageMessage({ ...chunk, index: MAX_SNAPSHOT_CHUNKS - 1, count: MAX_SNAPSHOT_CHUNKS }),
    ).toBe(true);
  });

  it.each([
    ['one chunk more', { index: 0, count: MAX_SNAPSHOT_CHUNKS + 1 }],
    ['120 million chunks', { index: 5, count: 120_000_000 }],
    ['an index past the count', { index: 1, count: 1 }],
  ])('rejects a snapshot announcing %s', (_label, change) => {
    expect(isPageMessage({ ...chunk, ...change })).toBe(false);
  });

  it('rejects a hello whose name or library version is not a short text', () => {
    expect(isPageMessage(hello)).toBe(true);
    expect(isPageMessage({ ...hello, storeName: '' })).toBe(true);
    expect(isPageMessage({ ...hello, storeName: 'x'.repeat(1024) })).toBe(false);
    expect(isPageMessage({ ...hello, libraryVersion: 'x'.repeat(1024) })).toBe(false);
    expect(isPageMessage({ ...hello, storeName: 5 })).toBe(false);
  });
});

describe('isPageMessage: rows', () => {
  const rows = pageMessage({
    kind: 'rows',
    storeId,
    seq: 3,
    table: 'Todo',
    rows: { '1': { id: 1 }, '2': null },
  });

  it('accepts an answer to a rows command, current or as of a seq, or saying the seq left the ring', () => {
    expect(isPageMessage(rows)).toBe(true);
    expect(isPageMessage({ ...rows, asOf: 2 })).toBe(true);
    expect(isPageMessage({ ...rows, asOf: 0, leftRing: true, rows: {} })).toBe(true);
  });

  it.each([
    ['rows that are not an object', { rows: [{ id: 1 }] }],
    ['an asOf that is not a seq', { asOf: 1.5 }],
    ['a leftRing flag that is not true', { leftRing: false }],
    ['no rows', { rows: undefined }],
    ['no table', { table: '' }],
    ['a seq that is not a count', { seq: -1 }],
    ['an answer larger than a message', { rows: { '1': 'x'.repeat(MAX_MESSAGE_LENGTH) } }],
  ])('rejects %s', (_label, change) => {
    expect(isPageMessage({ ...rows, ...change })).toBe(false);
  });
});

describe('isPageMessage: results', () => {
  const results = pageMessage({
    kind: 'results',
    storeId,
    seq: 3,
    results: { 'GET /todos': { result: '{}', meta: { expiresAt: 1 } }, nothing: null },
  });

  it('accepts an answer to a results command, current or as of a seq', () => {
    expect(isPageMessage(results)).toBe(true);
    expect(isPageMessage({ ...results, asOf: 1 })).toBe(true);
    expect(isPageMessage({ ...results, asOf: 1, leftRing: true, results: {} })).toBe(true);
  });

  it.each([
    ['results that are a list', { results: [] }],
    ['a result that is text', { results: { k: 'x' } }],
    ['a result without its meta', { results: { k: { result: 1 } } }],
    [
      'a result nested too deep',
      { results: { k: { result: nested(MAX_VALUE_DEPTH + 1), meta: 1 } } },
    ],
    ['no store id', { storeId: '' }],
    [
      'an answer larger than a message',
      { results: { k: { result: 'x'.repeat(MAX_MESSAGE_LENGTH), meta: 1 } } },
    ],
  ])('rejects %s', (_label, change) => {
    expect(isPageMessage({ ...results, ...change })).toBe(false);
  });
});

describe('isPageMessage: readers', () => {
  const readers = pageMessage({
    kind: 'readers',
    storeId,
    readers: { 'GET /todos': 2 },
    forced: { 'GET /todos/1': 'loading' },
    fetching: ['GET /todos/2'],
    polling: { 'GET /todos': 10_000, 'GET /todos/3': 0.5 },
  });

  it('accepts the results polled and their frequencies, under any key', () => {
    expect(isPageMessage(readers)).toBe(true);
    // As a structured clone or JSON.parse makes it: an own key, not the prototype.
    const own = JSON.parse('{"__proto__": 1000, "constructor": 2000}');
    expect(isPageMessage({ ...readers, polling: own })).toBe(true);
    expect(isPageMessage({ ...readers, polling: {} })).toBe(true);
  });

  it('accepts an answer without polling, as pages made before polling send it', () => {
    expect(isPageMessage({ ...readers, polling: undefined })).toBe(true);
  });

  it.each([
    ['polling that is a list', { polling: [['GET /todos', 1000]] }],
    ['polling that is null', { polling: null }],
    ['a frequency of 0', { polling: { k: 0 } }],
    ['a negative frequency', { polling: { k: -1000 } }],
    ['a frequency that is NaN', { polling: { k: Number.NaN } }],
    ['an infinite frequency', { polling: { k: Number.POSITIVE_INFINITY } }],
    ['a frequency that is text', { polling: { k: '1000' } }],
    ['a frequency that is an object', { polling: { k: { ms: 1000 } } }],
    ['an answer larger than a message', { polling: { ['x'.repeat(MAX_MESSAGE_LENGTH)]: 1000 } }],
  ])('rejects %s', (_label, change) => {
    expect(isPageMessage({ ...readers, ...change })).toBe(false);
  });
});

describe('isExtensionCommand: results, and reads as of a seq', () => {
  it('accepts results by key and reads as of a seq', () => {
    for (const command of [
      extensionCommand({ kind: 'results', storeId, keys: ['GET /todos'] }),
      extensionCommand({ kind: 'results', storeId, keys: [], asOf: 3 }),
      extensionCommand({ kind: 'rows', storeId, table: 'Todo', pks: ['1'], asOf: 0 }),
    ])
      expect(isExtensionCommand(command)).toBe(true);
  });

  it('rejects too many keys, keys that are not strings, or an asOf that is not a seq', () => {
    const keys = Array.from({ length: MAX_ROWS_PER_REQUEST + 1 }, (_, index) => String(index));
    for (const command of [
      { kind: 'results', storeId, keys },
      { kind: 'results', storeId, keys: [1] },
      { kind: 'results', storeId },
      { kind: 'results', storeId, keys: [], asOf: -1 },
      { kind: 'results', storeId, keys: [], asOf: '3' },
      { kind: 'rows', storeId, table: 'Todo', pks: [], asOf: 2.5 },
    ])
      expect(isExtensionCommand(extensionCommand(command as never))).toBe(false);
  });
});

describe('isExtensionCommand: rows', () => {
  const pks = (count: number) => Array.from({ length: count }, (_, index) => String(index));

  it(`accepts up to MAX_ROWS_PER_REQUEST (${MAX_ROWS_PER_REQUEST}) string pks`, () => {
    for (const count of [0, 1, MAX_ROWS_PER_REQUEST])
      expect(
        isExtensionCommand(
          extensionCommand({ kind: 'rows', storeId, table: 'Todo', pks: pks(count) }),
        ),
      ).toBe(true);
  });

  it('rejects more pks, pks that are not strings, or no table', () => {
    const command = extensionCommand({ kind: 'rows', storeId, table: 'Todo', pks: ['1'] });
    for (const change of [
      { pks: pks(MAX_ROWS_PER_REQUEST + 1) },
      { pks: [1] },
      { pks: ['1', null] },
      { pks: '1' },
      { table: '' },
      { table: undefined },
    ])
      expect(isExtensionCommand({ ...command, ...change })).toBe(false);
  });
});

describe('inspectorCommandRefusal', () => {
  const readers = extensionCommand({ kind: 'readers', storeId });

  it('names the wrong field by its path, for the store the command names', () => {
    expect(inspectorCommandRefusal({ ...readers, row: 5 })).toEqual({
      kind: 'readers',
      storeId,
      problem: 'readers: `row` must be an entity row ({ table, pk }: strings)',
    });
    expect(inspectorCommandRefusal({ ...readers, row: { table: 'Todo', pk: 1 } })?.problem).toBe(
      'readers: `row.pk` must be a string',
    );
    expect(
      inspectorCommandRefusal({
        ...readers,
        kind: 'search',
        text: 'x'.repeat(MAX_SEARCH_LENGTH + 1),
      })?.problem,
    ).toBe(`search: \`text\` must be a text of at most ${MAX_SEARCH_LENGTH} characters`);
  });

  it('says nothing of a well-formed command, another kind of command, or a message without the envelope', () => {
    expect(inspectorCommandRefusal(readers)).toBeUndefined();
    expect(
      inspectorCommandRefusal(extensionCommand({ kind: 'rows', storeId } as never)),
    ).toBeUndefined();
    expect(
      inspectorCommandRefusal({ ...readers, row: 5, v: PROTOCOL_VERSION - 1 }),
    ).toBeUndefined();
    expect(inspectorCommandRefusal({ ...readers, row: 5, kind: '__proto__' })).toBeUndefined();
  });
});
