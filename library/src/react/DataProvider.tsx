import { type ReactNode, useState } from 'react';
import { createStore, type Store } from '../store/createStore.js';
import { StoreContext } from './context.js';

export interface DataProviderProps {
  /** The store to use; a new one is created when none is given. */
  store?: Store;
  children?: ReactNode;
}

/** Makes a store available to `useSuspense`, `useCache` and `useController` below it. */
export function DataProvider({ store, children }: DataProviderProps) {
  const [ownStore] = useState(() => store ?? createStore());
  return <StoreContext.Provider value={store ?? ownStore}>{children}</StoreContext.Provider>;
}
