import { act, fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import {
  pageMessage,
  type SnapshotMessage,
} from '../../../library/src/devtools/protocol/messages.js';
import { OptimisticTodoResource, TodoResource } from './support/app.js';
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
    expect(latestChange().textContent).toContain('pushed Todo 5 "new todo" at the end (2 → 3)');
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
    expect(latestChange().textContent).toContain('unshifted Todo 5 "urgent" at the start (2 → 3)');
  });

  it('shows a merged page and lists the duplicates it skipped', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 }); // [4, 3]
    env.server.add({ title: 'from another tab' }); // 5: page 2 is now [3, 2]
    await env.app.controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 });
    await settle();
    expect(memberPks()).toEqual(['4', '3', '2']);
    expect(within(members()[2] as HTMLElement).getByText('merged')).toBeTruthy();
    expect(latestChange().textContent).toContain(
      'merged a page: added Todo 2 "walk dog"; skipped duplicates Todo 3 "write report"',
    );
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
      expect(latestChange().textContent).toContain(
        'removed Todo 4 "call mum": deleted (Invalidate) (2 → 1)',
      );
      expect(within(latestChange()).getByText('Deleted (Invalidate):')).toBeTruthy();
    }
  });

  it('removes every entity of a batch delete', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 });
    await env.app.controller.fetch(TodoResource.deleteMany, { ids: '2,4' });
    await settle();
    expect(memberPks()).toEqual(['3', '1']);
    expect(latestChange().textContent).toMatch(
      /removed (Todo 2 "walk dog", Todo 4 "call mum"|Todo 4 "call mum", Todo 2 "walk dog"): deleted \(Invalidate\)/,
    );
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

  it('says a failed optimistic push was rolled back, with the members it left', async () => {
    await env.app.controller.fetch(OptimisticTodoResource.getList, {});
    env.server.failNext('POST /todos');
    await env.app.controller
      .fetch(OptimisticTodoResource.getList.push, {}, { title: 'refused' })
      .catch(() => undefined);
    await settle();
    openRow('all (no arguments)');
    expect(memberPks()).toEqual(['4', '3']);
    const note = latestChange().textContent ?? '';
    // The member the server never gave a pk is named as the new todo it was.
    expect(note).toContain('pushed new Todo (pending) at the end (2 → 3)');
    expect(note).toMatch(
      /Rolled back at #\d+: the server refused it, so new Todo \(pending\) left again \(3 → 2\)/,
    );
    // Nothing is highlighted as pushed: the pushed member is gone.
    expect(members().filter((option) => option.classList.contains('is-changed'))).toHaveLength(0);
  });

  it('says why members left a row a fresh list replaced', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 }); // [4, 3]
    env.server.todos.delete(3);
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 }); // [4, 2]
    await settle();
    expect(memberPks()).toEqual(['4', '2']);
    expect(latestChange().textContent).toContain(
      'replaced by a fresh list; Todo 3 "write report" not in it (2 → 2)',
    );
    const left = within(latestChange()).getByText('Not in the fresh list:').parentElement;
    expect(within(left as HTMLElement).getByRole('button').textContent).toContain('3');
    expect(latestChange().textContent).not.toContain('Invalidate');
  });

  it('numbers members from 1 under a labelled index column', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    const header = membersList().previousElementSibling as HTMLElement;
    expect([...header.querySelectorAll('span')].map((span) => span.textContent)).toEqual([
      '#',
      'pk',
      'label',
    ]);
    expect(members().map((option) => option.querySelector('.index')?.textContent)).toEqual([
      '1',
      '2',
    ]);
  });

  it('scrolls the member a change inserted into view, far down a long row', async () => {
    for (let index = 0; index < 60; index++) env.server.add({ title: `bulk ${index}`, userId: 2 });
    env.server.pageSize = 100;
    await env.app.controller.fetch(TodoResource.getList, { userId: 2 });
    await settle();
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 2 }, { title: 'last one' });
    await settle();
    const pushed = members().find((option) => option.textContent?.includes('last one'));
    expect(pushed?.getAttribute('aria-posinset')).toBe('61');
    expect(membersList().scrollTop).toBeGreaterThan(0);
  });
});

describe('right after a snapshot, while its lists are still coming', () => {
  it('lists every row with its size, and says how many members and pks have come', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    const { store } = env.panel;
    const storeId = env.app.devtools.storeId;
    const seq = store.getState().stores[storeId]?.lastSeq ?? 0;
    // What a page at 100k entities sends first: sizes; the lists follow in parts.
    const counts = {
      entities: {},
      tableSizes: { Todo: 4 },
      collectionSizes: { '[Todo]': { '{"userId":"1"}': 5 } },
      endpoints: {},
      meta: {},
      optimistic: [],
    };
    await act(() => {
      store.getState().snapshot(
        pageMessage({
          kind: 'snapshot',
          storeId,
          seq,
          index: 0,
          count: 1,
          data: JSON.stringify(counts),
        }) as SnapshotMessage,
      );
      store.getState().listParts(storeId, [
        { seq, table: '[Todo]', row: '{"userId":"1"}', pks: ['4', '3'] },
        { seq, table: 'Todo', pks: ['4'] },
      ]);
    });
    const rows = within(screen.getByRole('listbox', { name: 'Collection rows' }));
    expect(rows.getByRole('option').querySelector('.count')?.textContent).toBe('5');
    expect(memberPks()).toEqual(['4', '3']);
    expect(screen.getByText('Loading members: 2 of 5…')).toBeTruthy();
    await act(() => store.getState().setView('entities'));
    expect(screen.getByText('Loading Todo pks: 1 of 4…')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Entity type' }).textContent).toContain('Todo (4)');
  });
});
