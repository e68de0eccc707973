// Screenshots of every view of the panel, light and dark, after a session in the demo that
// touches every kind of change. They are test output (test-results/screenshots/); the README's
// two come from here (docs/screenshots/, copied by hand when the panel changes).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './fixtures.js';
import {
  clearRecording,
  latestChange,
  openCollectionRow,
  showEntity,
  showView,
  status,
  timelineEvent,
  viewTab,
} from './lens.js';

const SCREENSHOTS = resolve('test-results/screenshots');

test('screenshots of every view, light and dark', async ({ app, openPanel }) => {
  // Two themes × every view (the view list is read from the panel: new views are included).
  test.setTimeout(60_000);
  const panel = await openPanel(app);
  await panel.setViewportSize({ width: 1200, height: 640 });
  await expect(status(panel)).toHaveText('Connected');
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);

  const views = await panel
    .getByRole('tablist', { name: 'Views' })
    .getByRole('tab')
    .allInnerTexts();
  expect(views).toEqual(expect.arrayContaining(['Collections', 'Entities', 'Timeline']));

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
      await expect(latestChange(panel)).toContainText('skipped duplicates 9, 10');
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
      await expect(timelineEvent(panel, 1)).toBeVisible();
    },
  };

  for (const theme of ['light', 'dark'] as const) {
    await panel.emulateMedia({ colorScheme: theme });
    await expect(panel.locator('html')).toHaveAttribute('data-theme', theme);
    for (const view of views) {
      await (prepare[view.toLowerCase()] ?? (() => showView(panel, view)))();
      await expect(viewTab(panel, view)).toHaveAttribute('aria-selected', 'true');
      const path = `${SCREENSHOTS}/${view.toLowerCase()}-${theme}.png`;
      await panel.screenshot({ path, animations: 'disabled', caret: 'hide' });
      expect(statSync(path).size).toBeGreaterThan(10_000);
    }
  }
  if (recording) await clearRecording(panel);
});
