/**
 * Driving the scale benchmark's pages from the runner (main.ts, mixed.ts): calls into
 * `window.__SCALE__`, opening a page and the panel for it, the page's main-thread CPU time, and
 * how the reports write a time.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { findTabId } from '../../../e2e/tests/browser.js';
import type { ScaleApi } from './protocol.js';

type Action = keyof ScaleApi;

/** Calls `window.__SCALE__[action](...args)` in `page`. */
export function call<A extends Action>(
  page: Page,
  action: A,
  ...args: Parameters<ScaleApi[A]>
): Promise<Awaited<ReturnType<ScaleApi[A]>>> {
  return page.evaluate(
    ([name, values]) =>
      (window.__SCALE__ as unknown as Record<string, (...values: unknown[]) => unknown>)[name]?.(
        ...values,
      ),
    [action, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<ScaleApi[A]>>>;
}

export async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.__SCALE__ !== undefined);
  return page;
}

/** The address of the panel for `page`: the panel opened as a page, as the e2e tests do. */
export async function panelUrl(context: BrowserContext, page: Page): Promise<string> {
  const tabId = await findTabId(context, page);
  const extensionId = new URL(
    (context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))).url(),
  ).host;
  return `chrome-extension://${extensionId}/panel.html?tabId=${tabId}`;
}

/**
 * The CPU time of the page's main thread so far (ms), from the DevTools protocol's Performance
 * metrics: not the tasks' wall time, which on a machine of two cores grows with whatever else
 * runs (the panel's own process, during a burst).
 */
export async function mainThreadMs(
  context: BrowserContext,
  page: Page,
): Promise<() => Promise<number>> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return 1000 * (metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? 0);
  };
}

/** A time for the reports: `850 ms`, `1.25 s`. */
export const ms = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
