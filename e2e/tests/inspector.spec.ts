// The inspector, with the panel opened as a page beside the demo app: values as trees, the
// Results view and its actions (the app shows the forced loading and error), diffs and an
// entity's history, read-only time travel, editing a field, and the fixes of what the panel
// used to say wrong. The server is reset before each test (user 1: todos 1, 3, 5, 7; pages of 3;
// the next todo the server creates is 9).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import {
  clearRecording,
  control,
  field,
  latestChange,
  members,
  openCollectionRow,
  pksOf,
  pushTodo,
  showEntity,
  showView,
  status,
  timelineEvent,
  USER_1,
} from './lens.js';

test.beforeEach(async ({ app }) => {
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
});

/** The user 1 list's result key, as the store keys it (the demo's paths have no prefix). */
const LIST_KEY = 'GET /todos?userId=1';

/** Opens one result of the Results view and returns its detail. */
async function openResult(panel: Page, key: string) {
  await showView(panel, 'Results');
  await panel.getByRole('listbox', { name: 'Results' }).locator(`[data-key="${key}"]`).click();
  const detail = panel.getByRole('article', { name: `Result ${key}` });
  await expect(detail).toBeVisible();
  return detail;
}

/** Opens the latest (or first) timeline event whose row has `text`, and returns its detail. */
async function openEvent(panel: Page, text: string, which: 'first' | 'last' = 'last') {
  await showView(panel, 'Timeline');
  const row = panel
    .getByRole('listbox', { name: 'Timeline' })
    .locator('[data-seq]')
    .filter({ hasText: text })
    [which]();
  const seq = await row.getAttribute('data-seq');
  await panel.getByRole('listbox', { name: 'Timeline' }).locator(`[data-seq="${seq}"]`).click();
  const detail = panel.getByRole('article', { name: `Event #${seq}` });
  await expect(detail).toBeVisible();
  return detail;
}

test('values are trees, updates are before → after diffs, and an entity lists its history', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await expect(status(panel)).toHaveText('Connected');
  await app.getByTestId('todo-3').getByRole('button', { name: 'Done' }).click();
  await expect(app.getByTestId('todo-3').getByRole('button', { name: 'Undo' })).toBeVisible();

  const detail = await openEvent(panel, 'optimistic: committed');
  const body = detail.getByRole('tree', { name: 'body' });
  await expect(body.getByRole('treeitem')).toHaveText(['▾{ completed: true }', 'completed: true']);
  // The tree answers the keyboard: Left closes the value, Right opens it again.
  await body.focus();
  await body.press('ArrowLeft');
  await expect(body.getByRole('treeitem')).toHaveCount(1);
  await body.press('ArrowRight');
  await expect(body.getByRole('treeitem')).toHaveCount(2);
  const response = detail.getByRole('tree', { name: 'response' });
  await expect(response.getByRole('treeitem').first()).toContainText('completed: true');

  const entity = await showEntity(panel, 'Todo', '3');
  const history = entity.getByRole('region', { name: 'Change history' });
  const diff = history.getByRole('table', { name: 'Changes to Todo 3' }).first();
  await expect(diff.getByRole('row').nth(1)).toHaveText('completedfalsetrue');
  await expect(history.getByRole('listitem').last()).toContainText(/added Todo 3 "[^"]*"/);
});

test('the Results view: readers, status, and actions the app shows (loading, error) until a refetch', async ({
  app,
  demo,
  openPanel,
}) => {
  const panel = await openPanel(app);
  const key = LIST_KEY;
  const row = panel.getByRole('listbox', { name: 'Results' }).locator(`[data-key="${key}"]`);
  const detail = await openResult(panel, key);
  // The app's TodoList reads the list: one mounted reader.
  await expect(row.locator('.readers')).toHaveText('1 reader');
  await expect(row.locator('.result-status')).toHaveText('fresh');

  await detail.getByRole('button', { name: 'Force loading' }).click();
  await expect(app.getByText('Loading todos…')).toBeVisible();
  await expect(row.locator('.result-status')).toHaveText('loading (forced)');
  await detail.getByRole('button', { name: 'Refetch' }).click();
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
  await expect(row.locator('.result-status')).toHaveText('fresh');

  await detail.getByRole('button', { name: 'Force error' }).click();
  await expect(app.getByTestId('boundary-error')).toContainText(
    'forced from the RestLens devtools',
  );
  await expect(row.locator('.result-status')).toHaveText('error (forced)');
  // The panel's Refetch alone brings the page back: its boundary shows the list again.
  await detail.getByRole('button', { name: 'Refetch' }).click();
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
  await expect(app.getByTestId('boundary-error')).toHaveCount(0);
  await expect(row.locator('.result-status')).toHaveText('fresh');
  await expect(row.locator('.readers')).toHaveText('1 reader');

  // A slow refetch shows as in flight until its answer.
  await control(demo.url, 'latency', { ms: 1500 });
  await detail.getByRole('button', { name: 'Refetch' }).click();
  await expect(row.locator('.result-status')).toHaveText('in flight');
  await expect(row.locator('.result-status')).toHaveText('fresh', { timeout: 5000 });
  await control(demo.url, 'latency', { ms: 0 });

  await detail.getByRole('button', { name: 'Expire' }).click();
  await expect(row.locator('.result-status')).toHaveText(/stale|in flight|fresh/);
  // Invalidate is recorded as an `invalidate` of that one key (not invalidateAll).
  await detail.getByRole('button', { name: 'Invalidate' }).click();
  await showView(panel, 'Timeline');
  await expect(
    panel.getByRole('listbox', { name: 'Timeline' }).getByRole('option').locator('.kind'),
  ).toContainText(['invalidate']);
  await expect(
    panel.getByRole('listbox', { name: 'Timeline' }).getByRole('option').locator('.kind'),
  ).not.toContainText(['invalidateAll']);

  // Sort and filter.
  await showView(panel, 'Results');
  await panel.getByRole('searchbox', { name: 'Filter results' }).fill('users');
  await expect(panel.getByRole('listbox', { name: 'Results' }).getByRole('option')).toHaveCount(1);
});

test('"View state here" shows the store as of a past event, read-only, then back to live', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);
  await pushTodo(app, 'After the past');
  await expect(app.getByTestId('todo-9')).toBeVisible();
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5', '9']);

  // The read of user 1's list, before the push.
  const detail = await openEvent(panel, 'GET /todos?userId=1', 'first');
  const seq = Number((await detail.getAttribute('aria-label'))?.slice('Event #'.length));
  await detail.getByRole('button', { name: 'View state here' }).click();
  const banner = panel.getByText(/^State at #\d+ — live is #\d+/);
  await expect(banner).toContainText(`State at #${seq}`);
  await openCollectionRow(panel, 'userId: "1"');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);
  const entity = await showEntity(panel, 'Todo', '3');
  await expect(entity.getByRole('button', { name: 'Edit title' })).toHaveCount(0);

  await panel.getByRole('button', { name: 'Back to live' }).click();
  await expect(banner).toHaveCount(0);
  await openCollectionRow(panel, 'userId: "1"');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5', '9']);
});

test('an entity field edited in the panel is written into the store as a devtools edit', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  const entity = await showEntity(panel, 'Todo', '3');
  await entity.getByRole('button', { name: 'Edit title' }).click();
  await entity
    .getByRole('textbox', { name: 'New value of title (JSON)' })
    .fill('"Edited in RestLens"');
  await entity.getByRole('button', { name: 'Save' }).click();
  // The app's component re-renders with it.
  await expect(app.getByTestId('todo-3').getByTestId('title')).toHaveText('Edited in RestLens');
  await expect(field(entity, 'title')).toHaveText('"Edited in RestLens"');
  await showView(panel, 'Timeline');
  const last = panel.getByRole('listbox', { name: 'Timeline' }).getByRole('option').last();
  await expect(last).toContainText('RestLens.edit(Todo)');
  await expect(last.locator('.badge-edit')).toHaveText('devtools edit');
});

test('what the panel says is true: rollbacks, why members left, counts, labels, lookups', async ({
  app,
  demo,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);

  // 1. A failed optimistic push: the note says it was rolled back, the row has 3 members again.
  await control(demo.url, 'fail-next', { status: 500 });
  await pushTodo(app, 'Refused');
  await expect(app.getByRole('alert')).toBeVisible();
  await openCollectionRow(panel, 'userId: "1"');
  await expect(latestChange(panel)).toContainText(/Rolled back at #\d+: the server refused it/);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);

  // 10. Members are numbered from 1 under a labelled column.
  await expect(members(panel, USER_1).first().locator('.index')).toHaveText('1');
  await expect(panel.locator('.list-header .index')).toHaveText('#');

  // 2. A member a refetch left out is named as not in the fresh list (not as an Invalidate).
  await fetch(`${demo.url}/todos/1`, { method: 'DELETE' });
  const detail = await openResult(panel, LIST_KEY);
  await detail.getByRole('button', { name: 'Refetch' }).click();
  await openCollectionRow(panel, 'userId: "1"');
  await expect(latestChange(panel)).toContainText(
    /replaced by a fresh list; Todo 1 "[^"]*" not in it/,
  );
  await expect(latestChange(panel).getByText('Not in the fresh list:')).toBeVisible();

  // 7. The timeline filter finds what its rows show; summaries count every part.
  await app.getByRole('button', { name: 'Next page' }).click();
  await expect(app.getByTestId('todo-8').or(app.getByTestId('todo-7'))).toBeVisible();
  await showView(panel, 'Timeline');
  await panel.getByRole('searchbox', { name: 'Filter events' }).fill('page-merge');
  const merged = panel.getByRole('listbox', { name: 'Timeline' }).getByRole('option');
  await expect(merged).toHaveCount(1);
  await expect(merged.locator('.summary')).toHaveText(/page-merge \+\d/);
  // 12. ArrowDown from the filter enters its list.
  await panel.getByRole('searchbox', { name: 'Filter events' }).press('ArrowDown');
  await expect(panel.getByRole('listbox', { name: 'Timeline' })).toBeFocused();

  // 9. The result selector lists reads, each named by the read.
  const picker = panel.getByRole('group', { name: 'Actions' }).getByRole('combobox');
  await expect(picker.getByRole('option')).toContainText([/\(User\.getList\)/]);
  await expect(picker.getByRole('option').filter({ hasText: 'partialUpdate' })).toHaveCount(0);

  // 10. A lookup that finds nothing clears the entity shown.
  await showEntity(panel, 'Todo', '3');
  const lookup = panel.getByRole('form', { name: 'Look up an entity' });
  await lookup.getByRole('searchbox', { name: 'pk' }).fill('404');
  await lookup.getByRole('button', { name: 'Show' }).click();
  await expect(panel.getByText('No Todo with pk "404" in the store.')).toBeVisible();
  await expect(panel.getByRole('article', { name: 'Todo 3' })).toHaveCount(0);
  await expect(timelineEvent(panel, 1)).toHaveCount(0); // the Entities view is shown
});

test('a page without a store says the page changed', async ({ app, demo, openPanel }) => {
  const panel = await openPanel(app);
  await expect(status(panel)).toHaveText('Connected');
  // A page of the same site that runs no RestLens store.
  await app.goto(`${demo.url}/control/state`);
  await expect(
    panel.getByRole('heading', { name: 'The page changed: it has no RestLens store' }),
  ).toBeVisible();
  await expect(panel.getByRole('listbox', { name: 'Collection rows' })).toHaveCount(0);
  await expect(status(panel)).toHaveText('Page changed, no store');
});

test('docked at the side (554 px): panes stack and cut rows keep their text as a tooltip', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await panel.setViewportSize({ width: 554, height: 700 });
  await openCollectionRow(panel, 'userId: "1"');
  const list = await panel.getByRole('region', { name: 'Collection rows' }).boundingBox();
  const detail = await panel
    .getByRole('region', { name: 'Collection row', exact: true })
    .boundingBox();
  // Stacked: the row list above its detail, each as wide as the panel.
  expect(detail && list && detail.y >= list.y + list.height - 1).toBe(true);
  expect(list?.width).toBeGreaterThan(500);
  const row = panel.getByRole('listbox', { name: 'Collection rows' }).getByRole('option').first();
  await expect(row).toHaveAttribute('title', /^\[Todo\] .+: \d+ members$/);
  // Nothing in a row runs past the panel's edge.
  const overflow = await panel.evaluate(() =>
    [...document.querySelectorAll('.virtual-row')].some(
      (element) => element.getBoundingClientRect().right > window.innerWidth + 1,
    ),
  );
  expect(overflow).toBe(false);
  await showView(panel, 'Timeline');
  await expect(
    panel.getByRole('listbox', { name: 'Timeline' }).getByRole('option').first(),
  ).toHaveAttribute('title', /^#1 · /);
});

test('replay send: the server error body without the endpoint twice, continue after it, the new answer as a diff from the recorded one', async ({
  app,
  demo,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await clearRecording(panel);
  const recorder = panel.getByRole('region', { name: 'Recorder' });
  await recorder.getByRole('button', { name: 'Record' }).click();
  await app.getByTestId('todo-3').getByRole('button', { name: 'Done' }).click();
  await expect(app.getByTestId('todo-3').getByRole('button', { name: 'Undo' })).toBeVisible();
  await app.getByTestId('todo-5').getByRole('button', { name: 'Done' }).click();
  await expect(app.getByTestId('todo-5').getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(recorder.getByText('2 mutations', { exact: true })).toBeVisible();
  await recorder.getByRole('button', { name: 'Pause' }).click();

  // Todo 3 is gone from the server: sending its update again answers 404 with a JSON body.
  await fetch(`${demo.url}/todos/3`, { method: 'DELETE' });
  // Todo 5 was renamed on the server meanwhile: its answer now differs from the recorded one.
  await fetch(`${demo.url}/todos/5`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Renamed on the server' }),
  });
  await recorder.getByRole('combobox', { name: 'Mode' }).selectOption('send');
  await recorder.getByRole('checkbox', { name: 'Stop at the first error' }).check();
  await recorder.getByRole('button', { name: 'Replay' }).click();
  const failure = recorder.getByRole('list', { name: 'Failed mutations' }).getByRole('listitem');
  await expect(failure).toHaveText(
    /^#1 Todo\.partialUpdate: PATCH \/todos\/3: 404 Not Found: \{"error":"no todo 3"\}$/,
  );
  await expect(
    recorder.getByRole('status').filter({ hasText: 'stopped at the first error' }),
  ).toBeVisible();

  await recorder.getByRole('button', { name: 'Continue after the error' }).click();
  await expect(
    recorder.getByRole('status').filter({ hasText: 'finished: 1 ok, 1 failed' }),
  ).toBeVisible();
  await recorder
    .getByRole('listbox', { name: 'Recorded mutations' })
    .getByRole('option')
    .nth(1)
    .click();
  const answers = recorder.getByRole('region', { name: 'Recorded and new response' });
  await expect(answers.getByRole('status')).toHaveText('1 change from the recorded response.');
  const diff = answers.getByRole('tree', { name: 'response now against recorded' });
  await expect(diff.getByRole('treeitem').filter({ hasText: 'changed' })).toHaveText([
    /^▾Todo \{ id: 5, .*\}changed$/,
    /^title: ".+" → "Renamed on the server"changed$/,
  ]);
  await clearRecording(panel);
});

test('a delete names the same results that lost a member, seen live or by a panel opened later', async ({
  app,
  openPanel,
}) => {
  const live = await openPanel(app);
  await expect(status(live)).toHaveText('Connected');
  await app.getByTestId('todo-3').getByRole('button', { name: 'Delete' }).click();
  await expect(app.getByTestId('todo-3')).toHaveCount(0);
  const seenLive = (await showEntity(live, 'Todo', '3')).getByRole('region', {
    name: 'How its pk was computed',
  });
  await expect(seenLive).toContainText('Results that only lost it');
  const later = await openPanel(app);
  const seenLater = (await showEntity(later, 'Todo', '3')).getByRole('region', {
    name: 'How its pk was computed',
  });
  await expect(seenLater).toHaveText((await seenLive.textContent()) ?? '');
});
