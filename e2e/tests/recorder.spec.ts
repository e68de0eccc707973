// The Recorder: record mutations on the demo app, export them as a session file, reload
// the page, import the file, and replay it: `apply` writes the recorded responses (the panel's
// and the app's collections are what they were before the reload; the server is untouched),
// `send` runs the endpoints again (the server holds the mutations again).
import { readFileSync } from 'node:fs';
import type { Todo } from '../app/data.js';
import { expect, test } from './fixtures.js';
import {
  clearRecording,
  control,
  members,
  pksOf,
  showView,
  status,
  todoIds,
  USER_1,
} from './lens.js';

async function serverTodos(baseUrl: string): Promise<Todo[]> {
  return ((await control(baseUrl, 'state')) as { todos: Todo[] }).todos;
}

test('record, export, reload, import, replay apply then send', async ({ app, demo, openPanel }) => {
  test.setTimeout(60_000);
  const panel = await openPanel(app);
  await expect(status(panel)).toHaveText('Connected');
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
  await clearRecording(panel);
  const recorder = panel.getByRole('region', { name: 'Recorder' });

  // Record: push, unshift, partial update, update, delete.
  await recorder.getByRole('button', { name: 'Record' }).click();
  await expect(recorder.getByRole('status').first()).toHaveText('Recording mutations');
  const title = app.getByRole('textbox', { name: 'New todo title' });
  await title.fill('Recorded push');
  await app.getByRole('button', { name: 'Add at end' }).click();
  await expect(app.getByTestId('todo-9')).toBeVisible();
  await title.fill('Recorded unshift');
  await app.getByRole('button', { name: 'Add at start' }).click();
  await expect(app.getByTestId('todo-10')).toBeVisible();
  await app.getByTestId('todo-3').getByRole('button', { name: 'Done' }).click();
  await expect(app.getByTestId('todo-3').getByRole('button', { name: 'Undo' })).toBeVisible();
  await app.getByTestId('todo-1').getByRole('button', { name: 'Rename' }).click();
  await expect(app.getByTestId('todo-1')).toContainText('Read the spec!');
  await app.getByTestId('todo-5').getByRole('button', { name: 'Delete' }).click();
  await expect(app.getByTestId('todo-5')).toHaveCount(0);
  await expect(recorder.getByText('5 mutations', { exact: true })).toBeVisible();
  await recorder.getByRole('button', { name: 'Pause' }).click();
  await expect(recorder.getByRole('status').first()).toHaveText('Paused');
  const recorded = recorder.getByRole('listbox', { name: 'Recorded mutations' });
  await expect(recorded.getByRole('option')).toHaveCount(5);
  for (const [index, endpoint] of [
    'Todo.getList.push',
    'Todo.getList.unshift',
    'Todo.partialUpdate',
    'Todo.update',
    'Todo.delete',
  ].entries())
    await expect(recorded.getByRole('option').nth(index)).toContainText(endpoint);

  const before = await todoIds(app);
  expect(before).toEqual(['10', '1', '3', '9']);
  await showView(panel, 'Collections');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(before);

  // Export: a session file, downloaded.
  await showView(panel, 'Recorder');
  const downloading = panel.waitForEvent('download');
  await recorder.getByRole('button', { name: 'Export…' }).click();
  const download = await downloading;
  const sessionFile = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(sessionFile);
  expect(download.suggestedFilename()).toMatch(/^restlens-session-.*\.json$/);
  const session = JSON.parse(readFileSync(sessionFile, 'utf8'));
  expect(session.mutations.map((mutation: { endpoint: string }) => mutation.endpoint)).toEqual([
    'Todo.getList.push',
    'Todo.getList.unshift',
    'Todo.partialUpdate',
    'Todo.update',
    'Todo.delete',
  ]);

  // A fresh start: the server's seed, the page reloaded, the Recorder's list emptied.
  await control(demo.url, 'reset');
  await app.reload();
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
  await expect(panel.locator('header')).toContainText('Page reloaded 1×');
  await clearRecording(panel);

  // Import the file.
  await recorder.getByLabel('Session file to import').setInputFiles(sessionFile);
  await expect(recorder.getByText(/^Imported 5 mutations from restlens-session-/)).toBeVisible();
  await expect(recorded.getByRole('option')).toHaveCount(5);

  // Replay `apply`: the recorded responses, no network.
  await expect(recorder.getByRole('combobox', { name: 'Mode' })).toHaveValue('apply');
  await recorder.getByRole('button', { name: 'Replay' }).click();
  await expect(recorder.getByText('Replay (apply) finished: 5 ok.')).toBeVisible();
  await expect.poll(() => todoIds(app)).toEqual(before);
  await expect(app.getByTestId('todo-1')).toContainText('Read the spec!');
  await showView(panel, 'Collections');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(before);
  // Nothing reached the server.
  const seed = await serverTodos(demo.url);
  expect(seed.map((todo) => todo.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

  // Replay `send`: the endpoints run again, so the server holds the mutations again.
  await showView(panel, 'Recorder');
  await recorder.getByRole('combobox', { name: 'Mode' }).selectOption('send');
  await recorder.getByRole('button', { name: 'Replay' }).click();
  await expect(recorder.getByText('Replay (send) finished: 5 ok.')).toBeVisible();
  const todos = await serverTodos(demo.url);
  const byId = new Map(todos.map((todo) => [todo.id, todo]));
  expect(todos.filter((todo) => todo.userId === 1).map((todo) => todo.title)).toEqual([
    'Read the spec!',
    'Write the resource',
    'Load the next page',
    'Recorded push',
    'Recorded unshift',
  ]);
  expect(byId.get(3)?.completed).toBe(true);
  expect(byId.has(5)).toBe(false);

  await clearRecording(panel);
});
