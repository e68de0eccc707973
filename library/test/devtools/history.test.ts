// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { connectDevtools } from '../../src/devtools/index.js';
import { History, type HistoryEntry } from '../../src/devtools/page/history.js';
import { createStore, initialState } from '../../src/index.js';
import { PanelStandIn } from './support.js';

/** An entry of seq `seq` (a replay step: the smallest entry to make). */
const entry = (seq: number): HistoryEntry => ({
  kind: 'replay',
  seq,
  time: seq,
  state: initialState(),
  replayId: 'r',
  outcome: { index: seq, endpoint: 'e', ok: true },
});

/** Adds seqs 1…count to a ring of `size`. */
function filled(size: number, count: number): History {
  const history = new History(size);
  for (let seq = 1; seq <= count; seq++) history.add(entry(seq));
  return history;
}

const seqsOf = (history: History) => history.all().map((kept) => kept.seq);

describe('History (the ring)', () => {
  it('is empty at first: no entries, no oldest seq, no entry at any seq', () => {
    const history = new History(3);
    expect(history.all()).toEqual([]);
    expect(history.oldestSeq).toBeUndefined();
    expect(history.at(1)).toBeUndefined();
  });

  it('keeps everything, oldest first, until it is full; then the last `size`', () => {
    expect(seqsOf(filled(4, 3))).toEqual([1, 2, 3]);
    expect(seqsOf(filled(4, 4))).toEqual([1, 2, 3, 4]);
    expect(seqsOf(filled(4, 5))).toEqual([2, 3, 4, 5]);
    expect(filled(4, 5).oldestSeq).toBe(2);
  });

  it('stays right after going round many times, whatever the phase: all(), oldestSeq and at()', () => {
    for (let count = 0; count <= 40; count++) {
      const history = filled(7, count);
      const expected = Array.from({ length: count }, (_, index) => index + 1).slice(-7);
      expect(seqsOf(history)).toEqual(expected);
      expect(history.oldestSeq).toBe(expected[0]);
      for (let seq = 0; seq <= count + 1; seq++)
        expect(history.at(seq)?.seq).toBe(expected.includes(seq) ? seq : undefined);
    }
  });

  it('of size 1 holds the latest entry only', () => {
    const history = filled(1, 3);
    expect(seqsOf(history)).toEqual([3]);
    expect(history.at(2)).toBeUndefined();
    expect(history.at(3)?.seq).toBe(3);
  });

  it('returns a fresh list: changing it does not change the ring', () => {
    const history = filled(3, 3);
    history.all().pop();
    expect(seqsOf(history)).toEqual([1, 2, 3]);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects a size that is not a positive integer (%s) with a RangeError',
    (size) => {
      expect(() => new History(size)).toThrow(RangeError);
      expect(() => new History(size)).toThrow(String(size));
    },
  );

  it('connectDevtools rejects a bad ringSize the same way, before it posts anything', () => {
    const store = createStore();
    const panel = new PanelStandIn();
    try {
      expect(() => connectDevtools(store, { ringSize: 0 })).toThrow(RangeError);
      expect(() => connectDevtools(store, { ringSize: 2.5 })).toThrow(RangeError);
      expect(panel.raw).toEqual([]);
    } finally {
      panel.restore();
    }
  });
});
