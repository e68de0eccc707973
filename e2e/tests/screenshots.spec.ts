// Screenshots of every view of the panel, light and dark, docked at the side (554 px wide) and
// at the bottom (1400 px), after a session in the demo that touches every kind of change. They
// are test output (test-results/screenshots/<view>-<width>-<theme>.png); the docs' come from
// here (docs/screenshots/, copied by hand when the panel changes). Each view, as shot, has every
// text at WCAG AA contrast (4.5:1).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type LowContrast, lowContrastTexts } from './contrast.js';
import { expect, test } from './fixtures.js';
import {
  clearRecording,
  latestChange,
  openCollectionRow,
  showEntity,
  showView,
  status,
  viewTab,
} from './lens.js';

const SCREENSHOTS = resolve('test-results/screenshots');

/** The panel's widths: docked at the side of the page, and at the bottom of a wide window. */
const WIDTHS = [554, 1400] as const;

test('screenshots of every view, light and dark, at the side and at the bottom, all text at WCAG AA contrast', async ({
  app,
  openPanel,
}) => {
  // Two widths × two themes × every view (the view list is read from the panel).
  test.setTimeout(120_000);
  const panel = await openPanel(app);
  await panel.setViewportSize({ width: 1400, height: 640 });
  await expect(status(panel)).toHaveText('Connected');
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);

  const views = await panel
    .getByRole('tablist', { name: 'Views' })
    .getByRole('tab')
    .allInnerTexts();
  expect(views).toEqual(
    expect.arrayContaining([
      'Collections',
      'Entities',
      'Search',
      'Results',
      'Timeline',
      'Recorder',
    ]),
  );

  // The Recorder (when the panel has it) records the session below.
  const recording = views.includes('Recorder');
  const recorder = panel.getByRole('region', { name: 'Recorder' });
  if (recording) {
    await clearRecording(panel);
    await recorder.getByRole('button', { name: 'Record' }).click();
  }

  // A session: push, unshift, an optimistic update, the next page (with duplicates), and a
  // delete in another user's list.
  const title = app.getByRole('textbox', { name: 'New todo title' });
  await title.fill('Write the e2e tests');
  await app.getByRole('button', { name: 'Add at end' }).click();
  await expect(app.getByTestId('todo-9')).toBeVisible();
  await title.fill('Plan the release');
  await app.getByRole('button', { name: 'Add at start' }).click();
  await expect(app.getByTestId('todo-10')).toBeVisible();
  await app.getByTestId('todo-5').getByRole('button', { name: 'Done' }).click();
  await expect(app.getByTestId('todo-5').getByRole('button', { name: 'Undo' })).toBeVisible();
  await app.getByRole('button', { name: 'Next page' }).click();
  await expect(app.getByTestId('todo-7')).toBeVisible();
  await app
    .getByRole('navigation', { name: 'Users' })
    .getByRole('button', { name: 'Grace' })
    .click();
  await app.getByTestId('todo-2').getByRole('button', { name: 'Delete' }).click();
  await expect(app.getByTestId('todo-2')).toHaveCount(0);

  if (recording) {
    await showView(panel, 'Recorder');
    // push, unshift, partialUpdate, getPage, delete.
    await expect(recorder.getByText('5 mutations', { exact: true })).toBeVisible();
    await recorder.getByRole('button', { name: 'Pause' }).click();
  }

  // Each view in the state worth showing (by view name, lower case).
  const prepare: Record<string, () => Promise<void>> = {
    collections: async () => {
      await openCollectionRow(panel, 'userId: "1"');
      await expect(latestChange(panel)).toContainText(
        'skipped duplicates Todo 9 "Write the e2e tests", Todo 10 "Plan the release"',
      );
    },
    entities: async () => {
      const entity = await showEntity(panel, 'Todo', '2');
      await expect(entity.getByRole('region', { name: 'How its pk was computed' })).toBeVisible();
      // The whole list next to it, not only the pks matching "2".
      await panel.getByRole('searchbox', { name: 'pk' }).fill('');
      await expect(
        panel.getByRole('listbox', { name: 'Todo entities' }).getByRole('option'),
      ).toHaveCount(9);
    },
    results: async () => {
      await showView(panel, 'Results');
      const list = panel.getByRole('listbox', { name: 'Results' });
      await list.locator('[data-key="GET /todos?userId=2"]').click();
      const result = panel.getByRole('article', { name: 'Result GET /todos?userId=2' });
      await expect(result).toBeVisible();
      // Who reads it, by component, and why it was fetched.
      await expect(result.getByRole('region', { name: 'Readers and fetches' })).toBeVisible();
    },
    search: async () => {
      await showView(panel, 'Search');
      await panel.getByRole('searchbox', { name: 'Search entity values' }).fill('the');
      await expect(
        panel.getByRole('list', { name: 'Matches' }).getByRole('listitem').first(),
      ).toBeVisible();
    },
    recorder: async () => {
      await showView(panel, 'Recorder');
      const recorded = recorder.getByRole('listbox', { name: 'Recorded mutations' });
      await recorded.getByRole('option').filter({ hasText: 'Todo.partialUpdate' }).click();
      await expect(recorder.getByRole('article')).toContainText('Todo.partialUpdate');
    },
    timeline: async () => {
      await showView(panel, 'Timeline');
      const merge = panel
        .getByRole('listbox', { name: 'Timeline' })
        .getByRole('option')
        .filter({ hasText: 'Todo.getList.getPage' })
        .filter({ hasText: 'setResponse' });
      if ((await merge.getAttribute('aria-expanded')) !== 'true') await merge.click();
      await expect(merge).toHaveAttribute('aria-expanded', 'true');
      const detail = panel.getByRole('region', { name: 'Event detail' });
      await expect(detail).toBeVisible();
      // Why it ran: the click that asked for the next page, and where the app called it.
      await expect(detail.getByRole('region', { name: 'Why' })).toBeVisible();
    },
  };

  const lowContrast: (LowContrast & { shown: string })[] = [];
  for (const width of WIDTHS) {
    await panel.setViewportSize({ width, height: width < 600 ? 800 : 640 });
    for (const theme of ['light', 'dark'] as const) {
      await panel.emulateMedia({ colorScheme: theme });
      await expect(panel.locator('html')).toHaveAttribute('data-theme', theme);
      for (const view of views) {
        await (prepare[view.toLowerCase()] ?? (() => showView(panel, view)))();
        await expect(viewTab(panel, view)).toHaveAttribute('aria-selected', 'true');
        const path = `${SCREENSHOTS}/${view.toLowerCase()}-${width}-${theme}.png`;
        await panel.screenshot({ path, animations: 'disabled', caret: 'hide' });
        expect(statSync(path).size).toBeGreaterThan(10_000);
        const shown = `${view} at ${width} px, ${theme}`;
        for (const text of await lowContrastTexts(panel)) lowContrast.push({ shown, ...text });
      }
    }
  }
  expect(lowContrast).toEqual([]);
  if (recording) await clearRecording(panel);
});
