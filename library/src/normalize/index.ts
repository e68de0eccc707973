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
export {
  type NormalizeOptions,
  type NormalizeResult,
  normalize,
} from './normalize.js';
export type {
  EntityMeta,
  NormalizedTables,
  Table,
  Tables,
} from './tables.js';
