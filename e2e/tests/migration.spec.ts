// The migration check: an app written exactly as @data-client/rest's documentation writes one
// (library/test/migration/app.tsx, import specifiers aside) runs against the demo server. Its
// declarations side is checked by library/test/declarations on TypeScript 4.3, 5.0 and newest.
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.js';

/** User 1's todos on page 1 (pages of 3): the seed's todos 1, 3 and 5. */
const PAGE_1 = ['Read the spec', 'Write the resource', 'Push a todo'];

test.beforeEach(async ({ demo }) => {
  await fetch(`${demo.url}/control/reset`, { method: 'POST' });
});

async function openMigrationApp(page: Page, url: string) {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await page.goto(`${url}/migration/`);
  return requests;
}

/** Each todo's row starts with its title (a delete button follows). */
const titled = (titles: string[]) => titles.map((title) => new RegExp(`^${title}delete$`));

const todoTitles = (page: Page) =>
  page.getByRole('listitem').filter({ has: page.getByRole('checkbox') });

test('the documented app renders its resources: a user with nested todos, a list, a union feed', async ({
  extensionContext,
  demo,
}) => {
  const page = await extensionContext.newPage();
  const requests = await openMigrationApp(page, demo.url);
  await expect(page.getByRole('heading', { name: 'Ada' })).toBeVisible();
  await expect(page.getByText(/^\d+ open$/)).toBeVisible();
  await expect(todoTitles(page)).toHaveText(titled(PAGE_1));
  // The feed's members are told apart by their `type`: notes show text, links their url.
  for (const text of ['Welcome to the demo', 'https://example.com/docs', 'Open the RestLens panel'])
    await expect(page.getByRole('listitem').filter({ hasText: text })).toHaveCount(1);
  // hookifyResource's useInit sends its header; the base Endpoint class its credentials.
  const userRequest = requests.find((request) => request.url().includes('/users/1'));
  expect(userRequest?.headers()['access-token']).toBe('demo-token');
  await page.close();
});

test('the documented mutations: push, getPage, an optimistic toggle, delete, batch delete', async ({
  extensionContext,
  demo,
}) => {
  const page = await extensionContext.newPage();
  await openMigrationApp(page, demo.url);
  await expect(todoTitles(page)).toHaveText(titled(PAGE_1));

  await page.getByRole('button', { name: 'add' }).click();
  await expect(todoTitles(page)).toHaveText(titled([...PAGE_1, 'New todo']));

  // Page 2 of user 1 holds todo 7 and the new todo 9: only 7 is new to the list.
  await page.getByRole('button', { name: 'more' }).click();
  await expect(todoTitles(page)).toHaveText(titled([...PAGE_1, 'New todo', 'Load the next page']));

  const first = todoTitles(page).first().getByRole('checkbox');
  const before = await first.isChecked();
  await first.click();
  await expect(first).toBeChecked({ checked: !before });

  await todoTitles(page).filter({ hasText: 'Write the resource' }).getByRole('button').click();
  await expect(todoTitles(page)).toHaveText(
    titled(['Read the spec', 'Push a todo', 'New todo', 'Load the next page']),
  );

  await page.getByRole('button', { name: 'clear' }).click();
  await expect(todoTitles(page)).toHaveCount(0);
  const state = (await (await fetch(`${demo.url}/control/state`, { method: 'POST' })).json()) as {
    todos: { userId: number }[];
  };
  expect(state.todos.filter((todo) => todo.userId === 1)).toEqual([]);
  await page.close();
});

test("current data-client's API: a schema.Query read with useQuery, useCancelling, controller.set", async ({
  extensionContext,
  demo,
}) => {
  const page = await extensionContext.newPage();
  await openMigrationApp(page, demo.url);
  await expect(todoTitles(page)).toHaveText(titled(PAGE_1));
  await expect(page.getByText('detail: Read the spec')).toBeVisible();
  const openCount = async () =>
    Number((await page.getByText(/^\d+ open by query$/).textContent())?.split(' ')[0]);
  const before = await openCount();
  // The query follows the store: a todo toggled (optimistically) changes the count by one.
  const first = todoTitles(page).first().getByRole('checkbox');
  const wasDone = await first.isChecked();
  await first.click();
  await expect(page.getByText(`${before + (wasDone ? 1 : -1)} open by query`)).toBeVisible();
  // set() writes the todo in the tables: the detail and the list read the new title.
  await page.getByRole('button', { name: 'rename' }).click();
  await expect(page.getByText('detail: Read the spec!')).toBeVisible();
  await expect(todoTitles(page).first()).toHaveText(/^Read the spec!delete$/);
  await page.getByRole('button', { name: 'next' }).click();
  await expect(page.getByText(/^detail: (?!Read the spec)/)).toBeVisible();
  await page.close();
});
