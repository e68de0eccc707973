export { Endpoint, type EndpointOptions } from './endpoint/Endpoint.js';
export { Index, type IndexedEntity, type IndexParams } from './endpoint/Index.js';
export { Query } from './endpoint/Query.js';
export {
  AbortOptimistic,
  type EndpointInterface,
  type ErrorPolicy,
  type FetchFunction,
  type SnapshotInterface,
} from './endpoint/types.js';
export * from './normalize/index.js';
export * from './rest/index.js';
export type { Denormalize, Schema } from './schema/denormalizeTypes.js';
export * from './schema/index.js';
export * from './store/index.js';
