import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { readersOf } from '../../../library/src/react/readers.js';
import { errorOf } from '../../../library/src/store/reading.js';
import { API, TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { settle } from './support/harness.js';

const env = panelEnvPerTest();

const TODO_3 = `GET ${API}/todos/3`;
const LIST = `GET ${API}/todos?userId=1`;

const list = () => screen.getByRole('listbox', { name: 'Results' });
const rows = () => within(list()).getAllByRole('option');
const rowOf = (key: string) => rows().find((row) => row.getAttribute('data-key') === key);
const statusOf = (key: string) => rowOf(key)?.querySelector('.result-status')?.textContent;
const liveOf = (key: string) => rowOf(key)?.querySelector('.result-live')?.textContent;
const shownKeys = () => rows().map((row) => row.getAttribute('data-key'));

async function openResults() {
  fireEvent.click(screen.getByRole('tab', { name: 'Results' }));
  await settle();
}

async function act(key: string, action: string) {
  fireEvent.click(rowOf(key) as HTMLElement);
  await settle();
  const detail = screen.getByRole('article', { name: `Result ${key}` });
  fireEvent.click(within(detail).getByRole('button', { name: action }));
  await settle();
}

/** Two components read the list and one the todo, as mounted hooks register themselves. */
function mountReaders() {
  const registry = readersOf(env.app.store);
  for (const key of [LIST, LIST, TODO_3]) registry.set({ check() {} }, { key, rows: [] });
}

describe('Results view', () => {
  it('lists every stored result: endpoint, status, readers now, expiry; sorts and filters', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.get, { id: 3 });
    mountReaders();
    await openResults();
    expect(rows().map((row) => row.getAttribute('data-key'))).toEqual([TODO_3, LIST]);
    const listRow = rowOf(LIST) as HTMLElement;
    expect(listRow.querySelector('.endpoint')?.textContent).toBe('Todo.getList');
    expect(listRow.querySelector('.result-status')?.textContent).toBe('fresh');
    expect(listRow.querySelector('.readers')?.textContent).toBe('2 readers');
    expect(listRow.querySelector('.time')?.textContent).toMatch(/^in \d+ s$/);
    expect(rowOf(TODO_3)?.querySelector('.readers')?.textContent).toBe('1 reader');

    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), {
      target: { value: 'readers' },
    });
    await settle();
    expect(rows().map((row) => row.getAttribute('data-key'))).toEqual([LIST, TODO_3]);
    fireEvent.input(screen.getByRole('searchbox', { name: 'Filter results' }), {
      target: { value: '/todos/3' },
    });
    await settle();
    expect(rows().map((row) => row.getAttribute('data-key'))).toEqual([TODO_3]);

    fireEvent.click(rowOf(TODO_3) as HTMLElement);
    await settle();
    const detail = screen.getByRole('article', { name: `Result ${TODO_3}` });
    expect(within(detail).getByRole('tree', { name: 'value' }).textContent).toBe('"3"');
    expect(detail.textContent).toContain('Todo.get · fresh · 1 reader');
    // A list's result is its collection row: said as its arguments, not as escaped JSON.
    fireEvent.input(screen.getByRole('searchbox', { name: 'Filter results' }), {
      target: { value: '' },
    });
    await settle();
    fireEvent.click(rowOf(LIST) as HTMLElement);
    await settle();
    const list = screen.getByRole('article', { name: `Result ${LIST}` });
    expect(within(list).getByRole('note', { name: 'value' }).textContent).toBe(
      'list of userId: "1"',
    );
  });

  it('invalidates, expires and refetches one result', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 3 });
    await openResults();
    await act(TODO_3, 'Expire');
    expect(statusOf(TODO_3)).toBe('stale');
    await act(TODO_3, 'Invalidate');
    expect(statusOf(TODO_3)).toBe('invalid');
    expect(env.app.store.getState().meta.get(TODO_3)?.invalidated).toBe(true);
    env.server.todos.get(3)!.title = 'changed on the server';
    await act(TODO_3, 'Refetch');
    expect(statusOf(TODO_3)).toBe('fresh');
    expect(env.app.store.getState().entities.get('Todo')?.get('3')).toMatchObject({
      title: 'changed on the server',
    });
  });

  it('forces loading and an error until a refetch undoes them', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 3 });
    await openResults();
    const requests = env.server.requests.length;
    await act(TODO_3, 'Force loading');
    expect(statusOf(TODO_3)).toBe('loading (forced)');
    // A component reading it waits, and nothing is asked of the server.
    let answered = false;
    const waiting = env.app.controller.fetch(TodoResource.get, { id: 3 }).then(() => {
      answered = true;
    });
    await settle();
    expect(answered).toBe(false);
    expect(env.server.requests).toHaveLength(requests);
    // Forcing an error meanwhile is refused, and the panel says why.
    await act(TODO_3, 'Force error');
    expect(screen.getByRole('alert').textContent).toBe(
      `force-error: ${TODO_3} is forced to load; refetch it first`,
    );
    await act(TODO_3, 'Refetch');
    await waiting;
    expect(statusOf(TODO_3)).toBe('fresh');
    expect(screen.queryByRole('alert')).toBeNull();

    await act(TODO_3, 'Force error');
    expect(statusOf(TODO_3)).toBe('error (forced)');
    expect(errorOf(env.app.store.getState(), TODO_3)).toMatchObject({ name: 'ForcedError' });
    await act(TODO_3, 'Refetch');
    expect(statusOf(TODO_3)).toBe('fresh');
    expect(errorOf(env.app.store.getState(), TODO_3)).toBeUndefined();
  });

  it('shows a read in flight as in flight, first fetch or refetch', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 3 });
    await openResults();
    const releaseList = env.server.hold('GET /todos');
    const releaseTodo = env.server.hold('GET /todos/3');
    const list = env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    const todo = env.app.controller.fetch(TodoResource.get, { id: 3 });
    await act(TODO_3, 'Expire'); // asks the page again
    expect(statusOf(LIST)).toBe('in flight');
    expect(statusOf(TODO_3)).toBe('in flight');
    releaseList();
    releaseTodo();
    await Promise.all([list, todo]);
    await act(TODO_3, 'Expire');
    expect(statusOf(LIST)).toBe('fresh');
    expect(statusOf(TODO_3)).toBe('stale');
  });

  it('shows a polled result as live with how often it is polled, sorts and filters by it, until unsubscribed', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.get, { id: 3 });
    await env.app.controller.fetch(TodoResource.get, { id: 1 });
    const TODO_1 = `GET ${API}/todos/1`;
    // Long enough that no poll is due while the test runs: the data was just fetched.
    const everyTwoMinutes = TodoResource.getList.extend({ pollFrequency: 120_000 });
    const everyTenSeconds = TodoResource.get.extend({ pollFrequency: 10_000 });
    const unsubscribe = () =>
      Promise.all([
        env.app.controller.unsubscribe(everyTwoMinutes, { userId: 1 }),
        env.app.controller.unsubscribe(everyTenSeconds, { id: 3 }),
      ]);
    await env.app.controller.subscribe(everyTwoMinutes, { userId: 1 });
    await env.app.controller.subscribe(everyTenSeconds, { id: 3 });
    try {
      await openResults();
      expect(liveOf(LIST)).toBe('live · every 2 min');
      expect(liveOf(TODO_3)).toBe('live · every 10 s');
      expect(liveOf(TODO_1)).toBeUndefined();
      // Live is said beside the status, which stays what it is.
      expect(statusOf(TODO_3)).toBe('fresh');

      fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), {
        target: { value: 'live' },
      });
      await settle();
      expect(shownKeys()).toEqual([TODO_3, LIST, TODO_1]);
      fireEvent.input(screen.getByRole('searchbox', { name: 'Filter results' }), {
        target: { value: 'live' },
      });
      await settle();
      expect(shownKeys()).toEqual([TODO_3, LIST]);

      fireEvent.click(rowOf(TODO_3) as HTMLElement);
      await settle();
      const detail = screen.getByRole('article', { name: `Result ${TODO_3}` });
      expect(detail.textContent).toContain('Todo.get · fresh · live · every 10 s · 0 readers');
    } finally {
      await unsubscribe();
    }
    // A change in the store asks the page again: nothing is polled any more.
    await env.app.controller.fetch(TodoResource.get, { id: 1 });
    await settle();
    expect(screen.getByText('No result matches the filter.')).toBeTruthy();
    fireEvent.input(screen.getByRole('searchbox', { name: 'Filter results' }), {
      target: { value: '' },
    });
    await settle();
    expect([LIST, TODO_3, TODO_1].map(liveOf)).toEqual([undefined, undefined, undefined]);
  });
});
