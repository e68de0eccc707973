// Locators and readers for the RestLens panel, shared by the specs. They go through roles and
// labels where the panel has them, and through the `data-pk` / `data-seq` row attributes where a
// row's identity is not text (its pk, its event seq).
import type { Frame, FrameLocator, Locator, Page } from '@playwright/test';
import { expect } from './fixtures.js';

/** A panel opened as a page, or the panel frame inside DevTools. */
export type PanelRoot = Page | Frame | FrameLocator;

/** The demo's user 1 list, as the Collections view names it. */
export const USER_1 = '[Todo] userId: "1"';

/** The view switcher's tab, e.g. `view(panel, 'Timeline')`. */
export function viewTab(panel: PanelRoot, name: string): Locator {
  return panel.getByRole('tablist', { name: 'Views' }).getByRole('tab', { name });
}

export async function showView(panel: PanelRoot, name: string): Promise<void> {
  const tab = viewTab(panel, name);
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** The connection status in the header ("Connected", "Disconnected, reconnecting…", …). */
export function status(panel: PanelRoot): Locator {
  return panel.locator('header').getByRole('status');
}

/** The Collections view's list of collection rows. */
export function collectionRows(panel: PanelRoot): Locator {
  return panel.getByRole('listbox', { name: 'Collection rows' }).getByRole('option');
}

/** The members of the collection row shown in the Collections view, e.g. `[Todo] userId: "1"`. */
export function members(panel: PanelRoot, row: string): Locator {
  return panel.getByRole('listbox', { name: `Members of ${row}` }).getByRole('option');
}

/** Opens one collection row (by its text in the row list, e.g. `userId: "2"`). */
export async function openCollectionRow(panel: PanelRoot, text: string): Promise<void> {
  await showView(panel, 'Collections');
  const row = collectionRows(panel).filter({ hasText: text });
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
}

/** The "Latest change" note of the collection row shown. */
export function latestChange(panel: PanelRoot): Locator {
  return panel.getByRole('note', { name: 'Latest change' });
}

/** The pks of a list's rows, in list order (rows carry `data-pk`). */
export function pksOf(rows: Locator): Promise<string[]> {
  return rows.evaluateAll((elements) =>
    elements
      .map((element) => ({
        pk: element.getAttribute('data-pk') ?? '',
        position: Number(element.getAttribute('aria-posinset')),
      }))
      .sort((a, b) => a.position - b.position)
      .map(({ pk }) => pk),
  );
}

/** The seqs of the timeline's event rows, in order (rows carry `data-seq`). */
export function timelineSeqs(panel: PanelRoot): Promise<number[]> {
  return panel
    .getByRole('listbox', { name: 'Timeline' })
    .locator('[data-seq]')
    .evaluateAll((elements) =>
      elements.map((element) => Number(element.getAttribute('data-seq'))).sort((a, b) => a - b),
    );
}

/** The timeline's event row for `seq`. */
export function timelineEvent(panel: PanelRoot, seq: number): Locator {
  return panel.getByRole('listbox', { name: 'Timeline' }).locator(`[data-seq="${seq}"]`);
}

/** The store's last seq, as the header shows it ("seq N · library x"). */
export async function headerSeq(panel: PanelRoot): Promise<number> {
  const text = await panel
    .locator('header')
    .getByText(/^seq \d+/)
    .textContent();
  return Number(/^seq (\d+)/.exec(text ?? '')?.[1] ?? Number.NaN);
}

/** Looks an entity up in the Entities view and returns its detail. */
export async function showEntity(panel: PanelRoot, type: string, pk: string): Promise<Locator> {
  await showView(panel, 'Entities');
  const lookup = panel.getByRole('form', { name: 'Look up an entity' });
  await lookup.getByRole('combobox', { name: 'Entity type' }).selectOption(type);
  await lookup.getByRole('searchbox', { name: 'pk' }).fill(pk);
  await lookup.getByRole('button', { name: 'Show' }).click();
  const entity = panel.getByRole('article', { name: `${type} ${pk}` });
  await expect(entity).toBeVisible();
  return entity;
}

/** A field's value in an entity's detail ("completed" → "true"). */
export function field(entity: Locator, name: string): Locator {
  return entity
    .getByRole('region', { name: 'Fields' })
    .getByRole('row', { name: name })
    .getByRole('cell')
    .first();
}

/** Empties the Recorder's list (it is kept in extension storage, across panels). */
export async function clearRecording(panel: PanelRoot): Promise<void> {
  await showView(panel, 'Recorder');
  const recorder = panel.getByRole('region', { name: 'Recorder' });
  const clear = recorder.getByRole('button', { name: 'Clear…' });
  if (await clear.isEnabled()) {
    await clear.click();
    await recorder.getByRole('button', { name: 'Clear', exact: true }).click();
  }
  await expect(recorder.getByText('0 mutations', { exact: true })).toBeVisible();
}

/** The demo app: the ids of the todos it lists, in order. */
export function todoIds(app: Page): Promise<string[]> {
  return app
    .getByTestId('todos')
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => item.getAttribute('data-testid')?.replace('todo-', '') ?? ''),
    );
}

/** The demo app: adds a todo at the end of the shown list (does not wait for the server). */
export async function pushTodo(app: Page, title: string): Promise<void> {
  await app.getByRole('textbox', { name: 'New todo title' }).fill(title);
  await app.getByRole('button', { name: 'Add at end' }).click();
}

/** A server control of the demo (`/control/latency`, `/control/fail-next`, `/control/state`). */
export async function control(
  baseUrl: string,
  action: 'latency' | 'fail-next' | 'reset' | 'state',
  body: object = {},
): Promise<unknown> {
  const response = await fetch(`${baseUrl}/control/${action}`, {
    method: action === 'state' ? 'GET' : 'POST',
    body: action === 'state' ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`/control/${action} answered ${response.status}`);
  return response.json();
}
