// Firefox ESR with the Firefox build of the extension, driven by puppeteer-core over WebDriver
// BiDi (Playwright cannot drive a stock Firefox): the page → content script → background → panel
// path works there too. The real Firefox DevTools panel is not reachable over BiDi, so the panel
// is opened as a page (`moz-extension://<uuid>/panel.html?tabId=N`), as in panel.spec.ts.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { findBrowser } from '../../scripts/browsers.mjs';
import { expect, test } from './fixtures.js';
import { forgedEvent, keepGreeting } from './forger.js';

const EXTENSION = resolve('dist/extension/firefox');
/** The add-on id of the Firefox build (scripts/build-extension.mjs). */
const ADDON_ID = 'restlens@restlens.dev';
/** moz-extension:// hosts are random per profile: this one is pinned through a pref. */
const UUID = '6f1d3c2a-5b4e-4c7d-9a8b-0e1f2a3b4c5d';

/** What `run` answers, or undefined while it throws (a page that is still loading). */
async function soon<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch {
    return undefined;
  }
}

/** expect.poll, checking often: each check is one cheap evaluate. */
const poll = <T>(probe: () => Promise<T>, timeout = 10_000) =>
  expect.poll(probe, { timeout, intervals: [100, 200] });

/** The panel page's text, for web-first-style polling. */
const panelText = (panel: Page) => soon(() => panel.evaluate(() => document.body.textContent));

test('Firefox ESR: the panel shows what the page does', async ({ demo }) => {
  // Firefox starts in ~2–4 s here; installing, loading and polling take the rest.
  test.setTimeout(60_000);
  await fetch(`${demo.url}/control/reset`, { method: 'POST' });
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: findBrowser('firefox'),
    headless: true,
    // Without it, BiDi refuses to navigate to moz-extension:// pages.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [ADDON_ID]: UUID }),
    },
  });
  try {
    // A temporary add-on (BiDi webExtension.install): its host permissions are granted.
    expect(await browser.installExtension(EXTENSION)).toBe(ADDON_ID);

    const [app = await browser.newPage()] = await browser.pages();
    // A script of the page that hears the store's greeting, to speak in its name later.
    await app.evaluateOnNewDocument(keepGreeting);
    await app.goto(demo.url);
    await app.waitForSelector('[data-testid="todos"] li');
    expect(await app.$$eval('[data-testid="todos"] li', (items) => items.length)).toBe(3);

    // goto() of a moz-extension:// page never resolves over BiDi: start it, then poll the page.
    const panel = await browser.newPage();
    panel.goto(`moz-extension://${UUID}/panel.html`).catch(() => {});
    let tabId: number | undefined;
    await poll(async () => {
      tabId = await soon(() =>
        panel.evaluate(async (url) => {
          const tabs = await (globalThis as unknown as FirefoxTabs).browser.tabs.query({});
          return tabs.find((tab) => tab.url?.startsWith(url))?.id;
        }, demo.url),
      );
      return tabId;
    }, 15_000).toEqual(expect.any(Number));
    panel
      .evaluate((id) => location.replace(`panel.html?tabId=${id}`), tabId as number)
      .catch(() => {});

    // The panel connected to the page's store and shows its collections.
    await poll(() => panelText(panel), 15_000).toContain('Demo todos');
    await poll(() => panelText(panel)).toContain('Connected');
    await poll(() => panelText(panel)).toContain('3 members');
    const memberPks = () =>
      soon(() =>
        panel.evaluate(() =>
          [
            ...document.querySelectorAll(
              '[role="listbox"][aria-label^="Members of [Todo] userId: \\"1\\""] [data-pk]',
            ),
          ].map((row) => row.getAttribute('data-pk')),
        ),
      );
    await poll(memberPks).toEqual(['1', '3', '5']);

    // A live change travels page → content script → background → panel.
    await app.type('[data-testid="new-title"]', 'Pushed in Firefox');
    await app.click('[data-testid="push"]');
    await poll(memberPks).toEqual(['1', '3', '5', '9']);
    await poll(() => panelText(panel)).toMatch(/pushed Todo 9 "[^"]*" at the end \(3 → 4\)/);
    await poll(() => panelText(panel)).toContain('Pushed in Firefox');

    // An event that script posts in the store's name (on the window, and on the port the
    // greeting handed over) never reaches the panel: its seq stays the store's.
    const seq = await headerSeq(panel);
    if (seq === undefined) throw new Error('the panel shows no seq');
    expect(await app.evaluate(forgedEvent, seq + 1)).toEqual({
      onWindow: true,
      onGreetingPort: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await headerSeq(panel)).toBe(seq);
    expect(await panelText(panel)).not.toContain('Forged');
    // Puppeteer (unlike Playwright) does not create the folder of a screenshot.
    const screenshots = resolve('test-results/screenshots');
    mkdirSync(screenshots, { recursive: true });
    await panel.screenshot({ path: resolve(screenshots, 'firefox-collections-light.png') });
  } finally {
    await browser.close();
  }
});

/** The store's last seq, as the panel's header shows it ("seq N · library x"). */
async function headerSeq(panel: Page): Promise<number | undefined> {
  const header = await soon(() =>
    panel.evaluate(() => document.querySelector('header')?.textContent),
  );
  const seq = /seq (\d+)/.exec(header ?? '')?.[1];
  return seq === undefined ? undefined : Number(seq);
}

interface FirefoxTabs {
  browser: { tabs: { query(info: object): Promise<{ id?: number; url?: string }[]> } };
}
