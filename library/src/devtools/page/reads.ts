import { MemberList } from '../../normalize/memberList.js';
import type { State } from '../../store/state.js';
import type { Encoded, StoredResult } from '../protocol/messages.js';
import { encode } from './encode.js';

/** One `rows` (or `results`) answer stays this far below the largest message, whatever it holds. */
const READ_LENGTH = 6 * 1024 * 1024;

/** The limits of each of `count` values in one read's answer: together within READ_LENGTH. */
const limitsPerItem = (count: number) => ({
  maxSize: Math.floor(READ_LENGTH / Math.max(1, count)),
});

/** A stored row as JSON sees it: a collection row is the list of its members' pks. */
function plainRow(row: unknown): unknown {
  return row instanceof MemberList ? row.toArray() : row;
}

/** The rows of `table` a panel asked for, encoded (null for a pk the state does not hold). */
export function rowsIn(
  state: State,
  table: string,
  pks: readonly string[],
): Record<string, Encoded> {
  const rows = state.entities.get(table);
  const limits = limitsPerItem(pks.length);
  const answer: Record<string, Encoded> = Object.create(null);
  for (const pk of pks) {
    const row = rows?.get(pk);
    answer[pk] = row === undefined ? null : encode(plainRow(row), limits);
  }
  return answer;
}

/** The stored results a panel asked for, normalized, with their meta (null for an unknown key). */
export function resultsIn(
  state: State,
  keys: readonly string[],
): Record<string, StoredResult | null> {
  // Each result comes with its meta: two values an item.
  const limits = limitsPerItem(2 * keys.length);
  const results: Record<string, StoredResult | null> = Object.create(null);
  for (const key of keys) {
    const result = state.endpoints.get(key);
    const meta = state.meta.get(key);
    results[key] =
      result === undefined && meta === undefined
        ? null
        : { result: encode(result, limits), meta: encode(meta, limits) };
  }
  return results;
}
