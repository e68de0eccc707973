import { createContext } from 'preact';
import { useContext, useLayoutEffect, useReducer, useRef } from 'preact/hooks';
import type { ExtensionCommandBody } from '../../../library/src/devtools/protocol/messages.js';
import type { StoreView } from './model.js';
import type { Sources } from './sources.js';
import type { PanelActions, PanelState, PanelStore } from './store.js';

/** Where views send commands to the page (the PanelConnection, or a fake in tests). */
interface CommandSender {
  send(command: ExtensionCommandBody): void;
  /** Asks for rows a view shows: only those missing or out of date are sent, once. */
  requestRows(storeId: string, table: string, pks: readonly string[]): void;
}

interface PanelContextValue {
  store: PanelStore;
  connection: CommandSender;
  /** The page's sources, inside DevTools (a panel opened as a tab has none). */
  sources?: Sources | undefined;
}

export const PanelContext = createContext<PanelContextValue | null>(null);

function usePanelContext(): PanelContextValue {
  const value = useContext(PanelContext);
  if (!value) throw new Error('panel components must be rendered inside <PanelContext.Provider>');
  return value;
}

type FullState = PanelState & PanelActions;

/**
 * Reads the panel store and renders again when the selected value changes. The value is
 * computed once per store state, so a selector may build a new object or array without making
 * the component render over and over. (Built on preact/hooks: importing preact/compat would
 * turn every vnode into a compat one.)
 */
export function usePanel<T>(selector: (state: FullState) => T): T {
  const { store } = usePanelContext();
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const cache = useRef<
    { state: FullState; selector: (state: FullState) => T; value: T } | undefined
  >(undefined);
  const read = (): T => {
    const state = store.getState();
    const cached = cache.current;
    if (cached && cached.state === state && cached.selector === selector) return cached.value;
    const value = selector(state);
    cache.current = { state, selector, value };
    return value;
  };
  const latestRead = useRef(read);
  latestRead.current = read;
  const value = read();

  useLayoutEffect(() => {
    const check = () => {
      const before = cache.current?.value;
      if (!Object.is(before, latestRead.current())) rerender(undefined);
    };
    check(); // the store may have changed between this render and the subscription
    return store.subscribe(check);
  }, [store]);
  return value;
}

/** The panel store's actions (they never change, so reading them renders nothing). */
export function usePanelActions(): PanelActions {
  return usePanelContext().store.getState();
}

/** The copy of the store the user is looking at. */
export function useSelectedStore(): StoreView | undefined {
  return usePanel((state) =>
    state.selectedStoreId === undefined ? undefined : state.stores[state.selectedStoreId],
  );
}

/** The page's sources, to show and open a trace's frames (undefined outside DevTools). */
export function useSources(): Sources | undefined {
  return usePanelContext().sources;
}

/** Sends commands to the page. */
export function useConnection(): CommandSender {
  return usePanelContext().connection;
}

/**
 * Asks the page for the rows of `table` a view shows, again whenever the copy changes (a row
 * may have gone stale): the connection sends only what is missing, so asking often is cheap.
 * Asked in a layout effect, right after rendering: a passive effect would wait for the next
 * frame, and the rows would come a frame later.
 */
export function useRequestRows(
  store: StoreView,
  table: string | undefined,
  pks: readonly string[],
): void {
  const connection = useConnection();
  useLayoutEffect(() => {
    if (table !== undefined) connection.requestRows(store.id, table, pks);
  }, [connection, store, table, pks]);
}
