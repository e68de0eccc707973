// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import {
  type CommandErrorMessage,
  extensionCommand,
  MAX_MESSAGE_LENGTH,
  pageMessage,
} from '../../src/devtools/protocol/messages.js';
import {
  inspectorCommandRefusal,
  isExtensionCommand,
  isPageMessage,
} from '../../src/devtools/protocol/validate.js';
import { createResource, createStore, type Store } from '../../src/index.js';
import { Todo } from '../fixtures.js';
import { dispatchFrom, nextTask, PanelStandIn } from './support.js';

// What a window message can carry and JSON cannot: a structured clone keeps one object shared
// among many places (written out as JSON, each place is a copy), Maps, Dates, typed arrays and
// BigInts. Any script of the page can post such a message; the validators must answer it at
// once, and never let such a value into the store.

/**
 * A value 64 levels deep in which each level holds the next one twice: 2^64 paths, as JSON far
 * beyond any message. Its fields are getters that count how often they are read, and throw past
 * `readsAllowed` (a walk of every path would never end): `reads()` says how many there were.
 */
function sharedEverywhere(readsAllowed = 4 * MAX_MESSAGE_LENGTH) {
  let reads = 0;
  let node: Record<string, unknown> = {};
  for (let level = 0; level < 64; level++) {
    const next = node;
    const read = () => {
      if (++reads > readsAllowed) throw new Error('walked every path');
      return next;
    };
    node = {};
    Object.defineProperty(node, 'a', { get: read, enumerable: true });
    Object.defineProperty(node, 'b', { get: read, enumerable: true });
  }
  return { value: node, reads: () => reads };
}

describe('validators on values that share one object among many places', () => {
  it('refuse a results answer holding one, after reading a bounded part of it', () => {
    const shared = sharedEverywhere();
    const message = pageMessage({
      kind: 'results',
      storeId: 'store-1-abc',
      seq: 1,
      results: { key: { result: shared.value as never, meta: {} } },
    });
    expect(isPageMessage(message)).toBe(false);
    expect(shared.reads()).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
  });

  it('refuse an edit whose value is one, naming the value, after reading a bounded part of it', () => {
    const shared = sharedEverywhere();
    const edit = extensionCommand({
      kind: 'edit',
      storeId: 'store-1-abc',
      entity: 'Todo',
      pk: '1',
      field: 'title',
      value: shared.value as never,
    });
    expect(isExtensionCommand(edit)).toBe(false);
    expect(inspectorCommandRefusal(edit)?.problem).toBe(
      'edit: `value` must be a JSON value (at most 128 levels deep)',
    );
    expect(shared.reads()).toBeLessThanOrEqual(2 * MAX_MESSAGE_LENGTH);
  });

  it('refuse a page message with an extra field holding one (the relay would forward it whole)', () => {
    for (const kind of ['hello', 'events'] as const) {
      const shared = sharedEverywhere();
      const body =
        kind === 'hello'
          ? { kind, storeId: 'store-1-abc', storeName: '', libraryVersion: '0.1.0', seq: 0 }
          : { kind, storeId: 'store-1-abc', data: '[]' };
      expect(isPageMessage(pageMessage(body))).toBe(true);
      expect(isPageMessage({ ...pageMessage(body), extra: shared.value })).toBe(false);
      expect(isPageMessage({ ...pageMessage(body), extra: new Map() })).toBe(false);
      // A list of holes is written as that many nulls.
      expect(isPageMessage({ ...pageMessage(body), extra: new Array(2 ** 31) })).toBe(false);
      expect(shared.reads()).toBeLessThanOrEqual(2 * MAX_MESSAGE_LENGTH);
    }
  });

  it('accept an object listed twice when its JSON fits (the check is on size, not on sharing)', () => {
    const row = { id: '1', title: 'one' };
    const message = pageMessage({
      kind: 'results',
      storeId: 'store-1-abc',
      seq: 1,
      results: { a: { result: row, meta: row }, b: { result: [row, row], meta: {} } },
    });
    expect(isPageMessage(message)).toBe(true);
  });
});

describe('an edit whose value JSON cannot carry', () => {
  const Todos = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: 'http://api.test' });
  let store: Store;
  let panel: PanelStandIn;
  let connection: DevtoolsConnection;

  beforeEach(() => {
    store = createStore();
    panel = new PanelStandIn();
    connection = connectDevtools(store, { batchInterval: 1 });
    panel.connect(0, connection.storeId);
    // After connecting: the editor finds the Todo class among the endpoints the page saw run.
    store.controller.setResponse(Todos.get, { id: 1 }, { id: 1, title: 'one' });
  });

  /** An edit of Todo 1's title, with `fields` set on it. */
  const titleEdit = (fields: Record<string, unknown>): Record<string, unknown> => ({
    ...extensionCommand({
      kind: 'edit',
      storeId: connection.storeId,
      entity: 'Todo',
      pk: '1',
      field: 'title',
      value: null,
    }),
    ...fields,
  });

  /** Sends an edit of Todo 1's title with `fields`, and returns the command errors answered. */
  const editTitle = (fields: Record<string, unknown>) => answersTo(titleEdit(fields));

  async function answersTo(command: unknown) {
    const mark = panel.mark;
    dispatchFrom(window, command);
    await nextTask(5);
    return panel
      .since(mark, connection.storeId)
      .filter((message): message is CommandErrorMessage => message.kind === 'command-error')
      .map((message) => message.error);
  }

  it('the harness: a JSON value is written (so the checks below can fail)', async () => {
    expect(await editTitle({ value: { a: [1] } })).toEqual([]);
    expect(store.getState().entities.get('Todo')?.get('1')).toMatchObject({ title: { a: [1] } });
  });
  afterEach(() => {
    connection.disconnect();
    panel.restore();
  });

  it.each([
    ['a Map', new Map([['a', 1]])],
    ['a Set', new Set([1])],
    ['a Date', new Date(0)],
    ['a typed array', new Uint8Array(4)],
    ['a BigInt', 1n],
    ['a Map inside an object', { nested: [new Map()] }],
  ])('is refused, naming the value, and the store is unchanged: %s', async (_, value) => {
    const before = store.getState();
    expect(await editTitle({ value })).toEqual([
      'edit: `value` must be a JSON value (at most 128 levels deep)',
    ]);
    expect(store.getState()).toBe(before);
  });

  it('whose value throws when read is dropped or refused: nothing written, nothing thrown', async () => {
    const before = store.getState();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const command = titleEdit({});
      Object.defineProperty(command, 'value', {
        enumerable: true,
        get() {
          throw new Error('trap');
        },
      });
      expect(await answersTo(command)).toEqual([]);
      const nested = { deep: {} };
      Object.defineProperty(nested.deep, 'x', {
        enumerable: true,
        get() {
          throw new Error('trap');
        },
      });
      // Inside the value, a field that throws makes it a value that cannot be read as JSON.
      expect(await editTitle({ value: nested })).toEqual([
        'edit: `value` must be a JSON value (at most 128 levels deep)',
      ]);
      await nextTask(5);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
    expect(store.getState()).toBe(before);
  });
});
