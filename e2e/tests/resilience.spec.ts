// The panel keeps a true history through what browsers do to extensions and pages: the service
// worker stopped in the middle of a stream of events, a page reload, and two inspected tabs.
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import {
  control,
  headerSeq,
  members,
  pksOf,
  pushTodo,
  showView,
  status,
  timelineEvent,
  timelineSeqs,
  todoIds,
} from './lens.js';

const USER_1 = '[Todo] userId: "1"';

/**
 * Stops the extension's service worker the way the browser does when it is idle, through the
 * DevTools protocol of an extension page (the SW is in the extension's storage partition), and
 * waits until it is reported stopped.
 */
async function stopServiceWorker(context: BrowserContext, extensionPage: Page): Promise<void> {
  const cdp = await context.newCDPSession(extensionPage);
  const statuses: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) statuses.push(version.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await expect.poll(() => statuses).toContain('stopped');
  await cdp.detach();
}

/** Waits until the app lists `count` todos, none of them still optimistic (no id yet). */
async function settled(app: Page, count: number): Promise<void> {
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(count);
  await expect(app.getByTestId('todo-0')).toHaveCount(0);
}

/** 1, 2, …, n. */
const upTo = (n: number) => Array.from({ length: n }, (_, index) => index + 1);

test('the service worker stopped mid-stream: the panel resyncs with no seq gap', async ({
  app,
  demo,
  openPanel,
  extensionContext,
  serviceWorker,
}) => {
  const panel = await openPanel(app);
  // Tall enough for the whole timeline to be rendered (it is a virtual list).
  await panel.setViewportSize({ width: 1280, height: 1600 });
  await expect(status(panel)).toHaveText('Connected');
  await pushTodo(app, 'Before the stop');
  await expect.poll(() => headerSeq(panel)).toBe(4);
  await serviceWorker.evaluate(() => {
    (globalThis as { marker?: string }).marker = 'first worker';
  });
  // Every status the panel shows from here on.
  await panel.evaluate(() => {
    const seen: string[] = [];
    (window as { statuses?: string[] }).statuses = seen;
    const header = document.querySelector('header') as HTMLElement;
    new MutationObserver(() => {
      const text = header.querySelector('[role="status"]')?.textContent ?? '';
      if (seen.at(-1) !== text) seen.push(text);
    }).observe(header, { subtree: true, childList: true, characterData: true });
  });

  // A slow request is in flight when the worker stops: its answer comes while the worker is
  // down or starting again, and so does the next push.
  await control(demo.url, 'latency', { ms: 600 });
  await pushTodo(app, 'In flight during the stop');
  await stopServiceWorker(extensionContext, panel);
  await pushTodo(app, 'Right after the stop');
  await settled(app, 6);
  // Stopped again while the page is quiet, then more events.
  await stopServiceWorker(extensionContext, panel);
  await control(demo.url, 'latency', { ms: 0 });
  await pushTodo(app, 'After the second stop');
  await settled(app, 7);

  // The worker really was replaced: the first one's globals are gone.
  const [worker] = extensionContext.serviceWorkers();
  expect(await worker?.evaluate(() => (globalThis as { marker?: string }).marker)).toBeUndefined();

  // 2 loads + 4 pushes (each an optimistic fetch and its response) = 10 events.
  await expect(status(panel)).toHaveText('Connected');
  // The panel did lose its port at each stop, and reconnected.
  const statuses = (await panel.evaluate(() => (window as { statuses?: string[] }).statuses)) ?? [];
  expect(
    statuses.filter((text) => text === 'Disconnected, reconnecting…').length,
  ).toBeGreaterThanOrEqual(2);
  expect(statuses.at(-1)).toBe('Connected');
  await expect.poll(() => headerSeq(panel)).toBe(10);
  // The panel's copy of the list is the page's, in the page's order.
  const listed = await todoIds(app);
  expect([...listed].sort((a, b) => Number(a) - Number(b))).toEqual([
    '1',
    '3',
    '5',
    '9',
    '10',
    '11',
    '12',
  ]);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(listed);
  await showView(panel, 'Timeline');
  await expect(panel.getByRole('listbox', { name: 'Timeline' })).toBeVisible();
  await expect.poll(() => timelineSeqs(panel)).toEqual(upTo(10));
  await expect(panel.getByText('10 events', { exact: true })).toBeVisible();
});

test('a panel closed while the service worker is stopped leaves the page silent', async ({
  app,
  openPanel,
  extensionContext,
}) => {
  const panel = await openPanel(app);
  await pushTodo(app, 'Before the stop');
  await expect.poll(() => headerSeq(panel)).toBe(4);
  // Counts the events messages the page posts from here on.
  await app.evaluate(() => {
    const counter = window as unknown as { postedEvents: number };
    counter.postedEvents = 0;
    window.addEventListener('message', (event) => {
      const data = event.data as { tag?: string; kind?: string } | null;
      if (event.source === window && data?.tag === 'restlens' && data.kind === 'events')
        counter.postedEvents++;
    });
  });

  const cdp = await extensionContext.newCDPSession(panel);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  // Closed at once, before its port reconnects (after 100 ms): the next worker never hears of
  // it, and so cannot tell the page that its last panel is gone.
  await panel.close();
  // The content script wakes a new worker, which has no panel to serve.
  await pushTodo(app, 'Nobody watches this one');
  await settled(app, 5);
  // The page batches events every 50 ms: well past that, it has posted none.
  await app.waitForTimeout(500);
  expect(
    await app.evaluate(() => (window as unknown as { postedEvents: number }).postedEvents),
  ).toBe(0);

  // A panel opened later gets everything.
  const next = await openPanel(app);
  await expect.poll(() => headerSeq(next)).toBe(6);
});

test('a page reload starts a fresh history, marked as a reload', async ({ app, openPanel }) => {
  const panel = await openPanel(app);
  await pushTodo(app, 'Before the reload');
  await expect.poll(() => headerSeq(panel)).toBe(4);
  await showView(panel, 'Timeline');
  await expect.poll(() => timelineSeqs(panel)).toEqual(upTo(4));
  await expect(panel.getByText('Page reloaded', { exact: false })).toHaveCount(0);

  await app.reload();
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);

  await expect(panel.locator('header')).toContainText('Page reloaded 1×');
  await expect(panel.getByText('the history starts at the latest load')).toBeVisible();
  // Only the new load's two fetches: the push belongs to the old history.
  await expect.poll(() => timelineSeqs(panel)).toEqual([1, 2]);
  await expect(panel.getByText('2 events', { exact: true })).toBeVisible();
  await expect(timelineEvent(panel, 1)).toContainText('User.getList');
  await expect(timelineEvent(panel, 2)).toContainText('Todo.getList');
  await expect(
    panel.getByRole('listbox', { name: 'Timeline' }).getByText('Todo.getList.push'),
  ).toHaveCount(0);
  await expect.poll(() => headerSeq(panel)).toBe(2);
  // The todo pushed before the reload is on page 2 of the server's list now.
  await showView(panel, 'Collections');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);
});

test('two tabs: each panel shows only its own tab', async ({
  app,
  demo,
  extensionContext,
  openPanel,
}) => {
  const other = await extensionContext.newPage();
  try {
    await other.goto(demo.url);
    await other
      .getByRole('navigation', { name: 'Users' })
      .getByRole('button', { name: 'Grace' })
      .click();
    await expect(other.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
    const panelA = await openPanel(app);
    const panelB = await openPanel(other);

    // One after the other, so the server numbers them 9 then 10.
    // Each panel shows its own push (in the list, and named in the latest change).
    await pushTodo(app, 'Only in tab A');
    await expect(panelA.getByText('Only in tab A').first()).toBeVisible();
    await pushTodo(other, 'Only in tab B');
    await expect(panelB.getByText('Only in tab B').first()).toBeVisible();

    // Tab A shows user 1's list only, tab B user 2's (opened in that tab alone).
    await expect(panelA.getByRole('listbox', { name: 'Collection rows' })).not.toContainText(
      'userId: "2"',
    );
    await expect(panelB.getByRole('listbox', { name: 'Collection rows' })).toContainText(
      'userId: "2"',
    );
    await expect.poll(() => pksOf(members(panelA, USER_1))).toEqual(['1', '3', '5', '9']);
    await expect
      .poll(() => pksOf(members(panelB, '[Todo] userId: "2"')))
      .toEqual(['2', '4', '6', '10']);
    for (const [panel, foreign] of [
      [panelA, 'Only in tab B'],
      [panelB, 'Only in tab A'],
    ] as const) {
      await expect(panel.getByText(foreign)).toHaveCount(0);
      await showView(panel, 'Entities');
      // Rows come when shown: once every label is there, none is the other tab's.
      await expect(panel.getByRole('listbox', { name: 'Todo entities' })).not.toContainText(
        'loading…',
      );
      await expect(panel.getByText(foreign)).toHaveCount(0);
      await showView(panel, 'Timeline');
      // Each tab's own history: 3 loads in B (users, user 1, user 2), 2 in A; one push each.
      await expect(panel.getByRole('listbox', { name: 'Timeline' })).toBeVisible();
    }
    await expect.poll(() => timelineSeqs(panelA)).toEqual(upTo(4));
    await expect.poll(() => timelineSeqs(panelB)).toEqual(upTo(5));
  } finally {
    await other.close();
  }
});
