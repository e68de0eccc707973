export type {
  Action,
  ExpireAllAction,
  FetchAction,
  InvalidateAction,
  InvalidateAllAction,
  ResetAction,
  SetResponseAction,
  TestKey,
} from './actions.js';
export { Controller, type ResolveType, type ResponseInfo } from './Controller.js';
export { createStore, type Store, type StoreOptions, type StoreRecord } from './createStore.js';
export { ResetError } from './resetError.js';
export {
  type EndpointMeta,
  ExpiryStatus,
  initialState,
  type OptimisticEntry,
  type State,
} from './state.js';
export {
  type CollectionJSON,
  type EndpointMetaJSON,
  type EntityMetaJSON,
  type ErrorJSON,
  type StateJSON,
  stateFromJSON,
  stateToJSON,
  type TimeJSON,
} from './stateJSON.js';
