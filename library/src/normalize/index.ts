export type {
  ChangeSet,
  CollectionChange,
  EntityChanges,
  EntityUpdate,
  FieldChange,
  InsertedRun,
  Invalidation,
  ResultChange,
} from './changes.js';
export { denormalize, MemoCache } from './denormalize.js';
export { MemberList } from './memberList.js';
export {
  MAX_NESTING,
  type NormalizeOptions,
  type NormalizeResult,
  normalize,
} from './normalize.js';
export { MapDraft, PersistentMap } from './persistentMap.js';
export {
  type EntityMeta,
  emptyTables,
  type NormalizedTables,
  type Table,
  type Tables,
} from './tables.js';
