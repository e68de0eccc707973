// A script of the demo page speaks for its store: it listened on the window before the store
// greeted (so it knows the store's id, and holds the port the greeting handed over), and posts an
// event with the store's next seq, on the window and on that port. The panel shows neither: only
// the port the store kept speaks for it.
import { expect, test } from './fixtures.js';
import { forgedEvent, keepGreeting } from './forger.js';
import { headerSeq, members, pksOf, pushTodo, showView, status, USER_1 } from './lens.js';

test('an event a page script posts in the store’s name never reaches the panel', async ({
  app,
  openPanel,
}) => {
  await app.addInitScript(keepGreeting);
  await app.reload();
  await expect(app.getByTestId('todos').getByRole('listitem')).toHaveCount(3);
  const panel = await openPanel(app);
  await expect(status(panel)).toHaveText('Connected');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);
  const seq = await headerSeq(panel);

  const sent = await app.evaluate(forgedEvent, seq + 1);
  expect(sent).toEqual({ onWindow: true, onGreetingPort: true });
  // A panel applies what reaches it within a task or two: give the forgery ample time to show.
  await panel.waitForTimeout(1000);
  expect(await headerSeq(panel)).toBe(seq);
  await showView(panel, 'Timeline');
  await expect(panel.getByRole('listbox', { name: 'Timeline' })).not.toContainText('Forged');

  // The store's own next events (the first with the seq the forgery claimed) come as ever.
  await showView(panel, 'Collections');
  await pushTodo(app, 'Pushed for real');
  await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5', '9']);
  await expect.poll(() => headerSeq(panel)).toBeGreaterThan(seq);
  await showView(panel, 'Timeline');
  await expect(panel.getByRole('listbox', { name: 'Timeline' })).toContainText('Todo.getList.push');
  await expect(panel.getByRole('listbox', { name: 'Timeline' })).not.toContainText('Forged');
});
