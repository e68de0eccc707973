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
import { CHROMIUM_ARGS, findTabId } from './browser.js';

export { CHROMIUM_ARGS, EXTENSION, findTabId } from './browser.js';

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

export { expect } from '@playwright/test';
