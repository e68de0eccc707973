/**
 * Where a sample meets the young generation's next collection. A minor collection before each
 * sample empties the young generation, so every sample starts at the same point of its cycle:
 * a side whose batch allocates a little more than the young generation holds then pays a
 * scavenge in every sample, and one that allocates a little less in none, and their ratio
 * measures that edge rather than what they allocate. Filling a random share of it afterwards
 * (untimed, with garbage) puts each sample's first scavenge at a random point, so that each side
 * pays, on average, for the share of a scavenge its own allocation causes, as in an app.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { seededRandom } from './random.js';

/** The garbage is made in blocks of this many slots (small enough to be young objects). */
const BLOCK_SLOTS = 1024;
/** Bytes one block takes: its slots (8 bytes each) and a little header. */
const BLOCK_BYTES = BLOCK_SLOTS * 8 + 16;

const random = seededRandom(0x9c);
/** The latest block, kept only so that the garbage is not optimized away. */
let lastBlock: unknown[] = [];

/** Bytes that can be allocated before the next scavenge. */
function untilNextScavenge(): number {
  const space = getHeapSpaceStatistics().find(({ space_name }) => space_name === 'new_space');
  return space?.space_available_size ?? 0;
}

/**
 * Collects the young generation (the previous sample's and the undo's garbage) and fills a
 * random share of it with garbage.
 */
export function startAtRandomPointOfYoungGeneration(): void {
  globalThis.gc?.({ type: 'minor' });
  const blocks = Math.floor((random() * untilNextScavenge()) / BLOCK_BYTES);
  for (let block = 0; block < blocks; block++) lastBlock = new Array(BLOCK_SLOTS).fill(block);
  if (lastBlock.length !== BLOCK_SLOTS && blocks > 0) throw new Error('garbage block lost');
}
