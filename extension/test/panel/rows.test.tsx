import { act, fireEvent, screen, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Effect } from '../../../library/src/devtools/protocol/effects.js';
import {
  type Encoded,
  MAX_ROWS_PER_REQUEST,
} from '../../../library/src/devtools/protocol/messages.js';
import { panelEnvPerTest } from './support/env.js';
import { settle } from './support/harness.js';
import { ScriptedPage } from './support/scripted.js';

/**
 * Rows on demand: events name the entities they touch, and the views ask the page for the rows
 * they show. The page is played by the test, so what shows before and after it answers is
 * checked.
 */

const env = panelEnvPerTest({ openApp: false });
let page: ScriptedPage;
beforeEach(() => {
  page = new ScriptedPage(env.panel);
});

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => String(from + index));
const todo = (_table: string, pk: string): Encoded => ({ id: Number(pk), title: `todo ${pk}` });
const added = (pks: string[], entity = 'Todo'): Effect => ({ type: 'entities-added', entity, pks });
const sorted = (pks: Iterable<string>) => [...new Set(pks)].sort((a, b) => Number(a) - Number(b));

async function openTab(name: string) {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
}

const entityList = () => screen.getByRole('listbox', { name: 'Todo entities' });
const renderedPks = (list: HTMLElement) =>
  within(list)
    .getAllByRole('option')
    .map((option) => option.getAttribute('data-pk') ?? '');

async function lookUp(pk: string) {
  fireEvent.input(screen.getByRole('searchbox', { name: 'pk' }), { target: { value: pk } });
  fireEvent.click(screen.getByRole('button', { name: 'Show' }));
  await settle();
}
const fields = () => within(screen.getByRole('article')).getByRole('region', { name: 'Fields' });

describe('Entities view: rows on demand', () => {
  it('asks for the rows in view only, shows them loading, then their labels', async () => {
    await page.open();
    await page.change([added(range(1, 200))]);
    await openTab('Entities');

    const shown = renderedPks(entityList());
    expect(shown.length).toBeLessThan(50);
    expect(sorted(page.requestedPks('Todo'))).toEqual(sorted(shown));
    for (const option of within(entityList()).getAllByRole('option'))
      expect(option.textContent).toContain('loading…');

    await page.answer(todo);
    const first = within(entityList()).getAllByRole('option')[0] as HTMLElement;
    expect(first.textContent).toBe('1todo 1');
    expect(entityList().textContent).not.toContain('loading…');

    // Scrolling brings other rows into view: they are asked for, those already here are not.
    const asked = page.rowRequests().length;
    entityList().scrollTop = 150 * 22;
    await act(() => {
      fireEvent.scroll(entityList());
    });
    await settle();
    const later = page.rowRequests().slice(asked);
    expect(later.flatMap((command) => command.pks)).toContain('150');
    expect(later.flatMap((command) => command.pks)).not.toContain('1');
  });

  it('asks for the selected entity, and keeps showing it while a fresh row is on its way', async () => {
    await page.open({ Todo: { '1': { id: 1, title: 'old' } } });
    await openTab('Entities');
    await lookUp('1');
    expect(within(fields()).getByText('title').nextElementSibling?.textContent).toBe('"old"');
    expect(page.rowRequests()).toEqual([]); // the snapshot brought it

    await page.change([
      {
        type: 'entities-updated',
        entity: 'Todo',
        updates: [{ pk: '1', fields: [{ field: 'title', before: 'old', after: 'new' }] }],
      },
    ]);
    // Stale: the old row stays, marked busy, while it is asked for.
    expect(within(fields()).getByText('title').nextElementSibling?.textContent).toBe('"old"');
    expect(fields().getAttribute('aria-busy')).toBe('true');
    expect(page.requestedPks('Todo')).toEqual(['1']);
    expect(screen.getByRole('region', { name: 'Meta' }).textContent).toContain(
      '#1 setResponse: updated Todo 1: title: "old" → "new"',
    );

    await page.answer(() => ({ id: 1, title: 'new' }));
    expect(within(fields()).getByText('title').nextElementSibling?.textContent).toBe('"new"');
    expect(fields().getAttribute('aria-busy')).toBe('false');

    // An entity never fetched shows its pk, loading, until its row comes.
    await page.change([added(['2'])]);
    await lookUp('2');
    expect(screen.getByRole('article', { name: 'Todo 2' })).toBeTruthy();
    expect(fields().textContent).toContain('loading…');
    await page.answer(todo);
    expect(within(fields()).getByText('title').nextElementSibling?.textContent).toBe('"todo 2"');
  });

  it('asks for every row of the type to filter by label; pks match at once', async () => {
    const count = MAX_ROWS_PER_REQUEST + 500;
    await page.open();
    await page.change([added(range(1, count))]);
    await openTab('Entities');
    await page.answer(todo); // the rows in view

    fireEvent.input(screen.getByRole('searchbox', { name: 'pk' }), { target: { value: '499' } });
    await settle();
    // By pk, before the labels have come.
    expect(renderedPks(entityList())).toEqual(['499', '1499']);
    expect(screen.getByText(/^Loading \d+ Todo rows to match their labels/)).toBeTruthy();
    expect(sorted(page.requestedPks('Todo'))).toEqual(range(1, count));
    for (const command of page.rowRequests())
      expect(command.pks.length).toBeLessThanOrEqual(MAX_ROWS_PER_REQUEST);

    await page.answer((_table, pk) =>
      pk === '1234' ? { id: 1234, title: 'needle' } : todo('Todo', pk),
    );
    fireEvent.input(screen.getByRole('searchbox', { name: 'pk' }), {
      target: { value: 'needle' },
    });
    await settle();
    expect(renderedPks(entityList())).toEqual(['1234']);
    expect(screen.queryByText(/rows to match/)).toBeNull();
  });
});

describe('Collections view: rows on demand', () => {
  it('asks for the labels of the members in view and of the pks its change names', async () => {
    await page.open();
    const members = range(1, 100);
    await page.change(
      [
        added(members),
        {
          type: 'collection-changed',
          collection: '[Todo]',
          row: '{}',
          kind: 'replace',
          lengthBefore: 0,
          lengthAfter: 100,
          inserted: [],
          duplicates: [],
          removed: [],
          members,
        },
      ],
      [
        {
          type: 'collection-changed',
          collection: '[Todo]',
          row: '{}',
          kind: 'page-merge',
          lengthBefore: 100,
          lengthAfter: 100,
          inserted: [],
          duplicates: ['90'],
          removed: [],
        },
      ],
    );
    const list = screen.getByRole('listbox', { name: /^Members of/ });
    const shown = renderedPks(list);
    expect(shown.length).toBeLessThan(50);
    expect(sorted(page.requestedPks('Todo'))).toEqual(sorted([...shown, '90']));
    expect(within(list).getAllByRole('option')[0]?.textContent).toContain('loading…');

    await page.answer(todo);
    expect(within(list).getAllByRole('option')[0]?.textContent).toContain('todo 1');
    const note = screen.getByRole('note', { name: 'Latest change' });
    expect(within(note).getByRole('button').textContent).toBe('90 todo 90');
  });
});

describe('Timeline: grouped effects', () => {
  it('counts a group, and lists its entities under it, each opening its entity', async () => {
    await page.open();
    await page.change([
      added(['1', '2', '3']),
      {
        type: 'entities-updated',
        entity: 'User',
        updates: [
          {
            pk: '7',
            fields: [
              { field: 'name', before: 'Ada', after: 'Grace' },
              { field: 'email', before: null, after: 'g@example.com' },
            ],
          },
        ],
      },
    ]);
    await openTab('Timeline');
    const timeline = screen.getByRole('listbox', { name: 'Timeline' });
    const event = within(timeline).getByRole('option');
    expect(event.querySelector('.summary')?.textContent).toBe('3 added · 1 updated');
    fireEvent.click(event);
    await settle();
    const details = within(timeline)
      .getAllByRole('option')
      .filter((row) => row.classList.contains('detail'));
    expect(details.map((row) => row.textContent)).toEqual([
      'added 3 Todo',
      'added Todo 1',
      'added Todo 2',
      'added Todo 3',
      'updated User 7: name: "Ada" → "Grace", email: null → "g@example.com"',
    ]);
    expect(details.filter((row) => row.classList.contains('nested'))).toHaveLength(3);
    fireEvent.click(details[2] as HTMLElement);
    await settle();
    expect(screen.getByRole('article', { name: 'Todo 2' }).textContent).toContain('loading…');
  });

  it('says so on an event whose effects were too large to send', async () => {
    await page.open();
    await page.change({ action: { type: 'setResponse' }, effects: [], effectsOmitted: true });
    await openTab('Timeline');
    const timeline = screen.getByRole('listbox', { name: 'Timeline' });
    const event = within(timeline).getByRole('option');
    const said =
      'effects left out (too large for one message); the snapshot after it has the state';
    expect(event.querySelector('.summary')?.textContent).toBe(said);
    fireEvent.click(event);
    await settle();
    const detail = within(timeline).getByText(said, { selector: '.detail-text' });
    expect(detail.parentElement?.className).toContain('tone-warn');
    expect(timeline.textContent).not.toContain('no effect on the store');
  });
});
