import { useCallback } from 'preact/hooks';
import { Actions } from './components/Actions.js';
import { Header } from './components/Header.js';
import { NoStore } from './components/NoStore.js';
import { TIME_TRAVEL_VIEWS, TimeTravelBanner } from './components/TimeTravelBanner.js';
import { tabId, VIEW_PANEL_ID, ViewTabs } from './components/ViewTabs.js';
import { usePanel, usePanelActions, useSelectedStore } from './context.js';
import { useArrowDownIntoList, useSlashShortcut } from './shortcuts.js';
import { currentView, VIEWS } from './views.js';

/** The whole panel: header, then the selected store's views (or the "no store" state). */
export function App() {
  const selected = useSelectedStore();
  // A page that went away leaves no store to show, only its stale copy: it is not shown.
  const pageGone = usePanel((state) => !state.pageConnected && state.pageId !== undefined);
  const store = pageGone ? undefined : selected;
  const viewId = usePanel((state) => state.view);
  const { setView } = usePanelActions();
  const view = currentView(viewId);
  const travel = usePanel((state) => state.timeTravel);
  // While travelling, the views of the store's state show it as of the chosen event.
  const shown =
    store && travel?.storeId === store.id && !travel.leftRing && TIME_TRAVEL_VIEWS.includes(view.id)
      ? travel.view
      : store;
  useSlashShortcut(useCallback(() => document.getElementById(VIEW_PANEL_ID), []));
  useArrowDownIntoList();

  return (
    <div class="app">
      <Header />
      {store ? (
        <>
          <nav class="bar" aria-label="Views and actions">
            <ViewTabs views={VIEWS} current={view.id} onSelect={setView} />
            <Actions store={store} />
          </nav>
          <TimeTravelBanner store={store} />
          <main class="view">
            <div
              id={VIEW_PANEL_ID}
              class="view-panel"
              role="tabpanel"
              aria-labelledby={tabId(view.id)}
            >
              {shown?.ready ? (
                <view.Component store={shown} />
              ) : (
                <p class="notice">Loading the store's snapshot…</p>
              )}
            </div>
          </main>
        </>
      ) : (
        <NoStore />
      )}
    </div>
  );
}
