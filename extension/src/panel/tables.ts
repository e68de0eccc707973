// The extension imports from the library only its devtools protocol (DESIGN.md), with this one
// exception: the persistent map, a data structure that depends on nothing else in the library.
// The panel's copy of a store keeps its tables in it, so that applying a batch of events costs
// what the batch changes, not a copy of tables of 100k rows.
import { type MapDraft, PersistentMap } from '../../../library/src/normalize/persistentMap.js';
import { copyDict, type Dict } from './dict.js';

export { type MapDraft, PersistentMap };

/**
 * Tables by name (entity types, collections) while a batch changes them: each table is drafted
 * on its first edit, so the batch writes into it in place, and the tables it did not touch stay
 * as they were.
 */
export class TableDrafts<V> {
  private readonly drafts = new Map<string, MapDraft<V>>();

  constructor(private readonly tables: Readonly<Dict<PersistentMap<V>>>) {}

  /**
   * The draft of table `name`. A table there is none of yet starts from a new empty map, not a
   * shared one: maps derived from one map share its numbering of keys, which would then hold the
   * keys of every table.
   */
  edit(name: string): MapDraft<V> {
    let draft = this.drafts.get(name);
    if (!draft) {
      draft = (this.tables[name] ?? PersistentMap.empty<V>()).draft();
      this.drafts.set(name, draft);
    }
    return draft;
  }

  /**
   * The tables once the batch is over: the record it started from when no table changed (the
   * views keep what they made of it), a new record otherwise, the untouched tables in it as they
   * were. The drafts are not usable after it.
   */
  finish(): Dict<PersistentMap<V>> {
    const finished = [...this.drafts].map(([name, draft]) => [name, draft.finish()] as const);
    if (finished.every(([name, table]) => this.tables[name] === table)) return this.tables;
    const tables = copyDict(this.tables);
    for (const [name, table] of finished) tables[name] = table;
    return tables;
  }
}
