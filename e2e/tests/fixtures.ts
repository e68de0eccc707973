import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type BrowserContext,
  test as base,
  chromium,
  type Page,
  type Worker,
} from '@playwright/test';
import { findBrowser } from '../../scripts/browsers.mjs';
import { type DemoServer, startDemoServer } from '../app/server.js';

export const EXTENSION = resolve('dist/extension/chrome');
export const DEMO_DIR = resolve('dist/demo');

interface WorkerFixtures {
  demo: DemoServer;
  extensionContext: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
}

interface TestFixtures {
  /** The demo app in a fresh tab, with the server's data reset. */
  app: Page;
  /** Opens the RestLens panel as a page for `tab` (the `?tabId=` mode). */
  openPanel: (tab: Page) => Promise<Page>;
  /** The browser's id for a tab showing `page`. */
  tabIdOf: (page: Page) => Promise<number>;
}

/** Chromium flags this machine needs: no background networking (the network is closed). */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  `--disable-extensions-except=${EXTENSION}`,
  `--load-extension=${EXTENSION}`,
];

export const test = base.extend<TestFixtures, WorkerFixtures>({
  demo: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const demo = await startDemoServer({ staticDir: DEMO_DIR });
      await use(demo);
      await demo.close();
    },
    { scope: 'worker' },
  ],
  extensionContext: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const executablePath = findBrowser('chromium');
      const profile = mkdtempSync(join(tmpdir(), 'restlens-e2e-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
      });
      await use(context);
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  serviceWorker: [
    async ({ extensionContext }, use) => {
      const [worker] = extensionContext.serviceWorkers();
      await use(worker ?? (await extensionContext.waitForEvent('serviceworker')));
    },
    { scope: 'worker' },
  ],
  extensionId: [
    async ({ serviceWorker }, use) => {
      await use(new URL(serviceWorker.url()).host);
    },
    { scope: 'worker' },
  ],
  app: async ({ extensionContext, demo }, use) => {
    await fetch(`${demo.url}/control/reset`, { method: 'POST' });
    const page = await extensionContext.newPage();
    await page.goto(demo.url);
    await use(page);
    await page.close();
  },
  tabIdOf: async ({ extensionContext }, use) => {
    await use((page) => findTabId(extensionContext, page));
  },
  openPanel: async ({ extensionContext, extensionId, tabIdOf }, use) => {
    const panels: Page[] = [];
    await use(async (tab) => {
      const panel = await extensionContext.newPage();
      panels.push(panel);
      await panel.goto(`chrome-extension://${extensionId}/panel.html?tabId=${await tabIdOf(tab)}`);
      return panel;
    });
    for (const panel of panels) await panel.close();
  },
});

/**
 * The browser's tab id of `page`. The extension has no `tabs` permission, so `tabs.query` does not
 * show URLs: the tab is found as the active one of its window, once Playwright has brought it to
 * the front (tests run one at a time, so nothing else moves the focus meanwhile).
 */
export async function findTabId(context: BrowserContext, page: Page): Promise<number> {
  await page.bringToFront();
  const cdp = await context.newCDPSession(page);
  const { windowId } = await cdp.send('Browser.getWindowForTarget');
  await cdp.detach();
  // The service worker may have been restarted: ask whichever one is current.
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const tabs = await worker.evaluate(
    (window) => chrome.tabs.query({ active: true, windowId: window }),
    windowId,
  );
  const id = tabs[0]?.id;
  if (tabs.length !== 1 || id === undefined)
    throw new Error(`no single active tab in window ${windowId} for ${page.url()}`);
  return id;
}

export { expect } from '@playwright/test';

declare const chrome: { tabs: { query(info: object): Promise<{ id?: number; url?: string }[]> } };
