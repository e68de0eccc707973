import { isInvalid } from '../schema/invalid.js';
import type { EntityStatics } from '../schema/types.js';
import { indexKey, type TablesDraft } from './tables.js';

/**
 * Writes the entity's `static indexes` (the fields it is also found by) for its new `row`:
 * each value finds its pk, and a value it no longer has finds it no more.
 */
export function writeIndexes(
  indexes: TablesDraft<string>,
  entity: EntityStatics,
  pk: string,
  row: Record<string, unknown>,
  existing: Record<string, unknown> | undefined,
): void {
  for (const field of entity.indexes ?? []) {
    const value = row[field];
    const before = existing === undefined || isInvalid(existing) ? undefined : existing[field];
    // A value the entity no longer has must not find it (`get({ username })` of its old name,
    // an Index): data-client drops it from the index too.
    if (before !== undefined && before !== null) {
      const old = indexKey(field, before);
      if (old !== indexKey(field, value) && indexes.get(entity.key, old) === pk)
        indexes.set(entity.key, old, undefined);
    }
    if (value !== undefined && value !== null) indexes.set(entity.key, indexKey(field, value), pk);
  }
}
