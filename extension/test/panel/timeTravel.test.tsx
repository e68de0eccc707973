import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { TodoApp, TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { settle } from './support/harness.js';

const env = panelEnvPerTest({ openApp: false });

const openTab = async (name: string) => {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
};
const banner = () => screen.getByText(/State at #|has left the page's ring/).parentElement;
const members = () =>
  within(screen.getByRole('listbox', { name: /^Members of/ }))
    .getAllByRole('option')
    .map((option) => option.getAttribute('data-pk'));

/** Opens event `seq` in the Timeline and chooses "View state here". */
async function viewStateAt(seq: number) {
  await openTab('Timeline');
  const row = within(screen.getByRole('listbox', { name: 'Timeline' }))
    .getAllByRole('option')
    .find((option) => option.getAttribute('data-seq') === String(seq));
  if (!row) throw new Error(`the timeline shows no #${seq}`);
  fireEvent.click(row as HTMLElement);
  await settle();
  fireEvent.click(screen.getByRole('button', { name: 'View state here' }));
  await settle();
}

describe('Read-only time travel', () => {
  it('shows Collections, Entities and Results as of a past event, under a banner, then live again', async () => {
    const app = env.startApp();
    await app.show(TodoResource.getList, { userId: 1 }); // #1: [4, 3]
    await app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' }); // #2
    await app.controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'renamed' }); // #3
    await app.controller.fetch(TodoResource.delete, { id: 4 }); // #4
    await settle();
    await viewStateAt(2);
    expect(banner()?.textContent).toContain('State at #2 — live is #4');

    await openTab('Collections');
    expect(members()).toEqual(['4', '3', '5']);
    await openTab('Entities');
    env.panel.store.getState().selectEntity('Todo', '3');
    await settle();
    const todo3 = screen.getByRole('article', { name: 'Todo 3' });
    expect(within(todo3).getByRole('tree', { name: 'title' }).textContent).toBe('"write report"');
    // Read-only: nothing there writes to the store.
    expect(within(todo3).queryByRole('button', { name: 'Edit title' })).toBeNull();
    env.panel.store.getState().selectEntity('Todo', '4');
    await settle();
    expect(screen.getByRole('article', { name: 'Todo 4' }).textContent).not.toContain('INVALID');

    await openTab('Results');
    const results = within(screen.getByRole('listbox', { name: 'Results' })).getAllByRole('option');
    expect(results.map((row) => row.getAttribute('data-key'))).toEqual([
      'GET http://api.test/todos?userId=1',
    ]);
    fireEvent.click(results[0] as HTMLElement);
    await settle();
    expect((screen.getByRole('button', { name: 'Refetch' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Back to live' }));
    await settle();
    expect(screen.queryByText(/State at #/)).toBeNull();
    await openTab('Collections');
    expect(members()).toEqual(['3', '5']);
  });

  it('turns the store commands off, saying why, while a past state is shown', async () => {
    const app = env.startApp();
    await app.show(TodoResource.getList, { userId: 1 }); // #1
    await app.controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'renamed' }); // #2
    await settle();
    const actions = within(screen.getByRole('group', { name: 'Actions' }));
    const commands = ['Invalidate', 'Expire all', 'Reset store…'].map(
      (name) => actions.getByRole('button', { name }) as HTMLButtonElement,
    );
    expect(commands.map((button) => button.disabled)).toEqual([false, false, false]);
    expect(actions.getByLabelText('Result')).toBeTruthy();

    await viewStateAt(1);
    expect(commands.map((button) => button.disabled)).toEqual([true, true, true]);
    expect(commands.map((button) => button.title)).toEqual(
      Array(3).fill('Viewing a past state: back to live to change the store'),
    );
    expect(actions.getByRole('status').textContent).toBe(
      'Viewing a past state: back to live to change the store',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Back to live' }));
    await settle();
    expect(commands.map((button) => button.disabled)).toEqual([false, false, false]);
    expect(actions.getByRole('status').textContent).toBe('');
  });

  it('says so when the event has left the page ring', async () => {
    const app = new TodoApp('Short memory', 2);
    try {
      await app.show(TodoResource.get, { id: 1 }); // #1
      await app.show(TodoResource.get, { id: 2 }); // #2
      await settle();
      await app.show(TodoResource.get, { id: 3 }); // #3
      await app.show(TodoResource.get, { id: 4 }); // #4: the ring keeps #3 and #4
      await settle();
      await viewStateAt(2);
      expect(banner()?.textContent).toContain("#2 has left the page's ring");
      // The views stay live.
      await openTab('Results');
      expect(
        within(screen.getByRole('listbox', { name: 'Results' })).getAllByRole('option'),
      ).toHaveLength(4);
    } finally {
      app.close();
    }
  });
});
