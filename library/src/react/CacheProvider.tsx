import { type ReactElement, type ReactNode, useState } from 'react';
import type { Controller } from '../store/Controller.js';
import { createStore } from '../store/createStore.js';
import type { State } from '../store/state.js';
import { DataProvider } from './DataProvider.js';

/** Where data-client 0.9 places its devtools button. */
export type DevToolsPosition = 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left';

/** data-client 0.9's CacheProvider props, as far as RestLens has a counterpart. */
export interface ProviderProps {
  children?: ReactNode;
  /**
   * Start from this state: a RestLens State (another store's `getState()`), not a data-client
   * one. Read when the provider mounts, as data-client reads it.
   */
  initialState?: State;
  /** The class of the store's controller: Controller, or a class that extends it. Read at mount. */
  Controller?: typeof Controller;
  /**
   * data-client's button that opens its devtools. Accepted and ignored: the RestLens panel is a
   * tab of the browser's DevTools, which the provider connects in development builds.
   */
  devButton?: DevToolsPosition | null;
  /**
   * data-client's managers have no counterpart (fetching, polling with `useLive` and
   * `useSubscription`, and the devtools are built in): giving any throws a TypeError rather than
   * leaving them silently unrun.
   */
  managers?: undefined;
}

/**
 * data-client 0.9's name of the provider: a DataProvider of a store made from `initialState` and
 * `Controller` when it mounts.
 */
export function CacheProvider({
  children,
  initialState,
  Controller,
  managers,
}: ProviderProps): ReactElement {
  if (managers !== undefined) {
    throw new TypeError(
      'CacheProvider: the managers prop has no counterpart in RestLens, which has no managers (fetching, polling with useLive / useSubscription and the devtools are built in); remove it',
    );
  }
  const [store] = useState(() => createStore({ initialState, Controller }));
  return <DataProvider store={store}>{children}</DataProvider>;
}
