import { createContext, useContext } from 'react';
import type { Store } from '../store/createStore.js';

export const StoreContext = createContext<Store | null>(null);

/** The store of the nearest DataProvider. */
export function useStore(): Store {
  const store = useContext(StoreContext);
  if (!store) throw new Error('RestLens hooks must be used inside <DataProvider>');
  return store;
}
