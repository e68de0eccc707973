/**
 * What the normalizer reports while it works, in the user's terms. The shapes are those of the
 * devtools protocol's effects, so the devtools pass them on as they are; with no sink installed
 * none of them is ever constructed.
 */
export type InsertKind = 'push' | 'unshift' | 'page-merge' | 'add';

export interface EntityAdded {
  type: 'entity-added';
  /** The entity type, e.g. `Todo`. */
  entity: string;
  pk: string;
  /** The row as stored. */
  row: unknown;
}
export interface EntityUpdated {
  type: 'entity-updated';
  entity: string;
  pk: string;
  /** Fields whose stored value changed. */
  fields: string[];
  row: unknown;
}
export interface EntityInvalidated {
  type: 'entity-invalidated';
  entity: string;
  pk: string;
  /** The input the pk was computed from (e.g. the URL params when a delete answered nothing). */
  from: unknown;
  /** Whether that input is the call's URL params (a response that named nothing) or the response. */
  via: 'response' | 'url-params';
}
export interface CollectionChanged {
  type: 'collection-changed';
  /** The collection's table key, e.g. `[Todo]`. */
  collection: string;
  /** The row: serialized filtering arguments, e.g. `{"userId":"1"}`. */
  row: string;
  /** `replace` when a fetch of the whole list overwrote it. */
  kind: InsertKind | 'replace' | 'invalidate';
  lengthBefore: number;
  lengthAfter: number;
  inserted: { pk: string; index: number }[];
  duplicates: string[];
  removed: string[];
  /** The whole list, when it was replaced. */
  members?: string[];
}
export type TraceEvent = EntityAdded | EntityUpdated | EntityInvalidated | CollectionChanged;
export type TraceSink = (event: TraceEvent) => void;
