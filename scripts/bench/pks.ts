/**
 * Primary keys shaped as real apps' are. Each shape and seed gives one fixed sequence, so the
 * first n pks of a longer list are those of a shorter one: a fixture's later items are new pks.
 */
import { seededRandom } from './random.js';

export type Pk = string | number;

/**
 * - `uuid`: random (version 4) uuid strings, as clients and many databases mint them;
 * - `sparse`: distinct random integers up to SPARSE_MAX, as rows of a table that others write to
 *   (or of a sharded database) are numbered from an app's point of view;
 * - `dense`: 1, 2, 3 …, an app that holds every row of a table (JavaScript engines store such
 *   keys as an array, the one case where copying a table is cheap).
 */
export const PK_SHAPES = ['uuid', 'sparse', 'dense'] as const;
export type PkShape = (typeof PK_SHAPES)[number];

export const SPARSE_MAX = 1_000_000_000;

export function makePks(shape: 'uuid', count: number, seed?: number): string[];
export function makePks(shape: 'sparse' | 'dense', count: number, seed?: number): number[];
export function makePks(shape: PkShape, count: number, seed?: number): Pk[];
export function makePks(shape: PkShape, count: number, seed = 1): Pk[] {
  if (shape === 'dense') return Array.from({ length: count }, (_, index) => index + 1);
  if (shape === 'uuid') return Array.from({ length: count }, uuidSequence(seed));
  const random = seededRandom(seed);
  const seen = new Set<number>();
  while (seen.size < count) seen.add(1 + Math.floor(random() * SPARSE_MAX));
  return [...seen];
}

/**
 * The uuids of `makePks('uuid', …, seed)`, one per call, for as many as a fixture needs (an app
 * whose server mints one per created row).
 */
export function uuidSequence(seed = 1): () => string {
  const random = seededRandom(seed);
  return () => uuid(random);
}

/** `xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx`, V one of 8, 9, a, b (RFC 9562 version 4). */
function uuid(random: () => number): string {
  const digits = Array.from({ length: 32 }, () => Math.floor(random() * 16));
  digits[12] = 4;
  digits[16] = 8 + ((digits[16] as number) & 3);
  const hex = digits.map((digit) => digit.toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
