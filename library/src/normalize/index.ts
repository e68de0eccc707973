export { denormalize, MemoCache } from './denormalize.js';
export {
  type EntityMeta,
  type Indexes,
  type NormalizedTables,
  type NormalizeOptions,
  type NormalizeResult,
  normalize,
  type Table,
  type Tables,
} from './normalize.js';
export * from './trace.js';
