import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createResource, createStore, SchemaError } from '../../src/index.js';
import { Note } from '../fixtures.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const Notes = createResource({ path: '/notes/:id', schema: Note });

/** The heap in use after a full collection, in bytes. */
function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** A store holding 5,000 notes, so that a state kept by mistake weighs what it would in an app. */
function filledStore() {
  const store = createStore();
  const notes = Array.from({ length: 5000 }, (_, i) => ({ id: `n-${i}`, text: 'x'.repeat(40) }));
  store.controller.setResponse(Notes.getList, {}, notes);
  return store;
}

describe('stored errors hold no state', () => {
  it('the heap stays flat over repeated failures on one key', () => {
    const { controller, getState } = filledStore();
    const fail = (i: number) =>
      controller.setResponse(Notes.get, { id: 'same' }, { text: `no id ${i}` });
    for (let i = 0; i < 50; i++) fail(i); // warm up
    const before = heapAfterCollection();
    const failures = 3000;
    for (let i = 0; i < failures; i++) fail(i);
    const perFailure = (heapAfterCollection() - before) / failures;
    expect(getState().meta.get(Notes.get.key({ id: 'same' }))?.error).toBeInstanceOf(SchemaError);
    // Only the last error is kept; each one keeping the state before it kept 1.9 KB a failure.
    expect(perFailure).toBeLessThan(150);
  });

  it('a failure on a new key keeps about the size of its error and meta', () => {
    const { controller } = filledStore();
    const fail = (i: number) =>
      controller.setResponse(Notes.get, { id: `x${i}` }, { text: `no id ${i}` });
    for (let i = 0; i < 50; i++) fail(i);
    const before = heapAfterCollection();
    const failures = 500;
    for (let i = 50; i < 50 + failures; i++) fail(i);
    const perFailure = (heapAfterCollection() - before) / failures;
    // The error (message and stack text) and its meta: about 1.4 KB. A kept state made it 4 KB.
    expect(perFailure).toBeLessThan(2.5 * 1024);
  });
});
