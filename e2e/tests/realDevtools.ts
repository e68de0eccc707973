// The real DevTools with the RestLens panel, for the specs that drive it: Chromium opens DevTools
// for every tab (`--auto-open-devtools-for-tabs`), and Playwright lists the DevTools front end as
// a page only with PW_CHROMIUM_ATTACH_TO_OTHER (an undocumented switch read in playwright-core's
// crBrowser whenever a target attaches). The helpers call DevTools' own modules in its page:
// internals, which may change with Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BrowserContext,
  chromium,
  type Frame,
  type FrameLocator,
  type Page,
} from '@playwright/test';
import { findBrowser } from '../../scripts/browsers.mjs';
import { type DemoServer, startDemoServer } from '../app/server.js';
import { test as base, CHROMIUM_ARGS, DEMO_DIR, expect } from './fixtures.js';

/** The demo app's server and a browser whose tabs open DevTools. */
export interface DevtoolsFixtures {
  devtoolsDemo: DemoServer;
  devtoolsContext: BrowserContext;
}

/** A test with the demo and a browser whose every tab has DevTools open. */
export const test = base.extend<DevtoolsFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  devtoolsDemo: async ({}, use) => {
    const demo = await startDemoServer({ staticDir: DEMO_DIR });
    await use(demo);
    await demo.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  devtoolsContext: async ({}, use) => {
    const executablePath = findBrowser('chromium');
    const profile = mkdtempSync(join(tmpdir(), 'restlens-devtools-'));
    const before = process.env.PW_CHROMIUM_ATTACH_TO_OTHER;
    process.env.PW_CHROMIUM_ATTACH_TO_OTHER = '1';
    try {
      const context = await chromium.launchPersistentContext(profile, {
        executablePath,
        headless: true,
        viewport: null,
        args: [...CHROMIUM_ARGS, '--auto-open-devtools-for-tabs', '--window-size=1400,900'],
      });
      try {
        await use(context);
      } finally {
        await context.close();
      }
    } finally {
      rmSync(profile, { recursive: true, force: true });
      if (before === undefined) delete process.env.PW_CHROMIUM_ATTACH_TO_OTHER;
      else process.env.PW_CHROMIUM_ATTACH_TO_OTHER = before;
    }
  },
});

/** DevTools' own theme setting ('default' is light), as the user sets it in its Settings. */
export async function setDevtoolsTheme(devtools: Page, theme: 'dark' | 'default') {
  await devtools.evaluate(async (name) => {
    const Common = await import(new URL('core/common/common.js', location.href).href);
    Common.Settings.Settings.instance().moduleSetting('ui-theme').set(name);
  }, theme);
}

/** Docks DevTools at the side of the page ('right') or at the bottom. */
export async function dockDevtools(devtools: Page, side: 'right' | 'bottom') {
  await devtools.evaluate(async (where) => {
    const UI = await import(new URL('ui/legacy/legacy.js', location.href).href);
    UI.DockController.DockController.instance().setDockSide(where);
  }, side);
}

/** DevTools' panels: whether one is registered yet, and showing one (run in the DevTools page). */
const inspectorView = {
  hasPanel: async (panelId: string) => {
    const UI = await import(new URL('ui/legacy/legacy.js', location.href).href);
    const view = UI.InspectorView.InspectorView.maybeGetInspectorViewInstance();
    return Boolean(view?.hasPanel(panelId));
  },
  showPanel: async (panelId: string) => {
    const UI = await import(new URL('ui/legacy/legacy.js', location.href).href);
    await UI.InspectorView.InspectorView.instance().showPanel(panelId);
  },
};

/** The demo in a tab, its DevTools, and the RestLens panel shown there. */
export interface RestLensInDevtools {
  app: Page;
  devtools: Page;
  /** The panel, for locators. */
  panel: FrameLocator;
  /** The panel's frame, to evaluate in. */
  frame: Frame;
  /** Shows the RestLens panel again (after another DevTools panel was shown). */
  showPanel(): Promise<void>;
}

/** Opens the demo in a tab, waits for its DevTools and shows the RestLens panel there. */
export async function openRestLens(
  context: BrowserContext,
  demo: DemoServer,
): Promise<RestLensInDevtools> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  // The first page may be DevTools itself (it is listed as a page here): use a content page.
  const app =
    context.pages().find((page) => !page.url().startsWith('devtools://')) ??
    (await context.newPage());
  await app.goto(demo.url);
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);

  let devtools: Page | undefined;
  await expect
    .poll(() => {
      devtools = context.pages().find((page) => page.url().startsWith('devtools://devtools/'));
      return devtools !== undefined;
    })
    .toBe(true);
  const dt = devtools as Page;

  // The extension's devtools page registered "RestLens"; DevTools names the panel by the
  // extension's origin and the title. (Polled with evaluate: DevTools starts asynchronously.)
  const panelId = `chrome-extension://${extensionId}RestLens`;
  await expect
    .poll(() => dt.evaluate(inspectorView.hasPanel, panelId), { timeout: 15_000 })
    .toBe(true);
  await dt.evaluate(inspectorView.showPanel, panelId);

  const panelUrl = `chrome-extension://${extensionId}/panel.html`;
  let frame: Frame | undefined;
  await expect
    .poll(() => {
      frame = dt.frames().find((candidate) => candidate.url() === panelUrl);
      return frame !== undefined;
    })
    .toBe(true);
  return {
    app,
    devtools: dt,
    panel: dt.frameLocator(`iframe[src="${panelUrl}"]`),
    frame: frame as Frame,
    showPanel: () => dt.evaluate(inspectorView.showPanel, panelId),
  };
}
