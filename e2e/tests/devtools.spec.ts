// The real DevTools panel: Chromium opens DevTools for every tab (`--auto-open-devtools-for-tabs`),
// the RestLens panel is registered there by the extension's devtools page, finds its tab through
// `devtools.inspectedWindow.tabId`, and shows the page's collections live.
//
// Its own browser: the flags differ from the other specs', and Playwright lists the DevTools
// front end as a page only with PW_CHROMIUM_ATTACH_TO_OTHER (an undocumented switch read in
// playwright-core's crBrowser whenever a target attaches).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Frame, type Page } from '@playwright/test';
import { findBrowser } from '../../scripts/browsers.mjs';
import { type DemoServer, startDemoServer } from '../app/server.js';
import { test as base, CHROMIUM_ARGS, DEMO_DIR, expect, findTabId } from './fixtures.js';
import { headerSeq, latestChange, members, pksOf, pushTodo, status } from './lens.js';

interface DevtoolsFixtures {
  devtoolsDemo: DemoServer;
  devtoolsContext: BrowserContext;
}

const test = base.extend<DevtoolsFixtures>({
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

/** Calls DevTools' own UI module in the DevTools page (internals: may change with Chromium). */
/** DevTools' own theme setting ('default' is light), as the user sets it in its Settings. */
async function setDevtoolsTheme(devtools: Page, theme: 'dark' | 'default') {
  await devtools.evaluate(async (name) => {
    const Common = await import(new URL('core/common/common.js', location.href).href);
    Common.Settings.Settings.instance().moduleSetting('ui-theme').set(name);
  }, theme);
}

/** Docks DevTools at the side of the page ('right') or at the bottom. */
async function dockDevtools(devtools: Page, side: 'right' | 'bottom') {
  await devtools.evaluate(async (where) => {
    const UI = await import(new URL('ui/legacy/legacy.js', location.href).href);
    UI.DockController.DockController.instance().setDockSide(where);
  }, side);
}

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

test('the RestLens panel inside DevTools finds its tab and shows the live collections', async ({
  devtoolsContext: context,
  devtoolsDemo: demo,
}) => {
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
  await expect(dt.getByRole('tab', { name: 'RestLens' })).toHaveAttribute('aria-selected', 'true');

  const panelUrl = `chrome-extension://${extensionId}/panel.html`;
  const panel = dt.frameLocator(`iframe[src="${panelUrl}"]`);
  await expect(status(panel)).toHaveText('Connected');
  await expect(panel.locator('header')).toContainText('Demo todos');

  // No ?tabId= here: the panel took the inspected tab's id from DevTools, and it is the app's.
  let frame: Frame | undefined;
  await expect
    .poll(() => {
      frame = dt.frames().find((candidate) => candidate.url() === panelUrl);
      return frame !== undefined;
    })
    .toBe(true);
  const inspectedTabId = await (frame as Frame).evaluate(
    () => (globalThis as unknown as ChromeDevtools).chrome.devtools.inspectedWindow.tabId,
  );
  expect(inspectedTabId).toBe(await findTabId(context, app));

  // The live collections: what the app loaded, then a push as it happens.
  await expect.poll(() => pksOf(members(panel, '[Todo] userId: "1"'))).toEqual(['1', '3', '5']);
  await pushTodo(app, 'Seen from DevTools');
  await expect(latestChange(panel)).toContainText(/pushed Todo 9 "[^"]*" at the end \(3 → 4\)/);
  await expect
    .poll(() => pksOf(members(panel, '[Todo] userId: "1"')))
    .toEqual(['1', '3', '5', '9']);
  await expect(members(panel, '[Todo] userId: "1"').last()).toContainText('Seen from DevTools');
  await expect.poll(() => headerSeq(panel)).toBe(4);

  // The theme follows DevTools live: dark, then light again, with the panel open.
  const html = panel.locator('html');
  await setDevtoolsTheme(dt, 'dark');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await setDevtoolsTheme(dt, 'default');
  await expect(html).toHaveAttribute('data-theme', 'light');

  // Docked at the side, the panel is narrow: its panes stack.
  await dockDevtools(dt, 'right');
  await dt.setViewportSize({ width: 554, height: 800 });
  const width = await (frame as Frame).evaluate(() => window.innerWidth);
  expect(width).toBeLessThanOrEqual(554);
  const list = await panel.getByRole('region', { name: 'Collection rows' }).boundingBox();
  const detail = await panel
    .getByRole('region', { name: 'Collection row', exact: true })
    .boundingBox();
  expect(list && detail && detail.y >= list.y + list.height - 1).toBe(true);
  await dt.screenshot({ path: 'test-results/screenshots/devtools-docked-side-554.png' });

  // The inspected tab goes to a data: page, where no extension runs: the panel says so.
  await app.goto('data:text/html,<p>no store here</p>');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(
    'RestLens does not run on this page',
  );
  await expect(panel.locator('main')).toContainText('data:');
});

interface ChromeDevtools {
  chrome: { devtools: { inspectedWindow: { tabId: number } } };
}
