import { type ReactElement, type ReactNode, useEffect, useState } from 'react';
import { connectDevtools, type DevtoolsOptions } from '../devtools/page/bridge.js';
import { createStore, type Store } from '../store/createStore.js';
import { StoreContext } from './context.js';

/** Props of `DataProvider`. */
export interface DataProviderProps {
  /** The store to use; a new one is created when none is given. */
  store?: Store;
  /**
   * Connects the store to the RestLens DevTools panel (development builds only: a build with
   * `NODE_ENV=production` leaves the devtools code out). `false` turns it off.
   */
  devtools?: boolean | DevtoolsOptions;
  children?: ReactNode;
}

/**
 * Makes a store available to `useSuspense`, `useCache` and `useController` below it. (Typed
 * `ReactElement` rather than `JSX.Element`, which older @types/react lack under `React.JSX`.)
 */
export function DataProvider({
  store,
  devtools = true,
  children,
}: DataProviderProps): ReactElement {
  const [ownStore] = useState(() => store ?? createStore());
  const active = store ?? ownStore;
  useEffect(() => {
    // A whole block under the NODE_ENV test, so that a production build (which replaces
    // `process.env.NODE_ENV`) drops it, and with it all of the devtools code.
    if (process.env.NODE_ENV !== 'production') {
      if (devtools === false) return;
      return connectDevtools(active, devtools === true ? {} : devtools).disconnect;
    }
  }, [active, devtools]);
  return <StoreContext.Provider value={active}>{children}</StoreContext.Provider>;
}
