/**
 * The kinds of change to a collection row, listed once: the schemas write them, the change-set
 * carries them, and the devtools protocol accepts exactly these.
 */

/** How a merge adds to a row: the built-in kinds, or `add` for any other merge. */
export const INSERT_KINDS = ['push', 'unshift', 'page-merge', 'add'] as const;
/** One of INSERT_KINDS. */
export type InsertKind = (typeof INSERT_KINDS)[number];

/**
 * An add (INSERT_KINDS), a fetch of the whole list (`replace`), a member invalidated
 * (`invalidate`), or taken out of the list while it lives on (`remove`: `Collection.remove`, and
 * the list a `Collection.move` took it from).
 */
export const COLLECTION_CHANGE_KINDS = [
  ...INSERT_KINDS,
  'replace',
  'invalidate',
  'remove',
] as const;
/** One of COLLECTION_CHANGE_KINDS. */
export type CollectionChangeKind = (typeof COLLECTION_CHANGE_KINDS)[number];
