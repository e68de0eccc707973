// The panel opened as a page (`panel.html?tabId=N`) next to the demo app: each action in the app
// shows its effect in the panel. The server is reset before each test, so the demo's todos are
// the seed (user 1: todos 1, 3, 5, 7; pages of 3) and the next todo the server creates is 9.
import { expect, test } from './fixtures.js';
import {
  collectionRows,
  control,
  field,
  latestChange,
  members,
  pksOf,
  pushTodo,
  showEntity,
  showView,
  status,
  timelineEvent,
  USER_1,
} from './lens.js';

test.beforeEach(async ({ app }) => {
  // User 1's list shows page 1 of their todos.
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
});

test('a pushed todo is last in its collection, an unshifted one first', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await expect(status(panel)).toHaveText('Connected');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);

  await pushTodo(app, 'Pushed at the end');
  await expect(latestChange(panel)).toContainText(
    'pushed Todo 9 "Pushed at the end" at the end (3 → 4)',
  );
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5', '9']);
  const pushed = members(panel, USER_1).last();
  await expect(pushed).toContainText('Pushed at the end');
  await expect(pushed).toContainText('pushed');

  await app.getByRole('textbox', { name: 'New todo title' }).fill('Unshifted at the start');
  await app.getByRole('button', { name: 'Add at start' }).click();
  await expect(latestChange(panel)).toContainText(
    'unshifted Todo 10 "Unshifted at the start" at the start (4 → 5)',
  );
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['10', '1', '3', '5', '9']);
  const unshifted = members(panel, USER_1).first();
  await expect(unshifted).toContainText('Unshifted at the start');
  await expect(unshifted).toContainText('unshifted');
});

test('the next page merges into the collection and names the duplicates it skipped', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await pushTodo(app, 'Also on page 2');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5', '9']);

  // Page 2 of user 1 is todos 7 and 9: 9 is already in the list (it was pushed).
  await app.getByRole('button', { name: 'Next page' }).click();
  const change = latestChange(panel);
  await expect(change).toContainText('Todo.getList.getPage');
  await expect(change).toContainText(
    /merged a page: added Todo 7 "[^"]*"; skipped duplicates Todo 9 "[^"]*" \(4 → 5\)/,
  );
  await expect(change.getByRole('button')).toHaveText(['9 Also on page 2']);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5', '9', '7']);
  await expect(members(panel, USER_1).last()).toContainText('merged');
});

test('a deleted todo leaves all its collections and shows INVALID with its pk computation', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  // Todo 3 is in user 1's list: in the demo, the one collection that holds it.
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);

  await app.getByTestId('todo-3').getByRole('button', { name: 'Delete' }).click();
  await expect(app.getByTestId('todo-3')).toHaveCount(0);
  await expect(latestChange(panel)).toContainText(
    /removed Todo 3 "[^"]*": deleted \(Invalidate\) \(3 → 2\)/,
  );
  await expect(latestChange(panel).getByRole('button')).toHaveText(['3']);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '5']);
  // No collection row holds it any more.
  for (const row of await collectionRows(panel).all()) {
    await row.click();
    await expect(row).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByRole('region', { name: 'Collection row', exact: true })).toBeVisible();
    await expect(panel.locator('[data-pk="3"]')).toHaveCount(0);
  }

  const entity = await showEntity(panel, 'Todo', '3');
  await expect(entity.getByRole('heading', { level: 2 })).toContainText('INVALID');
  // The server answered DELETE with an empty body: the pk came from the URL params.
  const origin = entity.getByRole('region', { name: 'How its pk was computed' });
  await expect(origin).toContainText('empty response → URL params');
  await expect(origin).toContainText('→ Todo pk "3"');
  await expect(origin).toContainText('by Todo.delete');
  await expect(
    entity.getByRole('region', { name: 'Referenced by' }).getByText('No collection holds it.'),
  ).toBeVisible();
  // The entity list marks it too.
  await expect(
    panel.getByRole('listbox', { name: 'Todo entities' }).locator('[data-pk="3"]'),
  ).toContainText('INVALID');
});

test('a batch delete removes every selected todo at once', async ({ app, openPanel }) => {
  const panel = await openPanel(app);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);

  await app.getByRole('checkbox', { name: 'Select Read the spec' }).check();
  await app.getByRole('checkbox', { name: 'Select Push a todo' }).check();
  await app.getByRole('button', { name: 'Delete selected' }).click();
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(1);

  await expect(latestChange(panel)).toContainText(
    /removed Todo 1 "[^"]*", Todo 5 "[^"]*": deleted \(Invalidate\) \(3 → 1\)/,
  );
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['3']);
  for (const pk of ['1', '5']) {
    const entity = await showEntity(panel, 'Todo', pk);
    await expect(entity.getByRole('heading', { level: 2 })).toContainText('INVALID');
    await expect(entity.getByRole('region', { name: 'How its pk was computed' })).toContainText(
      'by Todo.deleteMany',
    );
  }
});

test('an optimistic update shows before the server answers, and rolls back when it fails', async ({
  app,
  demo,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);
  const entity = await showEntity(panel, 'Todo', '3');
  await expect(field(entity, 'completed')).toHaveText('false');

  // Slow server: the panel shows the update while the request is still in flight.
  await control(demo.url, 'latency', { ms: 2500 });
  const todo3 = app.getByTestId('todo-3');
  await todo3.getByRole('button', { name: 'Done' }).click();
  await expect(field(entity, 'completed')).toHaveText('true');
  await expect(entity.getByRole('region', { name: 'Meta' })).toContainText(
    'optimistic: shown before the server answered, not committed yet',
  );
  await expect(todo3.getByRole('button', { name: 'Undo' })).toBeVisible();
  // Then the server answers and the update is committed.
  await expect(entity.getByRole('region', { name: 'Meta' })).toContainText(
    'optimistic: committed by the server',
    { timeout: 10_000 },
  );
  await expect(field(entity, 'completed')).toHaveText('true');

  // The next request fails: the optimistic update shows, then is rolled back.
  await control(demo.url, 'fail-next', { status: 500 });
  await todo3.getByRole('button', { name: 'Undo' }).click();
  await expect(field(entity, 'completed')).toHaveText('false');
  await expect(entity.getByRole('region', { name: 'Meta' })).toContainText('not committed yet');
  await expect(field(entity, 'completed')).toHaveText('true', { timeout: 10_000 });
  await expect(entity.getByRole('region', { name: 'Meta' })).toContainText(
    'optimistic: rolled back, the server refused it',
  );
  await expect(app.getByRole('alert')).toBeVisible();
  await expect(todo3.getByRole('button', { name: 'Undo' })).toBeVisible();

  // The timeline tells the same story: applied, committed; applied, rolled back.
  await showView(panel, 'Timeline');
  const timeline = panel.getByRole('listbox', { name: 'Timeline' });
  await expect(
    timeline.getByRole('option').filter({ hasText: 'Todo.partialUpdate' }).locator('.badge'),
  ).toHaveText([
    'optimistic: applied',
    'optimistic: committed',
    'optimistic: applied',
    /optimistic: rolled back/,
    /error/,
  ]);
  await expect(timelineEvent(panel, 1)).toBeVisible();
});
