import { act, fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import { API, OptimisticTodoResource, TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { press, settle } from './support/harness.js';

const env = panelEnvPerTest();

async function openTimeline() {
  fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }));
  await settle();
}

const timeline = () => screen.getByRole('listbox', { name: 'Timeline' });
const rows = () => within(timeline()).getAllByRole('option');
const eventRows = () => rows().filter((row) => row.hasAttribute('aria-expanded'));
const seqs = () => eventRows().map((row) => row.querySelector('.seq')?.textContent);

/** A few real events: list, push, get, delete (with a result that suspends), expire all. */
async function someHistory() {
  await env.app.show(TodoResource.getList, { userId: 1 }); // #1
  await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' }); // #2
  await env.app.show(TodoResource.get, { id: 4 }); // #3
  await env.app.controller.fetch(TodoResource.delete, { id: 4 }); // #4
  env.app.controller.expireAll(() => true); // #5
  await settle();
}

describe('Timeline view', () => {
  it('lists every event with its seq, kind, endpoint and request', async () => {
    await someHistory();
    await openTimeline();
    expect(seqs()).toEqual(['#1', '#2', '#3', '#4', '#5']);
    const push = eventRows()[1] as HTMLElement;
    expect(push.querySelector('.kind')?.textContent).toBe('setResponse');
    expect(push.querySelector('.endpoint')?.textContent).toBe('Todo.getList.push');
    expect(push.querySelector('.request')?.textContent).toBe(`POST ${API}/todos?userId=1`);
    expect(push.querySelector('.summary')?.textContent).toBe('1 added · push +1 · 1 stored');
    expect(screen.getByText('5 events')).toBeTruthy();
  });

  it('filters by kind, by endpoint and by text', async () => {
    await someHistory();
    await openTimeline();
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), {
      target: { value: 'expireAll' },
    });
    await settle();
    expect(seqs()).toEqual(['#5']);
    expect(screen.getByText('1 of 5 events')).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Endpoint' }), {
      target: { value: 'Todo.getList.push' },
    });
    await settle();
    expect(seqs()).toEqual(['#2']);

    fireEvent.change(screen.getByRole('combobox', { name: 'Endpoint' }), {
      target: { value: '' },
    });
    // Text matches the effects too: only the delete made a result suspend.
    fireEvent.input(screen.getByRole('searchbox', { name: 'Filter events' }), {
      target: { value: 'WILL SUSPEND' },
    });
    await settle();
    expect(seqs()).toEqual(['#4']);

    fireEvent.input(screen.getByRole('searchbox', { name: 'Filter events' }), {
      target: { value: 'nothing like this' },
    });
    await settle();
    expect(screen.getByText('No event matches the filter.')).toBeTruthy();
    expect(screen.queryByRole('listbox', { name: 'Timeline' })).toBeNull();
  });

  it('focuses the filter on `/`, but not while the user types elsewhere', async () => {
    await someHistory();
    await openTimeline();
    const filter = screen.getByRole('searchbox', { name: 'Filter events' });
    timeline().focus();
    const slash = new KeyboardEvent('keydown', { key: '/', bubbles: true, cancelable: true });
    act(() => {
      timeline().dispatchEvent(slash);
    });
    expect(document.activeElement).toBe(filter);
    expect(slash.defaultPrevented).toBe(true); // the `/` is not typed into the filter

    const kind = screen.getByRole('combobox', { name: 'Kind' });
    kind.focus();
    fireEvent.keyDown(kind, { key: '/' });
    expect(document.activeElement).toBe(kind);
  });

  it('expands an event to its call and its effects: what suspends and what lost a member', async () => {
    await someHistory();
    await openTimeline();
    const list = timeline();
    list.focus();
    await press(list, 'Home');
    await press(list, 'ArrowDown');
    await press(list, 'ArrowDown');
    await press(list, 'ArrowDown'); // #4, the delete
    await press(list, 'Enter');
    const remove = eventRows()[3] as HTMLElement;
    expect(remove.getAttribute('aria-expanded')).toBe('true');
    const details = rows()
      .filter((row) => row.classList.contains('detail'))
      .map((row) => row.textContent);
    expect(details).toEqual([
      `key DELETE ${API}/todos/4`,
      'args [{ id: 4 }]',
      'response { id: 4 }',
      expect.stringMatching(/^answered in \d+ ms$/),
      'Todo 4 "call mum" invalidated (pk from URL params { id: 4 })',
      '[Todo] userId: "1": removed Todo 4 "call mum": deleted (Invalidate) (3 → 2)',
      // A mutation's answer goes into the tables; the store keeps no result for its key.
      `stored DELETE ${API}/todos/4 (Todo.delete) in the tables, no result kept`,
      `GET ${API}/todos?userId=1 (Todo.getList) stays valid but lost a member`,
      `GET ${API}/todos/4 (Todo.get) will suspend and fetch again`,
    ]);
    expect(rows().find((row) => row.textContent?.includes('will suspend'))?.className).toContain(
      'tone-error',
    );
    const detailRows = rows().filter((row) => row.classList.contains('detail'));
    expect(
      detailRows.find((row) => row.textContent?.includes('lost a member'))?.className,
    ).toContain('tone-warn');

    await press(list, 'Enter'); // collapses again
    expect(rows().filter((row) => row.classList.contains('detail'))).toHaveLength(0);
  });

  it('tells optimistic updates applied, committed and rolled back apart', async () => {
    await env.app.controller.fetch(OptimisticTodoResource.get, { id: 1 }); // #1
    await env.app.controller.fetch(
      OptimisticTodoResource.partialUpdate,
      { id: 1 },
      { title: 'ok' },
    ); // #2 applied, #3 committed
    env.server.failNext('PATCH /todos/1');
    await env.app.controller
      .fetch(OptimisticTodoResource.partialUpdate, { id: 1 }, { title: 'refused' })
      .catch(() => undefined); // #4 applied, #5 rolled back
    await settle();
    await openTimeline();
    const badges = eventRows().map(
      (row) => row.querySelector('[class*="badge-optimistic"]')?.textContent ?? '',
    );
    expect(badges).toEqual([
      '',
      'optimistic: applied',
      'optimistic: committed',
      'optimistic: applied',
      'optimistic: rolled back',
    ]);
    const classes = eventRows().map((row) => row.className);
    expect(classes[2]).toContain('optimistic-committed');
    expect(classes[4]).toContain('optimistic-rolled-back');
    expect(classes[4]).toContain('is-error');

    // The rollback says what it undid.
    fireEvent.click(eventRows()[4] as HTMLElement);
    await settle();
    const undone = rows()
      .filter((row) => row.classList.contains('detail'))
      .map((row) => row.querySelector('.detail-text')?.textContent);
    expect(undone).toContain('rolled back: Todo 1 "refused" restored: title: "refused" → "ok"');
  });

  it('filters by what the rows show: summary parts, badges and entity labels', async () => {
    await env.app.show(TodoResource.getList, { userId: 1 }); // #1
    await env.app.controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 }); // #2
    await env.app.controller.fetch(OptimisticTodoResource.get, { id: 1 }); // #3
    await env.app.controller.fetch(OptimisticTodoResource.partialUpdate, { id: 1 }, {}); // #4, #5
    await settle();
    await openTimeline();
    // Expanding the page merge loads the rows it names (their labels).
    fireEvent.click(eventRows()[1] as HTMLElement);
    await settle();
    fireEvent.click(eventRows()[1] as HTMLElement);
    await settle();
    const filter = screen.getByRole('searchbox', { name: 'Filter events' });
    const matching = async (text: string) => {
      fireEvent.input(filter, { target: { value: text } });
      await settle();
      return seqs();
    };
    expect(eventRows()[1]?.querySelector('.summary')?.textContent).toBe(
      '2 added · page-merge +2 · 1 stored',
    );
    expect(await matching('page-merge')).toEqual(['#2']);
    expect(await matching('optimistic: applied')).toEqual(['#4']);
    expect(await matching('optimistic')).toEqual(['#4', '#5']);
    expect(await matching('walk dog')).toEqual(['#2']); // Todo 2's title
  });

  it('shows the server JSON error body in the error of a failed read', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 99 }).catch(() => undefined);
    await settle();
    await openTimeline();
    const failed = eventRows()[0] as HTMLElement;
    expect(failed.querySelector('.summary')?.textContent).toBe('1 failed');
    expect(failed.textContent).not.toMatch(/error\s*error/);
    fireEvent.click(failed);
    await settle();
    const error = rows().find((row) => row.textContent?.startsWith('error '));
    expect(error?.textContent).toContain('404');
    expect(error?.textContent).toContain('{"error":"no todo 99"}');
  });

  it('opens the entity of an effect line on Enter', async () => {
    await someHistory();
    await openTimeline();
    fireEvent.click(eventRows()[1] as HTMLElement); // expand the push
    await settle();
    // The line names the entity by its label (title).
    const added = rows().find(
      (row) => row.querySelector('.detail-text')?.textContent === 'added Todo 5 "new"',
    ) as HTMLElement;
    fireEvent.click(added);
    await settle();
    expect(screen.getByRole('article', { name: 'Todo 5' })).toBeTruthy();
  });

  it('renders only a window of a 10,000-event timeline and follows new events at the end', async () => {
    const template = env.panel.store.getState().stores[env.app.devtools.storeId];
    expect(template?.ready).toBe(true);
    const events: StoreEvent[] = Array.from({ length: 10_000 }, (_, index) => ({
      seq: index + 1,
      time: 1_700_000_000_000 + index,
      action: { type: 'setResponse', endpoint: `note.${index % 7}`, key: `note ${index}` },
      effects: [
        // Seven results stored over and over: the Actions menu lists each once.
        {
          type: 'result-stored',
          key: `note ${index % 7}`,
          endpoint: 'note',
          expiresAt: 0,
          kept: true,
          result: index,
        },
      ],
    }));
    // Fed straight to the panel store, as one batch of live events.
    const history = { storeId: env.app.devtools.storeId, events };
    act(() => {
      env.panel.store.getState().events(history);
    });
    await openTimeline();
    expect(screen.getByText('10000 events')).toBeTruthy();
    const rendered = rows();
    expect(rendered.length).toBeLessThan(60);
    // The view follows the log: the last event is in view.
    expect(rendered.at(-1)?.querySelector('.seq')?.textContent).toBe('#10000');
    expect(rendered.at(-1)?.getAttribute('aria-setsize')).toBe('10000');

    // A new event arrives while the user is at the end: it comes into view.
    const before = rows();
    act(() => {
      env.panel.store.getState().events({ ...history, events: [{ ...events[0]!, seq: 10_001 }] });
    });
    await settle();
    expect(rows().at(-1)?.querySelector('.seq')?.textContent).toBe('#10001');
    expect(rows().length).toBeLessThan(60);
    // The oldest event left (the timeline holds 10,000): the rows in view kept their elements,
    // each showing the event that came to its place.
    expect(rows().every((row, index) => row === before[index])).toBe(true);
  });

  it('keeps its filter and the opened event as events come and the oldest leave', async () => {
    const storeId = env.app.devtools.storeId;
    const note = (seq: number): StoreEvent => ({
      seq,
      time: 1_700_000_000_000 + seq,
      action: { type: 'setResponse', endpoint: `note.${seq % 7}`, key: `note ${seq}` },
      effects: [],
    });
    const notes = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => note(from + index));
    act(() => {
      env.panel.store.getState().events({ storeId, events: notes(1, 10_000) });
    });
    await openTimeline();
    fireEvent.change(screen.getByRole('combobox', { name: 'Endpoint' }), {
      target: { value: 'note.3' },
    });
    await settle();
    expect(screen.getByText('1429 of 10000 events')).toBeTruthy();
    expect(seqs().at(-1)).toBe('#9999');
    fireEvent.click(eventRows().at(-1) as HTMLElement);
    await settle();

    // Two of the new events match (10006, 10013), and two of the 14 that leave (3, 10).
    act(() => {
      env.panel.store.getState().events({ storeId, events: notes(10_001, 10_014) });
    });
    await settle();
    expect(screen.getByText('1429 of 10000 events')).toBeTruthy();
    expect(seqs().slice(-3)).toEqual(['#9999', '#10006', '#10013']);
    const opened = eventRows().find((row) => row.getAttribute('data-seq') === '9999');
    expect(opened?.getAttribute('aria-expanded')).toBe('true');
    // Its line follows it, before the next event.
    expect(opened?.nextElementSibling?.textContent).toBe('key note 9999');
    const endpoints = screen.getByRole('combobox', { name: 'Endpoint' });
    expect([...endpoints.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'All endpoints',
      ...Array.from({ length: 7 }, (_, index) => `note.${index}`),
    ]);
  });

  it('shows the opened event in full: its values as trees, each changed field before → after', async () => {
    await env.app.show(TodoResource.get, { id: 1 }); // #1
    await env.app.controller.fetch(
      TodoResource.partialUpdate,
      { id: 1 },
      { title: 'renamed', completed: true },
    ); // #2
    await settle();
    await openTimeline();
    fireEvent.click(eventRows()[1] as HTMLElement);
    await settle();
    const detail = screen.getByRole('article', { name: 'Event #2' });
    const body = within(detail).getByRole('tree', { name: 'body' });
    expect(
      within(body)
        .getAllByRole('treeitem')
        .map((item) => item.textContent),
    ).toEqual(['▾{ title: "renamed", completed: true }', 'title: "renamed"', 'completed: true']);
    const diff = within(detail).getByRole('table', { name: 'Changes to Todo 1' });
    const changed = within(diff)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(changed).toEqual([
      ['title', '"buy milk"', '"renamed"'],
      ['completed', 'false', 'true'],
    ]);
    // Its entity opens from the diff, named as it was after the change.
    fireEvent.click(within(detail).getByRole('button', { name: 'updated Todo 1 "renamed"' }));
    await settle();
    expect(screen.getByRole('article', { name: 'Todo 1' })).toBeTruthy();
  });
});
