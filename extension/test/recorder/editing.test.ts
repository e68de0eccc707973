import { describe, expect, it } from 'vitest';
import { moveEntry, type RecordedEntry, removeEntry } from '../../src/panel/recorder/entries.js';
import { createPanelStore } from '../../src/panel/store.js';
import { hello, snapshot } from '../support/messages.js';
import { mutationEvent } from './support.js';

const list = (...names: string[]): RecordedEntry[] =>
  names.map((endpoint, index) => ({ id: index + 1, endpoint, args: [] }));
const names = (entries: readonly RecordedEntry[]) => entries.map((entry) => entry.endpoint);

describe('moveEntry and removeEntry', () => {
  it('moves an entry up and down by one, and not past either end', () => {
    const entries = list('a', 'b', 'c');
    expect(names(moveEntry(entries, 2, -1))).toEqual(['b', 'a', 'c']);
    expect(names(moveEntry(entries, 2, 1))).toEqual(['a', 'c', 'b']);
    expect(names(moveEntry(entries, 1, 5))).toEqual(['b', 'c', 'a']);
    expect(moveEntry(entries, 1, -1)).toBe(entries);
    expect(moveEntry(entries, 3, 1)).toBe(entries);
    expect(moveEntry(entries, 42, 1)).toBe(entries);
    expect(names(entries)).toEqual(['a', 'b', 'c']); // never in place
  });

  it('removes by id, leaving the others in order', () => {
    const entries = list('a', 'b', 'c');
    expect(names(removeEntry(entries, 2))).toEqual(['a', 'c']);
    expect(names(removeEntry(entries, 42))).toEqual(['a', 'b', 'c']);
  });
});

/** A panel store that has recorded `endpoints`, in order, from store s1. */
function recorded(...endpoints: string[]) {
  const store = createPanelStore();
  const state = store.getState();
  state.hello(hello('s1'));
  state.snapshot(snapshot('s1'));
  state.setRecording(true);
  const events = endpoints.map((endpoint, index) => ({
    ...mutationEvent(endpoint, [{ id: index }], { id: index }),
    seq: index + 1,
  }));
  state.events({ storeId: 's1', events });
  return store;
}

describe('the recorder slice of the panel store', () => {
  it('records the live events it applies, once each, even when the page sends them again', () => {
    const store = recorded('Todo.update', 'Todo.delete');
    const again = store.getState().stores.s1?.events ?? [];
    store.getState().events({ storeId: 's1', events: again });
    // History (sent with a snapshot, from before the panel looked) is not recorded either.
    store.getState().events({
      storeId: 's1',
      events: [{ ...mutationEvent('Todo.update', [], {}), seq: 3 }],
      history: true,
    });
    expect(names(store.getState().recorder.entries)).toEqual(['Todo.update', 'Todo.delete']);
  });

  it('pauses, edits, and clears', () => {
    const store = recorded('a', 'b', 'c');
    const state = store.getState();
    const [a, b, c] = state.recorder.entries as [RecordedEntry, RecordedEntry, RecordedEntry];
    state.moveRecorded(c.id, -1);
    expect(names(store.getState().recorder.entries)).toEqual(['a', 'c', 'b']);
    state.removeRecorded(a.id);
    expect(names(store.getState().recorder.entries)).toEqual(['c', 'b']);
    state.setRecording(false);
    state.events({ storeId: 's1', events: [{ ...mutationEvent('d', [], {}), seq: 4 }] });
    expect(names(store.getState().recorder.entries)).toEqual(['c', 'b']);
    expect(b.id).toBe(2);
    state.clearRecording();
    expect(store.getState().recorder.entries).toEqual([]);
  });

  it('puts a saved recording back before what was recorded since the panel opened', () => {
    const store = recorded('live');
    store.getState().restoreRecorded([
      { endpoint: 'saved 1', args: [] },
      { endpoint: 'saved 2', args: [] },
    ]);
    const { entries } = store.getState().recorder;
    expect(names(entries)).toEqual(['saved 1', 'saved 2', 'live']);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(3);
  });

  it('replaces the list on import, and leaves the list alone while a replay runs', () => {
    const store = recorded('a', 'b');
    store.getState().startReplay({ mode: 'apply', stepwise: true, stopOnError: false });
    const command = store.getState().takeReplayCommand();
    expect(command?.mutations).toEqual([
      { endpoint: 'a', args: [{ id: 0 }], response: { id: 0 }, time: expect.any(Number) },
    ]);
    const before = store.getState().recorder.entries;
    store.getState().removeRecorded(before[0]?.id ?? 0);
    store.getState().moveRecorded(before[1]?.id ?? 0, -1);
    store.getState().replaceRecorded([{ endpoint: 'imported', args: [] }]);
    store.getState().clearRecording();
    expect(store.getState().recorder.entries).toBe(before);

    store.getState().stopReplay();
    store.getState().replaceRecorded([{ endpoint: 'imported', args: [] }]);
    expect(names(store.getState().recorder.entries)).toEqual(['imported']);
    expect(store.getState().recorder.replay).toBeUndefined();
  });

  it('stops a replay when the page reloads: its results would never come', () => {
    const store = recorded('a');
    store.getState().contentConnected('page-1');
    store.getState().startReplay({ mode: 'apply', stepwise: false, stopOnError: false });
    store.getState().takeReplayCommand();
    store.getState().contentConnected('page-2');
    expect(store.getState().recorder.replay).toMatchObject({
      status: 'stopped',
      stopReason: 'the page was reloaded',
    });
    expect(names(store.getState().recorder.entries)).toEqual(['a']); // the list stays
  });
});
