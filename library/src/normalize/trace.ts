/**
 * What the normalizer reports while it works, in the user's terms. The devtools build their
 * events on these; with no sink installed none of them is ever constructed.
 */
export type InsertKind = 'push' | 'unshift' | 'page-merge' | 'add';

export interface EntityAdded {
  type: 'entity-added';
  key: string;
  pk: string;
}
export interface EntityUpdated {
  type: 'entity-updated';
  key: string;
  pk: string;
  /** Fields whose stored value changed. */
  fields: string[];
}
export interface EntityInvalidated {
  type: 'entity-invalidated';
  key: string;
  pk: string;
  /** The input the pk was computed from (e.g. the URL params when a delete answered nothing). */
  input: unknown;
}
export interface CollectionChanged {
  type: 'collection-changed';
  /** The collection's table key, e.g. `[Todo]`. */
  key: string;
  /** The row: serialized filtering arguments, e.g. `{"userId":"1"}`. */
  pk: string;
  /** `replace` when a fetch of the whole list overwrote it. */
  kind: InsertKind | 'replace' | 'invalidate';
  lengthBefore: number;
  lengthAfter: number;
  inserted: { pk: string; index: number }[];
  duplicates: string[];
  removed: string[];
}
export type TraceEvent = EntityAdded | EntityUpdated | EntityInvalidated | CollectionChanged;
export type TraceSink = (event: TraceEvent) => void;
