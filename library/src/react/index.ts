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
export { mountedReaderCounts } from './readers.js';
