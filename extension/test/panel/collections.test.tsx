import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { press, settle } from './support/harness.js';

const env = panelEnvPerTest();

const membersList = () => screen.getByRole('listbox', { name: /^Members of/ });
const members = () => within(membersList()).getAllByRole('option');
const memberPks = () => members().map((option) => option.querySelector('.pk')?.textContent ?? '');
const latestChange = () => screen.getByRole('note', { name: 'Latest change' });

/** Shows one collection row (by its arguments text) in the detail pane. */
function openRow(args: string) {
  const rows = screen.getByRole('listbox', { name: 'Collection rows' });
  fireEvent.click(within(rows).getByText(args));
}

describe('Collections view', () => {
  it('lists every collection row with its arguments and its members in order', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList, {});
    await settle();
    const rows = within(screen.getByRole('listbox', { name: 'Collection rows' })).getAllByRole(
      'option',
    );
    expect(rows.map((row) => row.querySelector('.args')?.textContent)).toEqual([
      'userId: "1"',
      'all (no arguments)',
    ]);
    openRow('userId: "1"');
    expect(memberPks()).toEqual(['4', '3']);
    expect(members()[0]?.textContent).toContain('call mum');
  });

  it('shows a pushed member last, highlighted as pushed', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new todo' });
    await settle();
    expect(memberPks()).toEqual(['4', '3', '5']);
    const last = members().at(-1) as HTMLElement;
    expect(last.textContent).toContain('new todo');
    expect(within(last).getByText('pushed')).toBeTruthy();
    expect(last.classList.contains('is-changed')).toBe(true);
    // Only the member the latest change inserted is highlighted.
    expect(members().filter((option) => option.classList.contains('is-changed'))).toHaveLength(1);
    expect(latestChange().textContent).toContain('pushed 5 at the end (2 → 3)');
    expect(latestChange().textContent).toContain('Todo.getList.push');
  });

  it('shows an unshifted member first, highlighted as unshifted', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(
      TodoResource.getList.unshift,
      { userId: 1 },
      { title: 'urgent' },
    );
    await settle();
    expect(memberPks()).toEqual(['5', '4', '3']);
    const first = members()[0] as HTMLElement;
    expect(within(first).getByText('unshifted')).toBeTruthy();
    expect(latestChange().textContent).toContain('unshifted 5 at the start (2 → 3)');
  });

  it('shows a merged page and lists the duplicates it skipped', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 }); // [4, 3]
    env.server.add({ title: 'from another tab' }); // 5: page 2 is now [3, 2]
    await env.app.controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 });
    await settle();
    expect(memberPks()).toEqual(['4', '3', '2']);
    expect(within(members()[2] as HTMLElement).getByText('merged')).toBeTruthy();
    expect(latestChange().textContent).toContain('merged a page: added 2; skipped duplicates 3');
    const skipped = within(latestChange()).getByText('Skipped as duplicates:').parentElement;
    expect(within(skipped as HTMLElement).getByRole('button').textContent).toBe('3 write report');
  });

  it('removes a deleted entity from every collection row that held it', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList, {});
    await env.app.controller.fetch(TodoResource.delete, { id: 4 });
    await settle();
    for (const args of ['userId: "1"', 'all (no arguments)']) {
      openRow(args);
      expect(memberPks()).toEqual(['3']);
      expect(latestChange().textContent).toContain('removed 4 by Invalidate (2 → 1)');
      expect(within(latestChange()).getByText('Removed by Invalidate:')).toBeTruthy();
    }
  });

  it('removes every entity of a batch delete', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 });
    await env.app.controller.fetch(TodoResource.deleteMany, { ids: '2,4' });
    await settle();
    expect(memberPks()).toEqual(['3', '1']);
    expect(latestChange().textContent).toMatch(/removed (2, 4|4, 2) by Invalidate/);
  });

  it('opens a member in the Entities view on click and on Enter', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    fireEvent.click(members()[1] as HTMLElement);
    await settle();
    expect(screen.getByRole('tab', { name: 'Entities' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(screen.getByRole('article', { name: 'Todo 3' })).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Collections' }));
    await settle();
    const list = membersList();
    list.focus();
    await press(list, 'End');
    await press(list, 'ArrowUp');
    await press(list, 'Enter');
    await settle();
    expect(screen.getByRole('article', { name: 'Todo 4' })).toBeTruthy();
  });

  it('filters the collection rows', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList, {});
    await settle();
    fireEvent.input(screen.getByRole('searchbox', { name: 'Filter collections' }), {
      target: { value: 'userid' },
    });
    await settle();
    const rows = within(screen.getByRole('listbox', { name: 'Collection rows' })).getAllByRole(
      'option',
    );
    expect(rows.map((row) => row.querySelector('.args')?.textContent)).toEqual(['userId: "1"']);
  });
});
