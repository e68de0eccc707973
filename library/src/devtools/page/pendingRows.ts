import type { EntityChanges } from '../../normalize/changes.js';
import type { EntityStatics } from '../../schema/types.js';

/** How many change-set entries one table keeps as they came before folding them into pks. */
const FOLD_AT = 256;

/**
 * The rows of one entity table written since the reference index last took them: each write's
 * entry of the change-set, kept as it came (noting a load of 10k rows costs one push), folded
 * into one set of pks once they are many, so that a table nothing deletes through never holds
 * more than its own rows.
 */
export class PendingRows {
  private entries: EntityChanges[] = [];
  private readonly folded = new Set<string>();

  constructor(private readonly entityClass: EntityStatics) {}

  add(entry: EntityChanges): void {
    this.entries.push(entry);
    if (this.entries.length > FOLD_AT) {
      this.forEachEntryPk((pk) => this.folded.add(pk));
      this.entries = [];
    }
  }

  /**
   * Each pk whose row may point elsewhere than before: added ones, and updated ones whose
   * changed fields include a relation (with a schema). A pk may come more than once.
   */
  forEachPk(take: (pk: string) => void): void {
    for (const pk of this.folded) take(pk);
    this.forEachEntryPk(take);
  }

  /** The pks of the entries not folded yet (see forEachPk). */
  private forEachEntryPk(take: (pk: string) => void): void {
    const { schema } = this.entityClass;
    for (const { added, updated } of this.entries) {
      for (const pk of added) take(pk);
      for (const { pk, fields } of updated)
        if (fields.some(({ field }) => Object.hasOwn(schema, field))) take(pk);
    }
  }
}
