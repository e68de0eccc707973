export { DataProvider, type DataProviderProps } from './DataProvider.js';
export { useCache, useController, useSuspense } from './hooks.js';
export { mountedReaderCounts } from './readers.js';
