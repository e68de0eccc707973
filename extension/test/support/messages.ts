import type { StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import {
  type Encoded,
  type EventsMessage,
  type ExtensionCommand,
  extensionCommand,
  type HelloMessage,
  MAX_ROWS_PER_REQUEST,
  MAX_SNAPSHOT_CHUNKS,
  pageMessage,
  type ReadersMessage,
  type RowsMessage,
  type SnapshotMessage,
  type SnapshotState,
} from '../../../library/src/devtools/protocol/messages.js';
import type { EventBatch } from '../../src/panel/model.js';

/** Protocol messages for the relay and routing tests (this file holds no tests). */

export function hello(storeId = 'store-1', seq = 0): HelloMessage {
  return pageMessage({
    kind: 'hello',
    storeId,
    storeName: 'Todos',
    libraryVersion: '0.1.0',
    seq,
  }) as HelloMessage;
}

export function storeEvent(seq: number): StoreEvent {
  return {
    seq,
    time: 1_700_000_000_000 + seq,
    action: { type: 'setResponse', endpoint: 'note', key: `note [${seq}]` },
    effects: [
      {
        type: 'result-stored',
        key: `note [${seq}]`,
        endpoint: 'note',
        expiresAt: 0,
        kept: true,
        result: seq,
      },
    ],
  };
}

/** An `events` message carrying these events, as the page sends them: JSON text. */
export function eventsOf(storeId: string, list: readonly StoreEvent[]): EventsMessage {
  return pageMessage({ kind: 'events', storeId, data: JSON.stringify(list) }) as EventsMessage;
}

export function events(storeId: string, ...seqs: number[]): EventsMessage {
  return eventsOf(storeId, seqs.map(storeEvent));
}

/** The same events, parsed: what the panel store takes. */
export function batch(storeId: string, ...seqs: number[]): EventBatch {
  return { storeId, events: seqs.map(storeEvent) };
}

/** A one-chunk snapshot at `seq` holding these entity and collection tables. */
export function snapshot(
  storeId = 'store-1',
  seq = 0,
  entities: SnapshotState['entities'] = {},
): SnapshotMessage {
  const state: SnapshotState = {
    entities,
    endpoints: {},
    meta: {},
    entitiesMeta: {},
    indexes: {},
    optimistic: [],
  };
  return pageMessage({
    kind: 'snapshot',
    storeId,
    seq,
    index: 0,
    count: 1,
    data: JSON.stringify(state),
  }) as SnapshotMessage;
}

/** The page's answer to a `rows` command. */
export function rows(
  storeId: string,
  seq: number,
  table: string,
  byPk: Record<string, Encoded>,
): RowsMessage {
  return pageMessage({ kind: 'rows', storeId, seq, table, rows: byPk }) as RowsMessage;
}

/** The page's answer to a `readers` command: no reader, and these results polled. */
export function readers(storeId: string, polling?: Record<string, number>): ReadersMessage {
  return pageMessage({
    kind: 'readers',
    storeId,
    readers: {},
    forced: {},
    fetching: [],
    ...(polling && { polling }),
  }) as ReadersMessage;
}

/** One valid command of every kind. */
export function everyCommand(storeId = 'store-1'): ExtensionCommand[] {
  return [
    extensionCommand({ kind: 'connect', lastSeq: 0 }),
    extensionCommand({ kind: 'connect', storeId, lastSeq: 12 }),
    extensionCommand({ kind: 'disconnect' }),
    extensionCommand({ kind: 'snapshot', storeId }),
    extensionCommand({ kind: 'invalidate', storeId, key: 'getTodos {}' }),
    extensionCommand({ kind: 'rows', storeId, table: 'Todo', pks: ['1', '2'] }),
    extensionCommand({ kind: 'rows', storeId, table: 'Todo', pks: ['1'], asOf: 3 }),
    extensionCommand({ kind: 'results', storeId, keys: ['getTodos {}'], asOf: 3 }),
    extensionCommand({ kind: 'expireAll', storeId }),
    extensionCommand({ kind: 'reset', storeId }),
    extensionCommand({
      kind: 'replay',
      storeId,
      replayId: 'r1',
      mode: 'apply',
      mutations: [{ endpoint: 'addTodo', args: [{ title: 'a' }], response: { id: 1 } }],
    }),
  ];
}

/**
 * Messages that look like page messages but are not valid ones, each with why. (The events in
 * an `events` message are checked where the panel reads them: `malformedEventTexts`.)
 */
export function invalidPageMessages(): [string, unknown][] {
  const valid = events('store-1', 1);
  const answer = rows('store-1', 1, 'Todo', { '1': { id: 1 } });
  const counts = readers('store-1', { k: 1000 });
  return [
    ['null', null],
    ['a string', JSON.stringify(valid)],
    ['a number', 42],
    ['an array', [valid]],
    ['no tag', { ...valid, tag: undefined }],
    ['another tag', { ...valid, tag: 'redux-devtools' }],
    ['another version', { ...valid, v: 1 }],
    ['the version as a string', { ...valid, v: '2' }],
    ['no source', { ...valid, source: undefined }],
    ['a command echoed back', extensionCommand({ kind: 'connect', lastSeq: 0 })],
    ['a page message marked as from the extension', { ...valid, source: 'extension' }],
    ['an unknown kind', { ...valid, kind: 'eval' }],
    ['hello without storeId', { ...hello(), storeId: undefined }],
    ['hello with an empty storeId', { ...hello(), storeId: '' }],
    ['hello with a numeric storeId', { ...hello(), storeId: 1 }],
    ['hello with a negative seq', { ...hello(), seq: -1 }],
    ['events without their text', { ...valid, data: undefined }],
    ['events parsed already', { ...valid, data: [storeEvent(1)] }],
    ['events with a non-boolean history', { ...valid, history: 'yes' }],
    ['rows without a table', { ...answer, table: undefined }],
    ['rows that are a list', { ...answer, rows: [{ id: 1 }] }],
    ['rows with a negative seq', { ...answer, seq: -1 }],
    ['readers polling a result every 0 ms', { ...counts, polling: { k: 0 } }],
    ['readers polling a result every NaN ms', { ...counts, polling: { k: Number.NaN } }],
    ['readers with a poll frequency as text', { ...counts, polling: { k: '10 s' } }],
    ['readers with polling as a list', { ...counts, polling: [1000] }],
    ['a snapshot chunk past its count', { ...snapshot(), index: 1, count: 1 }],
    ['a snapshot chunk that is not text', { ...snapshot(), data: { entities: {} } }],
    [
      'a snapshot of more chunks than a snapshot may have',
      { ...snapshot(), index: 0, count: MAX_SNAPSHOT_CHUNKS + 1 },
    ],
    ['a snapshot of 120 million chunks', { ...snapshot(), index: 5, count: 120_000_000 }],
    ['hello with a store name of 1 MB', { ...hello(), storeName: 'x'.repeat(1024 * 1024) }],
    [
      'hello with a library version of 1 MB',
      { ...hello(), libraryVersion: 'x'.repeat(1024 * 1024) },
    ],
  ];
}

/** Messages that look like commands but are not valid ones, each with why. */
export function invalidCommands(): [string, unknown][] {
  const connect = extensionCommand({ kind: 'connect', lastSeq: 0 });
  return [
    ['null', null],
    ['a string', JSON.stringify(connect)],
    ['a page message', events('store-1', 1)],
    ['a command still wrapped', { type: 'command', command: connect }],
    ['another tag', { ...connect, tag: 'apollo' }],
    ['another version', { ...connect, v: 0 }],
    ['from the page', { ...connect, source: 'page' }],
    ['an unknown kind', { ...connect, kind: 'eval', code: 'alert(1)' }],
    ['connect with a negative lastSeq', { ...connect, lastSeq: -1 }],
    ['connect without lastSeq', { ...connect, lastSeq: undefined }],
    [
      'invalidate without key',
      { ...extensionCommand({ kind: 'invalidate', storeId: 's', key: 'k' }), key: undefined },
    ],
    [
      'rows for more pks than one command may ask',
      {
        ...extensionCommand({ kind: 'rows', storeId: 's', table: 'Todo', pks: [] }),
        pks: Array.from({ length: MAX_ROWS_PER_REQUEST + 1 }, (_, index) => String(index)),
      },
    ],
    [
      'rows with a numeric pk',
      { ...extensionCommand({ kind: 'rows', storeId: 's', table: 'Todo', pks: [] }), pks: [1] },
    ],
    [
      'reset without storeId',
      { ...extensionCommand({ kind: 'reset', storeId: 's' }), storeId: '' },
    ],
    [
      'replay in an unknown mode',
      {
        ...extensionCommand({
          kind: 'replay',
          storeId: 's',
          replayId: 'r',
          mode: 'send',
          mutations: [],
        }),
        mode: 'eval',
      },
    ],
  ];
}

/** `events` texts the panel must drop whole (the envelope is valid), each with why. */
export function malformedEventTexts(): [string, string][] {
  const event = storeEvent(1);
  const withEffect = (effect: unknown) => JSON.stringify([{ ...event, effects: [effect] }]);
  return [
    ['not JSON', '[{"seq":1,'],
    ['not a list', JSON.stringify(event)],
    ['an event without seq', JSON.stringify([{ ...event, seq: undefined }])],
    ['an event with a fractional seq', JSON.stringify([{ ...event, seq: 1.5 }])],
    ['an event without effects', JSON.stringify([{ ...event, effects: undefined }])],
    ['an effect without type', withEffect({})],
    ['entities added without pks', withEffect({ type: 'entities-added', entity: 'Todo' })],
    [
      'entities updated whose fields are names, not changes',
      withEffect({
        type: 'entities-updated',
        entity: 'Todo',
        updates: [{ pk: '1', fields: ['title'] }],
      }),
    ],
    [
      'an action whose endpoint is not text',
      JSON.stringify([{ ...event, action: { ...event.action, endpoint: { toString: 1 } } }]),
    ],
    [
      'a stored result whose key is a number',
      withEffect({
        type: 'result-stored',
        key: 1,
        endpoint: 'note',
        expiresAt: 0,
        kept: true,
        result: 1,
      }),
    ],
    [
      'args nested 10,000 lists deep',
      `[{"seq":1,"time":1,"action":{"type":"setResponse","args":[${'['.repeat(10_000)}${']'.repeat(10_000)}]},"effects":[]}]`,
    ],
  ];
}
