/**
 * V8 tunes each call site to the object shapes it has seen, and some operations, table copies in
 * particular, get many times slower once a site has seen many. An app with a handful of entity
 * types is past that point; a process that only ever saw todos is not, and there a library's
 * numbers depend on which workloads happened to run before. So before any timing, both libraries
 * get the same handful of other entity types through a store, as an app would.
 */
import type { Contender } from './contenders/types.js';
import { makeRecords, OTHER_TYPES } from './data.js';

/** Returns what the last round read back (list lengths by type and group), to compare libraries. */
export function exerciseOtherTypes(contender: Contender, rounds = 3): Record<string, number> {
  const lengths: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    const store = contender.createOtherTypesStore();
    for (const type of OTHER_TYPES) {
      const records = makeRecords(type, 60);
      for (const group of ['a', 'b']) store.setList(type, group, records.slice(0, 50));
      for (const record of records.slice(50)) store.push(type, 'a', record);
      store.remove(type, records[0] as object);
      for (const group of ['a', 'b']) {
        lengths[`${type.key} ${group}`] = store.readList(type, group)?.length ?? -1;
      }
    }
  }
  return lengths;
}
