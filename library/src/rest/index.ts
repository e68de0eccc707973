export {
  createResource,
  type Resource,
  type ResourceOptions,
} from './createResource.js';
export {
  type HookifiedResource,
  hookifyResource,
  type RequestInitHook,
} from './hookifyResource.js';
export { NetworkError } from './NetworkError.js';
export { removeLastArg, searchToString, shortenPath } from './paths.js';
export type { PathArgs } from './pathTypes.js';
export { RestEndpoint } from './RestEndpoint.js';
export type * from './types.js';
