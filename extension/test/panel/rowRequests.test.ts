import { beforeEach, describe, expect, it } from 'vitest';
import {
  type ExtensionCommandBody,
  MAX_ROWS_PER_REQUEST,
} from '../../../library/src/devtools/protocol/messages.js';
import { RowRequests } from '../../src/panel/rowRequests.js';
import { createPanelStore, type PanelStore } from '../../src/panel/store.js';
import { hello, rows, snapshot } from '../support/messages.js';
import { keysOf } from '../support/tables.js';

/** Which rows are asked of the page, and when. */

let store: PanelStore;
let sent: ExtensionCommandBody[];
let requests: RowRequests;

/** Lets the tick end: requests made in it go out together. */
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const asked = () => sent.map((command) => (command.kind === 'rows' ? command.pks : []));

/** The store changed entities the copy had fetched: they are stale. */
function update(storeId: string, seq: number, entity: string, pks: string[]) {
  store.getState().events({
    storeId,
    events: [
      {
        seq,
        time: seq,
        action: { type: 'setResponse' },
        effects: [
          {
            type: 'entities-updated',
            entity,
            updates: pks.map((pk) => ({ pk, fields: [{ field: 'id', before: 0, after: 1 }] })),
          },
        ],
      },
    ],
  });
}

/** Store s: Todos 1 and 2 fetched (from the snapshot), 3 to `3 + unloaded - 1` not fetched. */
function open(storeId = 's', unloaded = 2) {
  const state = store.getState();
  state.hello(hello(storeId));
  state.snapshot(
    snapshot(storeId, 1, { Todo: { '1': { id: 1 }, '2': { id: 2 } }, User: { '7': { id: 7 } } }),
  );
  const pks = Array.from({ length: unloaded }, (_, index) => String(index + 3));
  state.events({
    storeId,
    events: [
      {
        seq: 2,
        time: 2,
        action: { type: 'setResponse' },
        effects: [{ type: 'entities-added', entity: 'Todo', pks }],
      },
    ],
  });
}

beforeEach(() => {
  store = createPanelStore();
  sent = [];
  requests = new RowRequests(store, (command) => sent.push(command));
});

describe('requestRows', () => {
  it('asks only for rows the copy lacks or holds stale, and pks it holds', async () => {
    open();
    requests.request('s', 'Todo', ['1', '2', '3', '4', '99']);
    await tick();
    expect(sent).toEqual([{ kind: 'rows', storeId: 's', table: 'Todo', pks: ['3', '4'] }]);

    update('s', 3, 'Todo', ['2']);
    requests.request('s', 'Todo', ['1', '2']);
    await tick();
    expect(asked()).toEqual([['3', '4'], ['2']]);
  });

  it('asks once for rows asked again while in flight, and again once answered and stale', async () => {
    open();
    requests.request('s', 'Todo', ['3']);
    requests.request('s', 'Todo', ['3', '3']);
    await tick();
    requests.request('s', 'Todo', ['3']);
    await tick();
    expect(asked()).toEqual([['3']]);

    // The answer comes; the row then changes: it is asked for again.
    store.getState().rows(rows('s', 2, 'Todo', { '3': { id: 3 } }));
    requests.answered('s', 'Todo', ['3']);
    requests.request('s', 'Todo', ['3']);
    await tick();
    expect(asked()).toEqual([['3']]);
    update('s', 3, 'Todo', ['3']);
    requests.request('s', 'Todo', ['3']);
    await tick();
    expect(asked()).toEqual([['3'], ['3']]);
  });

  it('sends what one tick asked for together: one command per table', async () => {
    open();
    update('s', 3, 'User', ['7']);
    requests.request('s', 'Todo', ['3']);
    requests.request('s', 'User', ['7']);
    requests.request('s', 'Todo', ['4', '3']);
    expect(sent).toEqual([]); // not before the tick ends
    await tick();
    expect(sent).toEqual([
      { kind: 'rows', storeId: 's', table: 'Todo', pks: ['3', '4'] },
      { kind: 'rows', storeId: 's', table: 'User', pks: ['7'] },
    ]);
  });

  it(`splits what it asks for into commands of ${MAX_ROWS_PER_REQUEST} pks`, async () => {
    open('s', 2500);
    const all = keysOf(store.getState().stores.s?.entities.Todo);
    requests.request('s', 'Todo', all);
    await tick();
    expect(asked().map((pks) => pks.length)).toEqual([1000, 1000, 500]);
    expect(asked().flat()).toEqual(all.slice(2)); // all but the two fetched
  });

  it('asks again for what was in flight once forgotten, for one store or all', async () => {
    open('a');
    open('b');
    requests.request('a', 'Todo', ['3']);
    requests.request('b', 'Todo', ['3']);
    await tick();
    requests.forget('a');
    requests.request('a', 'Todo', ['3']);
    requests.request('b', 'Todo', ['3']);
    await tick();
    expect(sent.map((command) => 'storeId' in command && command.storeId)).toEqual(['a', 'b', 'a']);
    requests.forget();
    requests.request('a', 'Todo', ['3']);
    requests.request('b', 'Todo', ['3']);
    await tick();
    expect(sent).toHaveLength(5);
  });
});
