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
export { mountedReaderCounts } from './readers.js';
