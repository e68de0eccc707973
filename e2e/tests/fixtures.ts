import { mkdtempSync } from 'node:fs';
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
      const context = await chromium.launchPersistentContext(
        mkdtempSync(join(tmpdir(), 'restlens-e2e-')),
        {
          executablePath: findBrowser('chromium'),
          headless: true,
          args: CHROMIUM_ARGS,
        },
      );
      await use(context);
      await context.close();
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
    await use(async (page) => {
      // The service worker may have been restarted: ask whichever one is current.
      const [worker] = extensionContext.serviceWorkers();
      const current = worker ?? (await extensionContext.waitForEvent('serviceworker'));
      const url = page.url();
      return current.evaluate(
        async (pageUrl) =>
          (await chrome.tabs.query({})).find((tab) => tab.url === pageUrl)?.id ?? -1,
        url,
      );
    });
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

export { expect } from '@playwright/test';

declare const chrome: { tabs: { query(info: object): Promise<{ id?: number; url?: string }[]> } };
