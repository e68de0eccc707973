import { describe, expect, it } from 'vitest';
import { makePks, SPARSE_MAX } from './pks.js';

describe('makePks', () => {
  it('makes distinct version 4 uuids', () => {
    const pks = makePks('uuid', 1000);
    expect(new Set(pks).size).toBe(1000);
    for (const pk of pks)
      expect(pk).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('makes distinct sparse integers spread over their range', () => {
    const pks = makePks('sparse', 1000);
    expect(new Set(pks).size).toBe(1000);
    for (const pk of pks) {
      expect(Number.isInteger(pk)).toBe(true);
      expect(pk).toBeGreaterThanOrEqual(1);
      expect(pk).toBeLessThanOrEqual(SPARSE_MAX);
    }
    expect(Math.max(...pks) - Math.min(...pks)).toBeGreaterThan(SPARSE_MAX / 2);
  });

  it('makes dense integers from 1', () => {
    expect(makePks('dense', 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it.each(['uuid', 'sparse'] as const)('makes one %s sequence per seed', (shape) => {
    const longer = makePks(shape, 200, 7);
    expect(makePks(shape, 100, 7)).toEqual(longer.slice(0, 100));
    expect(makePks(shape, 100, 8)).not.toEqual(longer.slice(0, 100));
  });
});
