// `restlens/react` for the same app built against @data-client 0.9 (see measure.mjs): data-client
// 0.9 names its provider CacheProvider (DataProvider came with 0.10).
export {
  CacheProvider as DataProvider,
  useController,
  useSuspense,
} from '@data-client/react';
