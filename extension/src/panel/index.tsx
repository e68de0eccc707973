import './panel.css';
import { render } from 'preact';
import browser from 'webextension-polyfill';
import { App } from './App.js';
import { PanelConnection } from './connection.js';
import { PanelContext } from './context.js';
import { type DevtoolsSourcesApi, devtoolsSourceAccess } from './devtoolsSources.js';
import { persistRecording } from './recorder/persist.js';
import { extensionStorage } from './recorder/storage.js';
import { Sources } from './sources.js';
import { createPanelStore } from './store.js';
import { readTabId } from './tabId.js';
import { followTheme, type ThemeSource } from './theme.js';

// `browser.devtools` exists only inside DevTools; the e2e tests open this page with ?tabId=.
const devtools = browser.devtools as typeof browser.devtools | undefined;
// The browser's own `chrome.devtools.panels` (both browsers have it inside DevTools): the
// polyfill's copy lacks Chromium's setThemeChangeHandler.
const nativeDevtools = (
  globalThis as { chrome?: { devtools?: DevtoolsSourcesApi & { panels?: ThemeSource } } }
).chrome?.devtools;
followTheme(window, nativeDevtools?.panels ?? devtools?.panels);
/** A trace's frames open in the Sources panel of the DevTools the panel is in. */
const sources = nativeDevtools && new Sources(devtoolsSourceAccess(nativeDevtools));

const root = document.getElementById('app');
const tabId = readTabId(location.search, () => devtools?.inspectedWindow.tabId);

if (root && tabId === undefined) {
  render(
    <main class="empty-state">
      <h2>No tab to inspect</h2>
      <p>Open RestLens from the browser's DevTools.</p>
    </main>,
    root,
  );
} else if (root && tabId !== undefined) {
  const store = createPanelStore();
  const connection = new PanelConnection(
    {
      connect: (name) => browser.runtime.connect({ name }),
      setTimeout: (callback, ms) => setTimeout(callback, ms),
    },
    tabId,
    store,
  );
  // The recording outlives the panel: read back now, saved again after every change.
  persistRecording(store, extensionStorage(browser.storage.local));
  followPageUrl(store, devtools);
  render(
    <PanelContext.Provider value={{ store, connection, sources }}>
      <App />
    </PanelContext.Provider>,
    root,
  );
  connection.start();
}

/**
 * Inside DevTools: the inspected page's address, now and after each navigation (the panel says
 * when the extension cannot run there). A panel opened as a tab has no DevTools to ask.
 */
function followPageUrl(
  store: ReturnType<typeof createPanelStore>,
  tools: typeof browser.devtools | undefined,
) {
  if (!tools) return;
  tools.network.onNavigated.addListener((url) => store.getState().pageNavigated(url));
  void tools.inspectedWindow.eval('location.href').then(
    ([url]) => {
      if (typeof url === 'string') store.getState().pageNavigated(url);
    },
    () => {},
  );
}
