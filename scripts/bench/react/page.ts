/**
 * One benchmark page in Chromium, driven through `window.__BENCH__`, and the browser that holds
 * the pages (Debian's Chromium, or CHROMIUM_PATH; see scripts/browsers.mjs).
 */
import { type Browser, type BrowserContext, type CDPSession, chromium } from '@playwright/test';
import { findBrowser } from '../../browsers.mjs';
import type { PageName } from './build.js';
import type { BenchApi } from './protocol.js';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findBrowser('chromium'), headless: true });
}

type Action = Exclude<keyof BenchApi, 'library'>;

export interface BenchPage {
  library: PageName;
  call<A extends Action>(action: A, ...args: Parameters<BenchApi[A]>): ReturnType<BenchApi[A]>;
  /** Collects garbage (twice: what one collection frees can let the next free more). */
  collectGarbage(): Promise<void>;
  /** Bytes of JavaScript heap in use, after collecting garbage. */
  heapUsed(): Promise<number>;
  close(): Promise<void>;
}

/** Opens the page in a context of its own (its own heap and cache), ready for actions. */
export async function openPage(
  browser: Browser,
  library: PageName,
  url: string,
): Promise<BenchPage> {
  const context: BrowserContext = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => window.__BENCH__ !== undefined);
  // Served cross-origin isolated (see pageServer.ts), or its timer ticks too coarsely.
  if (!(await page.evaluate(() => crossOriginIsolated)))
    throw new Error(`${library}: the page is not cross-origin isolated (${url})`);
  const cdp: CDPSession = await context.newCDPSession(page);
  const collectGarbage = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
  };
  return {
    library,
    call(action, ...args) {
      const answer = page
        .evaluate(
          ([name, values]) =>
            (window.__BENCH__ as unknown as Record<Action, (...values: unknown[]) => unknown>)[
              name
            ](...values),
          [action, args] as [Action, unknown[]],
        )
        .catch((error: unknown) => {
          // A React error shows on the page, and in the action only as a timeout: report both.
          const onPage = errors.length > 0 ? `\npage errors: ${errors.join('\n')}` : '';
          throw new Error(`${library} ${action}: ${error}${onPage}`);
        });
      return answer as ReturnType<BenchApi[typeof action]>;
    },
    collectGarbage,
    async heapUsed() {
      await collectGarbage();
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      return usedSize;
    },
    close: () => context.close(),
  };
}
