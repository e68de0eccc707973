// The real DevTools panel: Chromium opens DevTools for every tab (`--auto-open-devtools-for-tabs`),
// the RestLens panel is registered there by the extension's devtools page, finds its tab through
// `devtools.inspectedWindow.tabId`, and shows the page's collections live.
//
// Its own browser: the flags differ from the other specs', and Playwright lists the DevTools
// front end as a page only with PW_CHROMIUM_ATTACH_TO_OTHER (an undocumented switch read in
// playwright-core's crBrowser whenever a target attaches).
import { expect, findTabId } from './fixtures.js';
import { headerSeq, latestChange, members, pksOf, pushTodo, status } from './lens.js';
import { dockDevtools, openRestLens, setDevtoolsTheme, test } from './realDevtools.js';

test('the RestLens panel inside DevTools finds its tab and shows the live collections', async ({
  devtoolsContext: context,
  devtoolsDemo: demo,
}) => {
  const { app, devtools: dt, panel, frame } = await openRestLens(context, demo);
  await expect(dt.getByRole('tab', { name: 'RestLens' })).toHaveAttribute('aria-selected', 'true');
  await expect(status(panel)).toHaveText('Connected');
  await expect(panel.locator('header')).toContainText('Demo todos');

  // No ?tabId= here: the panel took the inspected tab's id from DevTools, and it is the app's.
  const inspectedTabId = await frame.evaluate(
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
  const width = await frame.evaluate(() => window.innerWidth);
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
