import { cleanup } from '@testing-library/preact';
import { afterEach, beforeEach } from 'vitest';
import { FakeServer, TodoApp } from './app.js';
import { type MountedPanel, mountPanel, restoreGlobals, settle } from './harness.js';

/**
 * The setup most panel tests share (this file holds no tests): a fake REST API behind `fetch`,
 * the panel mounted over a fake tab and, usually, one page store connected to it.
 */

/** Todos 1–4, all of user 1 (the fake API lists newest first, two per page). */
export const FOUR_TITLES: readonly string[] = ['buy milk', 'walk dog', 'write report', 'call mum'];

export interface PanelEnv {
  /** The in-memory REST API behind `fetch`, holding FOUR_TITLES. */
  server: FakeServer;
  /** The panel (the test may replace it, e.g. to reopen it). */
  panel: MountedPanel;
  /** The page store opened before the test (with `openApp`, the default). */
  app: TodoApp;
  /** Starts another page store; it is closed after the test, like `app`. */
  startApp(name?: string): TodoApp;
}

export interface PanelEnvOptions {
  /** Open one page store (`app`) and let it settle before the test. Default true. */
  openApp?: boolean;
  /** Mounts the panel; `mountPanel` by default. */
  mount?: () => MountedPanel;
}

/**
 * Before each test: the fake API (installed as `fetch`), the panel, and (with `openApp`) a page
 * store, settled. After each test: every page store closed, the panel unmounted, the DOM
 * cleaned up and `fetch` restored. Read the parts from the returned env inside tests.
 */
export function panelEnvPerTest({
  openApp = true,
  mount = mountPanel,
}: PanelEnvOptions = {}): PanelEnv {
  const apps: TodoApp[] = [];
  const env = {
    startApp(name?: string): TodoApp {
      const app = new TodoApp(name);
      apps.push(app);
      return app;
    },
  } as PanelEnv;
  beforeEach(async () => {
    env.server = new FakeServer(FOUR_TITLES);
    env.server.install();
    env.panel = mount();
    if (openApp) {
      env.app = env.startApp();
      await settle();
    }
  });
  afterEach(() => {
    for (const app of apps.splice(0)) app.close();
    env.panel.unmount();
    cleanup();
    restoreGlobals();
  });
  return env;
}
