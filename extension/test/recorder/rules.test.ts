import { describe, expect, it } from 'vitest';
import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { entryFromEvent, isRecordable, toMutation } from '../../src/panel/recorder/entries.js';
import { newReplayRun, takeCommand } from '../../src/panel/recorder/replay.js';
import {
  emptyRecorder,
  MAX_RECORDED,
  observeEvents,
  type RecorderState,
} from '../../src/panel/recorder/slice.js';
import { mutationEvent, replayResultEvent, storeEvent } from './support.js';

const recording = (): RecorderState => ({ ...emptyRecorder(), recording: true });

describe('what the Recorder keeps', () => {
  it('keeps every kind of mutation answer: push, unshift, update, partialUpdate, delete, batch delete', () => {
    for (const endpoint of [
      'Todo.getList.push',
      'Todo.getList.unshift',
      'Todo.update',
      'Todo.partialUpdate',
      'Todo.delete',
      'Todo.deleteMany',
    ])
      expect(isRecordable(mutationEvent(endpoint, [{ id: 1 }], { id: 1 })), endpoint).toBe(true);
  });

  it('keeps getPage, a GET that grows a list, but no other read', () => {
    const read = (endpoint: string) =>
      storeEvent({ endpoint, mutation: false, method: 'GET', args: [{ page: 2 }], response: [] });
    expect(isRecordable(read('Todo.getList.getPage'))).toBe(true);
    expect(isRecordable(read('Todo.getList'))).toBe(false);
    expect(isRecordable(read('Todo.get'))).toBe(false);
    expect(isRecordable(read('Todo.getPageCount'))).toBe(false); // not the `.getPage` member
  });

  it('keeps a getPage recorded with its path (another endpoint of its name goes elsewhere)', () => {
    const read = (endpoint: string) =>
      storeEvent({ endpoint, mutation: false, method: 'GET', args: [{ page: 2 }], response: [] });
    expect(isRecordable(read('Todo.getList.getPage@/todos-summary'))).toBe(true);
    expect(isRecordable(read('Todo.getList@/todos-summary'))).toBe(false);
    expect(isRecordable(read('Todo.getPageCount@/todos/count'))).toBe(false);
  });

  it('skips errors, rolled-back optimistic updates and the optimistic apply; keeps the commit', () => {
    const error = { '@t': 'error', name: 'NetworkError', message: '500', status: 500 } as const;
    const args: Encoded[] = [{ id: 4 }, { title: 'x' }];
    expect(isRecordable(storeEvent({ endpoint: 'Todo.update', mutation: true, args, error }))).toBe(
      false,
    );
    const optimistic = { endpoint: 'Todo.partialUpdate', mutation: true, args } as const;
    expect(isRecordable(storeEvent({ ...optimistic, type: 'fetch', optimistic: 'applied' }))).toBe(
      false,
    );
    expect(
      isRecordable(storeEvent({ ...optimistic, optimistic: 'rolled-back', response: { id: 4 } })),
    ).toBe(false);
    expect(
      isRecordable(storeEvent({ ...optimistic, optimistic: 'committed', response: { id: 4 } })),
    ).toBe(true);
  });

  it('skips actions that are not a stored answer, and events without endpoint or args', () => {
    for (const type of ['invalidate', 'invalidateAll', 'expireAll', 'reset', 'replay'] as const)
      expect(isRecordable(storeEvent({ type, endpoint: 'Todo.update', mutation: true }))).toBe(
        false,
      );
    expect(isRecordable(storeEvent({ mutation: true, response: 1 }))).toBe(false);
    expect(
      isRecordable(storeEvent({ endpoint: 'Todo.update', mutation: true, args: undefined })),
    ).toBe(false);
  });

  it('keeps endpoint, encoded args, body, response, time and request; exports only what replay needs', () => {
    const date = { '@t': 'date', v: '2025-01-01T00:00:00.000Z' } as const;
    const event = mutationEvent('Todo.getList.push', [{ userId: 1 }, { title: 'new', due: date }], {
      id: 5,
      due: date,
    });
    const entry = entryFromEvent(event);
    expect(entry).toEqual({
      endpoint: 'Todo.getList.push',
      args: [{ userId: 1 }, { title: 'new', due: date }], // still encoded
      body: { title: 'new', due: date },
      response: { id: 5, due: date },
      time: event.time,
      method: 'POST',
    });
    expect(toMutation(entry)).toEqual({
      endpoint: 'Todo.getList.push',
      args: [{ userId: 1 }, { title: 'new', due: date }],
      response: { id: 5, due: date },
      time: event.time,
    });
    // An answer that was empty is still an answer (`apply` writes it).
    const deleted = entryFromEvent(mutationEvent('Todo.delete', [{ id: 3 }], ''));
    expect(toMutation(deleted)).toHaveProperty('response', '');
  });
});

describe('observeEvents', () => {
  const push = () => mutationEvent('Todo.getList.push', [{}, { title: 'a' }], { id: 1 });

  it('records only while recording, and only the selected store', () => {
    const events = [push(), push()];
    expect(observeEvents(emptyRecorder(), true, events).entries).toEqual([]);
    expect(observeEvents(recording(), false, events).entries).toEqual([]);
    const recorded = observeEvents(recording(), true, events);
    expect(recorded.entries.map((entry) => entry.id)).toEqual([1, 2]);
    expect(recorded.nextId).toBe(3);
  });

  it('returns the same state when nothing was kept (no needless render)', () => {
    const state = recording();
    const read = storeEvent({ endpoint: 'Todo.get', mutation: false, response: {} });
    expect(observeEvents(state, true, [read])).toBe(state);
  });

  it('does not record the mutations a replay makes (tagged with its id), only the others', () => {
    const started = newReplayRun('r', 's1', [{ id: 9, mutation: { endpoint: 'x', args: [] } }], {
      mode: 'apply',
      stepwise: false,
      stopOnError: false,
    });
    const [run, command] = takeCommand(started);
    const state: RecorderState = { ...recording(), replay: run };
    // The page tags what a replay did with the replay's id.
    const replayed = push();
    replayed.action.replayId = command?.replayId;
    const mine = mutationEvent('Todo.update', [{ id: 1 }, { title: 'mine' }], { id: 1 });
    const next = observeEvents(state, true, [
      replayed,
      replayResultEvent(command?.replayId ?? '', 0, true),
      mine,
    ]);
    expect(next.entries.map((entry) => entry.endpoint)).toEqual(['Todo.update']);
    expect(next.replay?.status).toBe('done');
    // While the replay runs, a mutation it did not make is recorded.
    expect(observeEvents(state, true, [push()]).entries).toHaveLength(1);
  });

  it('counts what it could not keep once the list is full', () => {
    const full: RecorderState = {
      ...recording(),
      entries: Array.from({ length: MAX_RECORDED }, (_, index) => ({
        id: index + 1,
        endpoint: 'Todo.delete',
        args: [],
      })),
      nextId: MAX_RECORDED + 1,
    };
    const next = observeEvents(full, true, [push(), push()]);
    expect(next.entries).toHaveLength(MAX_RECORDED);
    expect(next.dropped).toBe(2);
  });
});
