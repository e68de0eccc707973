import {
  type EventsMessage,
  type ExtensionCommand,
  extensionCommand,
  type HelloMessage,
  pageMessage,
  type SnapshotMessage,
  type StoreEvent,
} from '../../../library/src/devtools/protocol.js';

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
      { type: 'result-stored', key: `note [${seq}]`, endpoint: 'note', result: seq, expiresAt: 0 },
    ],
  };
}

export function events(storeId: string, ...seqs: number[]): EventsMessage {
  return pageMessage({ kind: 'events', storeId, events: seqs.map(storeEvent) }) as EventsMessage;
}

export function snapshot(storeId = 'store-1', seq = 0): SnapshotMessage {
  return pageMessage({
    kind: 'snapshot',
    storeId,
    seq,
    index: 0,
    count: 1,
    data: JSON.stringify({
      entities: {},
      endpoints: {},
      meta: {},
      entitiesMeta: {},
      indexes: {},
      optimistic: [],
    }),
  }) as SnapshotMessage;
}

/** One valid command of every kind. */
export function everyCommand(storeId = 'store-1'): ExtensionCommand[] {
  return [
    extensionCommand({ kind: 'connect', lastSeq: 0 }),
    extensionCommand({ kind: 'connect', storeId, lastSeq: 12 }),
    extensionCommand({ kind: 'disconnect' }),
    extensionCommand({ kind: 'snapshot', storeId }),
    extensionCommand({ kind: 'invalidate', storeId, key: 'getTodos {}' }),
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

/** Messages that look like page messages but are not valid ones, each with why. */
export function invalidPageMessages(): [string, unknown][] {
  const valid = events('store-1', 1);
  const event = storeEvent(1);
  return [
    ['null', null],
    ['a string', JSON.stringify(valid)],
    ['a number', 42],
    ['an array', [valid]],
    ['no tag', { ...valid, tag: undefined }],
    ['another tag', { ...valid, tag: 'redux-devtools' }],
    ['another version', { ...valid, v: 2 }],
    ['the version as a string', { ...valid, v: '1' }],
    ['no source', { ...valid, source: undefined }],
    ['a command echoed back', extensionCommand({ kind: 'connect', lastSeq: 0 })],
    ['a page message marked as from the extension', { ...valid, source: 'extension' }],
    ['an unknown kind', { ...valid, kind: 'eval' }],
    ['hello without storeId', { ...hello(), storeId: undefined }],
    ['hello with an empty storeId', { ...hello(), storeId: '' }],
    ['hello with a numeric storeId', { ...hello(), storeId: 1 }],
    ['hello with a negative seq', { ...hello(), seq: -1 }],
    ['events that are not a list', { ...valid, events: event }],
    ['an event without seq', { ...valid, events: [{ ...event, seq: undefined }] }],
    ['an event with a fractional seq', { ...valid, events: [{ ...event, seq: 1.5 }] }],
    ['an event without effects', { ...valid, events: [{ ...event, effects: undefined }] }],
    ['an effect without type', { ...valid, events: [{ ...event, effects: [{}] }] }],
    ['a snapshot chunk past its count', { ...snapshot(), index: 1, count: 1 }],
    ['a snapshot chunk that is not text', { ...snapshot(), data: { entities: {} } }],
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
