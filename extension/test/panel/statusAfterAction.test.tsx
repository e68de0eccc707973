import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { readersOf } from '../../../library/src/react/readers.js';
import { resultRows } from '../../src/panel/results.js';
import type { PanelState } from '../../src/panel/store.js';
import { API, TodoApp, TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { settle, waitMs } from './support/harness.js';

// The page's store is opened by each test: its events wait a minute for their batch, so what
// the panel shows after an action can only come with the page's answer to it.
const env = panelEnvPerTest({ openApp: false });

const TODO_3 = `GET ${API}/todos/3`;

const rowOf = (key: string) =>
  within(screen.getByRole('listbox', { name: 'Results' }))
    .getAllByRole('option')
    .find((row) => row.getAttribute('data-key') === key) as HTMLElement;
const statusOf = (key: string) => rowOf(key).querySelector('.result-status')?.textContent;

/** The status the panel's copy of `app`'s store gives a result now. */
function statusIn(state: PanelState, app: TodoApp, key: string) {
  const view = state.stores[app.devtools.storeId];
  return view && resultRows(view).find((row) => row.key === key)?.status;
}

/** Every status the panel gives the result from now on, in order (each once in a row). */
function statusesOf(app: TodoApp, key: string): string[] {
  const seen: string[] = [];
  env.panel.store.subscribe((state) => {
    const status = statusIn(state, app, key);
    if (status !== undefined && status !== (seen.at(-1) ?? 'fresh')) seen.push(status);
  });
  return seen;
}

describe('Results view after an action', () => {
  it.each([
    ['Force error', 'error (forced)'],
    ['Force loading', 'loading (forced)'],
    ['Expire', 'stale'],
  ])(
    'after %s it shows %s as the page answers, never the old status again',
    async (action, shown) => {
      const app = new TodoApp('Slow batches', undefined, 60_000);
      try {
        await app.controller.fetch(TodoResource.get, { id: 3 });
        app.devtools.flush();
        // A component reading it: once the action changed what it reads, it goes (to its error
        // boundary or Suspense fallback) in a later render, as React unmounts it.
        const registry = readersOf(app.store);
        const component = {
          check: () => setTimeout(() => registry.remove(component), 30),
        };
        registry.set(component, { key: TODO_3, rows: [] });
        await settle();
        fireEvent.click(screen.getByRole('tab', { name: 'Results' }));
        await settle();
        expect(statusOf(TODO_3)).toBe('fresh');
        fireEvent.click(rowOf(TODO_3));
        await settle();
        const detail = screen.getByRole('article', { name: `Result ${TODO_3}` });

        const statuses = statusesOf(app, TODO_3);
        expect(detail.textContent).toContain('Todo.get · fresh · 1 reader');
        fireEvent.click(within(detail).getByRole('button', { name: action }));
        // Well within the view's own ask of every second.
        await waitMs(80);
        expect(statuses).not.toContain('fresh');
        expect(statuses.at(-1)).toBe(shown);
        expect(statusOf(TODO_3)).toBe(shown);
        expect(detail.textContent).toContain(`Todo.get · ${shown} · 0 readers`);
      } finally {
        app.close();
      }
    },
  );
});
