/**
 * Heap after repeated mounts and unmounts: each round opens a fresh page per library, mounts and
 * unmounts the list once (what the first mount compiles and caches is not growth), reads the heap
 * in use after collecting garbage, mounts and unmounts `cycles` more times (each mount with a new
 * provider and store) and reads it again. What a library keeps after its provider is gone shows
 * as growth.
 */
import type { Browser } from '@playwright/test';
import { median } from '../stats.js';
import { LIBRARIES, type Library, perLibrary } from './build.js';
import { openPage } from './page.js';

export interface HeapResult {
  /** Bytes in use after one mount and unmount (median over the rounds). */
  before: number;
  /** Bytes in use after the cycles (median over the rounds). */
  after: number;
  rounds: { before: number; after: number }[];
}

export async function measureMemory(
  browser: Browser,
  urls: Record<Library, string>,
  cycles: number,
  rounds: number,
): Promise<Record<Library, HeapResult>> {
  const measured = perLibrary((): HeapResult['rounds'] => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? LIBRARIES : [...LIBRARIES].reverse();
    for (const library of order) {
      const page = await openPage(browser, library, urls[library]);
      await page.call('mountCycles', 1);
      const before = await page.heapUsed();
      await page.call('mountCycles', cycles);
      const after = await page.heapUsed();
      await page.close();
      measured[library].push({ before, after });
    }
  }
  return perLibrary((library) => {
    const sides = measured[library];
    return {
      before: median(sides.map((side) => side.before)),
      after: median(sides.map((side) => side.after)),
      rounds: sides,
    };
  });
}
