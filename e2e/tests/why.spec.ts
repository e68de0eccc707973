// The "why" in the real DevTools panel (Chromium): why each request ran, where the app called it
// (a frame opens the demo's own source, App.tsx, at that line in the Sources panel), who reads a
// result and shows an entity, and a search of the cache by value.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { showEntity, showView, status, timelineEvent } from './lens.js';
import { openRestLens, test } from './realDevtools.js';

/** The line of the demo's source that calls `controller.invalidate` (its Invalidate button). */
const INVALIDATE_LINE =
  readFileSync('e2e/app/client/App.tsx', 'utf8')
    .split('\n')
    .findIndex((line) => line.includes('controller.invalidate(TodoResource.getList')) + 1;

/**
 * What DevTools' Sources panel shows: whether it is the panel shown, the file open in its editor
 * and the line of its cursor (DevTools internals, read in its page).
 */
function sourcesShown(devtools: Page) {
  return devtools.evaluate(async () => {
    const load = (path: string) => import(new URL(path, location.href).href);
    const UI = await load('ui/legacy/legacy.js');
    const Sources = await load('panels/sources/sources.js');
    const shown = UI.InspectorView.InspectorView.instance().tabbedPane.selectedTabId;
    const view = Sources.SourcesPanel.SourcesPanel.instance().sourcesView();
    const editor = view.currentSourceFrame()?.textEditor;
    const state = editor?.state;
    return {
      shown,
      url: String(view.currentUISourceCode()?.url() ?? ''),
      line: state ? state.doc.lineAt(state.selection.main.head).number : undefined,
    };
  });
}

test('why each request ran, from where, who reads it, and a search by value', async ({
  devtoolsContext: context,
  devtoolsDemo: demo,
}) => {
  // The real DevTools, its Sources panel and source maps take their time on a busy machine.
  test.setTimeout(90_000);
  const { app, devtools, panel, showPanel } = await openRestLens(context, demo);

  // Call sites are recorded while a panel is connected: the click waits for it.
  await expect(status(panel)).toHaveText('Connected');
  // The app invalidates its list: the timeline says the app called it, and from which line.
  await app.getByTestId('invalidate').click();
  await showView(panel, 'Timeline');
  const invalidation = panel
    .getByRole('listbox', { name: 'Timeline' })
    .locator('[data-seq]')
    .filter({ has: panel.locator('.kind').getByText('invalidate', { exact: true }) })
    .last();
  await invalidation.click();
  const seq = Number(await invalidation.getAttribute('data-seq'));
  const why = panel.getByRole('article', { name: `Event #${seq}` }).getByRole('region', {
    name: 'Why',
  });
  await expect(why.locator('.why-reason')).toHaveText('app call');
  // Its innermost frame is the demo's own source (through the page's source map).
  const frame = why.getByRole('button').first();
  await expect(frame).toHaveText(new RegExp(`App\\.tsx:${INVALIDATE_LINE}:\\d+$`));
  await frame.click();
  await expect
    .poll(() => sourcesShown(devtools))
    .toMatchObject({
      shown: 'sources',
      url: expect.stringMatching(/\/e2e\/app\/client\/App\.tsx$/),
      line: INVALIDATE_LINE,
    });

  // The list's reader fetched it again: because of that invalidate.
  await showPanel();
  const refetch = timelineEvent(panel, seq + 1);
  await refetch.click();
  await expect(
    panel
      .getByRole('article', { name: `Event #${seq + 1}` })
      .getByRole('region', { name: 'Why' })
      .locator('.why-reason'),
  ).toHaveText(`invalidated by invalidate #${seq}`);

  // Results: who reads the list (by component) and why it was fetched each time.
  await showView(panel, 'Results');
  await panel
    .getByRole('listbox', { name: 'Results' })
    .locator('[data-key="GET /todos?userId=1"]')
    .click();
  const readers = panel.getByRole('region', { name: 'Readers and fetches' });
  await expect(readers).toContainText('<TodoList>');
  await expect(readers.locator('.fetch-history')).toHaveText(
    `fetched 2× — mount <TodoList>, invalidated by invalidate #${seq}`,
  );

  // Entities: the components that show a todo.
  const todo = await showEntity(panel, 'Todo', '1');
  await expect(
    todo.getByRole('region', { name: 'Referenced by' }).locator('.components-showing-it'),
  ).toHaveText('<TodoList>');

  // Search: a todo's title found by a part of it, and opened.
  await showView(panel, 'Search');
  await panel.getByRole('searchbox', { name: 'Search entity values' }).fill('RESOURCE');
  const match = panel.getByRole('list', { name: 'Matches' }).getByRole('listitem');
  await expect(match).toHaveText(['Todo 3 title: Write the resource']);
  await match.getByRole('button', { name: 'Todo 3' }).click();
  await expect(panel.getByRole('article', { name: 'Todo 3' })).toBeVisible();
});
