export {
  createResource,
  type Resource,
  type ResourceExtend,
  type ResourceGenerics,
  type ResourceOptions,
  type ResourceSchema,
  type ShortenPath,
} from './createResource.js';
export {
  type HookifiedResource,
  type HookResource,
  hookifyResource,
  type RequestInitHook,
} from './hookifyResource.js';
export { NetworkError } from './NetworkError.js';
export { removeLastArg, searchToString, shortenPath } from './paths.js';
export type { PathArgs, PathParamValue } from './pathTypes.js';
export { RestEndpoint } from './RestEndpoint.js';
export {
  type CollectionMembers,
  type CurrentResource,
  type CurrentResourceOptions,
  resource,
} from './resource.js';
export type {
  AnyQuery,
  EndpointExtraOptions,
  Extend,
  ExtendOptions,
  GetEndpoint,
  HttpMethod,
  MethodOf,
  MutateEndpoint,
  PageOptions,
  PaginationFieldEndpoint,
  PathOf,
  PushOptions,
  RestArgs,
  RestBody,
  RestEndpointOptions,
  RestGenerics,
  RestHasBody,
  RestParams,
  RestResult,
  RestUrlArgs,
  SchemaOf,
  SearchValue,
  SideEffectOf,
} from './types.js';
