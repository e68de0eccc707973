// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { connectDevtools } from '../../src/devtools/index.js';
import { Ring } from '../../src/devtools/ring.js';
import { createStore } from '../../src/index.js';
import { PanelStandIn } from './support.js';

/** Pushes 1…count into a ring of `capacity`. */
function filled(capacity: number, count: number): Ring<number> {
  const ring = new Ring<number>(capacity);
  for (let item = 1; item <= count; item++) ring.push(item);
  return ring;
}

describe('Ring', () => {
  it('is empty at first: no items, no oldest', () => {
    const ring = new Ring<string>(3);
    expect(ring.toArray()).toEqual([]);
    expect(ring.oldest).toBeUndefined();
  });

  it('keeps everything, oldest first, until it is full', () => {
    const ring = filled(4, 3);
    expect(ring.toArray()).toEqual([1, 2, 3]);
    expect(ring.oldest).toBe(1);
    ring.push(4);
    expect(ring.toArray()).toEqual([1, 2, 3, 4]);
    expect(ring.oldest).toBe(1);
  });

  it('then keeps the last N in order, dropping the oldest', () => {
    const ring = filled(4, 5);
    expect(ring.toArray()).toEqual([2, 3, 4, 5]);
    expect(ring.oldest).toBe(2);
    ring.push(6);
    ring.push(7);
    expect(ring.toArray()).toEqual([4, 5, 6, 7]);
    expect(ring.oldest).toBe(4);
  });

  it('stays right after going round many times, whatever the phase', () => {
    for (let count = 0; count <= 40; count++) {
      const ring = filled(7, count);
      const expected = Array.from({ length: count }, (_, index) => index + 1).slice(-7);
      expect(ring.toArray()).toEqual(expected);
      expect(ring.oldest).toBe(expected[0]);
    }
  });

  it("replaceEach puts each item's replacement in its place, in order, whatever the phase", () => {
    const ring = filled(4, 6);
    ring.replaceEach((item) => item * 10);
    expect(ring.toArray()).toEqual([30, 40, 50, 60]);
    ring.push(7);
    expect(ring.toArray()).toEqual([40, 50, 60, 7]);
  });

  it('of size 1 holds the latest item only', () => {
    const ring = filled(1, 3);
    expect(ring.toArray()).toEqual([3]);
    expect(ring.oldest).toBe(3);
  });

  it('keeps falsy items (null, 0) in their place', () => {
    const ring = new Ring<number | null>(3);
    ring.push(null);
    ring.push(0);
    expect(ring.toArray()).toEqual([null, 0]);
    expect(ring.oldest).toBeNull();
  });

  it('returns a fresh list: changing it does not change the ring', () => {
    const ring = filled(3, 3);
    ring.toArray().push(99);
    expect(ring.toArray()).toEqual([1, 2, 3]);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects a size that is not a positive integer (%s) with a RangeError',
    (size) => {
      expect(() => new Ring(size)).toThrow(RangeError);
      expect(() => new Ring(size)).toThrow(String(size));
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
