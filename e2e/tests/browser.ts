/**
 * What drives the built Chromium extension, for the e2e tests and the scale benchmark (this file
 * holds no tests): the flags that load it, and how to find a page's tab id.
 */
import { resolve } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';

export const EXTENSION = resolve('dist/extension/chrome');

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

declare const chrome: { tabs: { query(info: object): Promise<{ id?: number; url?: string }[]> } };
