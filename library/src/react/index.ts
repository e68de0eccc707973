// The provider, boundaries and hooks; and, as data-client 0.9's @data-client/react, the names it
// re-exports from @data-client/core that RestLens has (Controller, ExpiryStatus, State, …): apps
// import them from the React package.
export type { EndpointInterface, FetchFunction } from '../endpoint/types.js';
export type { NetworkError } from '../rest/NetworkError.js';
export type { EndpointExtraOptions } from '../rest/types.js';
export type { Denormalize, Schema } from '../schema/denormalizeTypes.js';
export type { FetchAction, InvalidateAction, ResetAction } from '../store/actions.js';
export { Controller, type ResolveType } from '../store/Controller.js';
export { ExpiryStatus, type State } from '../store/state.js';
export { AsyncBoundary, type AsyncBoundaryProps } from './AsyncBoundary.js';
export { CacheProvider, type DevToolsPosition, type ProviderProps } from './CacheProvider.js';
export { DataProvider, type DataProviderProps } from './DataProvider.js';
export {
  type DataLoadingError,
  type ErrorTypes,
  useCache,
  useController,
  useDLE,
  useError,
  useFetch,
  useLive,
  useSubscription,
  useSuspense,
} from './hooks.js';
export {
  type ErrorFallbackProps,
  NetworkErrorBoundary,
  type NetworkErrorBoundaryProps,
} from './NetworkErrorBoundary.js';
export { useCancelling } from './useCancelling.js';
export { useDebounce } from './useDebounce.js';
export { useLoading } from './useLoading.js';
export { useQuery } from './useQuery.js';
