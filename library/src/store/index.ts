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
export {
  createStore,
  type ObserveOptions,
  retrace,
  type Store,
  type StoreOptions,
  type StoreRecord,
  type TracedRecord,
} from './createStore.js';
export { applyOptimistic, reduce } from './reducer.js';
export {
  type EndpointMeta,
  ExpiryStatus,
  initialState,
  type OptimisticEntry,
  type State,
} from './state.js';
