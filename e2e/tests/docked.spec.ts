// The panel docked at the side of the page (554 and 400 px wide): list and detail share the
// height by a bar the user drags, the entity lookup stays one row, and Timeline rows keep their
// endpoint names whole while badges give way.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { pushTodo, showEntity, showView, status } from './lens.js';

const SIDE_WIDTHS = [554, 400] as const;

/** Whether an element's text is cut (its content is wider than its box). */
const isCut = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => ({
      text: element.textContent ?? '',
      cut: element.scrollWidth > element.clientWidth,
    })),
  );

test('docked at the side: the lookup form stays one row, Timeline endpoint names stay whole', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await expect(status(panel)).toHaveText('Connected');
  // Optimistic updates: their events carry the long "optimistic: committed" badge.
  await pushTodo(app, 'A todo with a long title');
  await expect(app.getByTestId('todo-9')).toBeVisible();
  await app.getByTestId('todo-5').getByRole('button', { name: 'Done' }).click();
  await expect(app.getByTestId('todo-5').getByRole('button', { name: 'Undo' })).toBeVisible();

  for (const width of SIDE_WIDTHS) {
    await panel.setViewportSize({ width, height: 800 });
    await showEntity(panel, 'Todo', '5');
    const lookup = panel.getByRole('form', { name: 'Look up an entity' });
    // One row: the controls' middles are level (to the pixel).
    const middles = await Promise.all(
      [
        lookup.getByRole('combobox', { name: 'Entity type' }),
        lookup.getByRole('searchbox', { name: 'pk' }),
        lookup.getByRole('button', { name: 'Show' }),
      ].map(async (control) => {
        const box = await control.boundingBox();
        return box ? box.y + box.height / 2 : Number.NaN;
      }),
    );
    expect(Math.max(...middles) - Math.min(...middles), `at ${width} px: ${middles}`).toBeLessThan(
      1,
    );

    await showView(panel, 'Timeline');
    const committed = panel
      .getByRole('listbox', { name: 'Timeline' })
      .getByRole('option')
      .filter({ hasText: 'Todo.partialUpdate' });
    await expect(committed).toHaveCount(2);
    const endpoints = await isCut(panel, '.timeline .virtual-row > .endpoint');
    expect(endpoints.length).toBeGreaterThanOrEqual(4);
    expect(endpoints.filter((endpoint) => endpoint.cut)).toEqual([]);
  }
  // At 400 px the badges are what gave way.
  const badges = await isCut(panel, '.timeline .virtual-row > .badge');
  expect(badges.some((badge) => badge.cut && badge.text.startsWith('optimistic'))).toBe(true);
});

test('docked at the side: list and detail share the height by a bar that is dragged or moved by keys', async ({
  app,
  openPanel,
}) => {
  const panel = await openPanel(app);
  await expect(status(panel)).toHaveText('Connected');
  await panel.setViewportSize({ width: 554, height: 800 });
  await showView(panel, 'Results');
  const list = panel.getByRole('region', { name: 'Stored results' });
  const detail = panel.getByRole('region', { name: 'Result', exact: true });
  const bar = panel.getByRole('separator', { name: 'Resize the list and the detail' });
  await expect(bar).toHaveAttribute('aria-orientation', 'horizontal');
  const height = async () => (await list.boundingBox())?.height ?? 0;
  const before = await height();
  // Stacked: the list above, the bar, the detail below it.
  const [listBox, barBox, detailBox] = await Promise.all(
    [list, bar, detail].map(async (part) => part.boundingBox()),
  );
  expect(listBox && barBox && detailBox).toBeTruthy();
  expect(barBox?.y).toBeGreaterThanOrEqual((listBox?.y ?? 0) + (listBox?.height ?? 0) - 1);
  expect(detailBox?.y).toBeGreaterThanOrEqual((barBox?.y ?? 0) + (barBox?.height ?? 0) - 1);

  const start = barBox ?? { x: 0, y: 0, width: 0, height: 0 };
  await panel.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await panel.mouse.down();
  await panel.mouse.move(start.x + start.width / 2, start.y + 120, { steps: 4 });
  await panel.mouse.up();
  expect(await height()).toBeGreaterThan(before + 100);
  expect(await height()).toBeLessThan(before + 140);

  const dragged = await height();
  await bar.focus();
  await panel.keyboard.press('ArrowUp');
  await panel.keyboard.press('ArrowUp');
  expect(await height()).toBeLessThan(dragged - 40);

  // Kept for this view while another is shown.
  const kept = await height();
  await showView(panel, 'Collections');
  await showView(panel, 'Results');
  expect(await height()).toBeCloseTo(kept, 0);
});
