import { act, fireEvent, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { API, OptimisticTodoResource, TodoResource, UserResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { settle } from './support/harness.js';

const env = panelEnvPerTest();
afterEach(() => {
  delete (window as { pwned?: unknown }).pwned;
});

/** Opens the Entities view on one entity, the way the lookup box does. */
async function lookUp(type: string, pk: string) {
  fireEvent.click(screen.getByRole('tab', { name: 'Entities' }));
  await settle();
  fireEvent.change(screen.getByRole('combobox', { name: 'Entity type' }), {
    target: { value: type },
  });
  fireEvent.input(screen.getByRole('searchbox', { name: 'pk' }), { target: { value: pk } });
  await settle();
  fireEvent.click(screen.getByRole('button', { name: 'Show' }));
  await settle();
}

const entity = (name: string) => screen.getByRole('article', { name });
const section = (article: HTMLElement, name: string) =>
  within(article).getByRole('region', { name });
const fieldValue = (article: HTMLElement, field: string, region = 'Fields') =>
  within(section(article, region)).getByText(field).nextElementSibling?.textContent;

describe('Entities view', () => {
  it('browses types and pks, and looks an entity up by type and pk', async () => {
    env.server.users.set(3, { id: 3, name: 'Ada' });
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(UserResource.get, { id: 3 });
    await settle();
    fireEvent.click(screen.getByRole('tab', { name: 'Entities' }));
    await settle();
    const types = screen.getByRole('combobox', { name: 'Entity type' }) as HTMLSelectElement;
    expect([...types.options].map((option) => option.textContent)).toEqual([
      'Todo (2)',
      'User (1)',
    ]);
    const pks = () =>
      within(screen.getByRole('listbox', { name: /entities$/ }))
        .getAllByRole('option')
        .map((option) => option.textContent);
    // In the order the store first held them: the API lists newest first.
    expect(pks()).toEqual(['4call mum', '3write report']);

    await lookUp('User', '3');
    const user = entity('User 3');
    expect(fieldValue(user, 'name')).toBe('"Ada"');
    expect(pks()).toEqual(['3Ada']);

    await lookUp('Todo', '99');
    const miss = screen.getByText('No Todo with pk "99" in the store.');
    expect(miss.getAttribute('role')).toBe('status');
    // The entity found before is not left beside the answer that there is none, and the answer
    // is the one message: not the list's "nothing matches", nor the pane's "pick one".
    expect(screen.queryByRole('article', { name: 'User 3' })).toBeNull();
    const view = screen.getByRole('tabpanel');
    const messages = [...view.querySelectorAll('.notice, .list-empty')].filter(
      (message) => message.textContent !== '',
    );
    expect(messages).toEqual([miss]);
    expect(screen.queryByText(/No Todo matches/)).toBeNull();
    expect(screen.queryByText('Pick an entity, or look one up by type and pk.')).toBeNull();
    // Typing again takes the answer away.
    fireEvent.input(screen.getByRole('searchbox', { name: 'pk' }), { target: { value: '9' } });
    await settle();
    expect(screen.queryByText('No Todo with pk "99" in the store.')).toBeNull();
    expect(screen.getByText('No Todo matches "9".')).toBeTruthy();
  });

  it('shows the fields, meta, and every collection row and result that references it', async () => {
    env.server.users.set(3, { id: 3, name: 'Ada' });
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList, {});
    await env.app.controller.fetch(TodoResource.get, { id: 3 });
    await env.app.controller.fetch(UserResource.get, { id: 3 }); // same pk, another type
    await settle();
    await lookUp('Todo', '3');
    const todo = entity('Todo 3');
    expect(fieldValue(todo, 'title')).toBe('"write report"');
    expect(fieldValue(todo, 'completed')).toBe('false');
    const meta = section(todo, 'Meta');
    expect(within(meta).getByText('valid')).toBeTruthy();
    expect(meta.textContent).toContain('Last change');
    // Fetching the same data again changed nothing: the list's response wrote it last.
    expect(meta.textContent).toContain('#1 Todo.getList: added Todo 3 "write report"');
    expect(meta.textContent).toMatch(
      /expires \d\d:\d\d:\d\d\.\d{3} \(Todo\.getList's response, #1\)/,
    );

    const references = section(todo, 'Referenced by');
    const collections = within(references)
      .getAllByRole('listitem')
      .filter((item) => item.textContent?.includes('position'));
    expect(collections.map((item) => item.textContent)).toEqual([
      '[Todo] userId: "1" position 2 of 2',
      '[Todo] all (no arguments) position 2 of 2',
    ]);
    const results = within(references)
      .getAllByRole('button', { name: /^Invalidate / })
      .map((button) => button.getAttribute('aria-label'));
    expect(results).toEqual([
      `Invalidate GET ${API}/todos?userId=1`,
      `Invalidate GET ${API}/todos`,
      `Invalidate GET ${API}/todos/3`,
    ]);
    // The User with the same pk is not mistaken for it.
    expect(references.textContent).not.toContain('/users/3');

    // A collection reference opens that row.
    fireEvent.click(within(references).getByRole('button', { name: '[Todo] all (no arguments)' }));
    await settle();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('[Todo] all (no arguments)');
  });

  it('shows a deleted entity as INVALID with how its pk was computed and what it broke', async () => {
    await env.app.show(TodoResource.getList, { userId: 1 });
    await env.app.show(TodoResource.get, { id: 4 });
    await env.app.controller.fetch(TodoResource.delete, { id: 4 }); // the server answers ''
    await settle();
    await lookUp('Todo', '4');
    const todo = entity('Todo 4');
    expect(within(todo).getAllByText('INVALID').length).toBeGreaterThan(0);
    expect(within(todo).queryByRole('region', { name: 'Fields' })).toBeNull();
    // It keeps its identity: its name, the fields it had, and what deleted it.
    expect(within(todo).getByRole('heading', { level: 2 }).textContent).toContain('call mum');
    const deleted = section(todo, 'Deleted');
    expect(fieldValue(todo, 'title', 'Deleted')).toBe('"call mum"');
    expect(fieldValue(todo, 'id', 'Deleted')).toBe('4');
    expect(within(deleted).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(section(todo, 'Meta').textContent).toContain(
      'deleted by Todo.delete #3 (INVALID): readers suspend or drop it',
    );
    expect(section(todo, 'Meta').textContent).not.toContain('removed by Invalidate');
    const origin = section(todo, 'How its pk was computed');
    expect(origin.textContent).toContain('empty response → URL params { id: 4 } → Todo pk "4"');
    expect(origin.textContent).toContain('by Todo.delete at #3');
    expect(
      within(origin).getByText(`GET ${API}/todos/4 (Todo.get) will suspend and fetch again`),
    ).toBeTruthy();
    expect(
      within(origin).getByText(
        `GET ${API}/todos?userId=1 (Todo.getList) stays valid but lost a member`,
      ),
    ).toBeTruthy();
    // Gone from its collection; the pk browser marks it.
    expect(section(todo, 'Referenced by').textContent).toContain('No collection holds it.');
    const row = within(screen.getByRole('listbox', { name: 'Todo entities' })).getByText('4');
    expect(row.parentElement?.textContent).toContain('INVALID');
  });

  it('shows every entity of a batch delete as INVALID with its pk from the response', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.deleteMany, { ids: '3,4' });
    await settle();
    // Todo 3 was never read by a view: the delete still carried what the store held.
    for (const [pk, title] of [
      ['3', 'write report'],
      ['4', 'call mum'],
    ] as const) {
      await lookUp('Todo', pk);
      expect(fieldValue(entity(`Todo ${pk}`), 'title', 'Deleted')).toBe(`"${title}"`);
      const origin = section(entity(`Todo ${pk}`), 'How its pk was computed');
      expect(origin.textContent).toContain(`response { id: ${pk} } → Todo pk "${pk}"`);
      expect(origin.textContent).toContain('by Todo.deleteMany');
    }
  });

  it('shows an optimistic update while pending, then the row rolled back when the server refuses', async () => {
    await env.app.controller.fetch(OptimisticTodoResource.get, { id: 1 });
    env.server.failNext('PATCH /todos/1');
    const release = env.server.hold('PATCH /todos/1');
    const update = env.app.controller
      .fetch(OptimisticTodoResource.partialUpdate, { id: 1 }, { title: 'renamed' })
      .catch((error: Error) => error);
    await settle();
    await lookUp('Todo', '1');
    expect(fieldValue(entity('Todo 1'), 'title')).toBe('"renamed"');
    expect(section(entity('Todo 1'), 'Meta').textContent).toContain('not committed yet');

    release();
    expect(await update).toBeInstanceOf(Error);
    await settle();
    expect(fieldValue(entity('Todo 1'), 'title')).toBe('"buy milk"');
    expect(section(entity('Todo 1'), 'Meta').textContent).toContain(
      'rolled back, the server refused it',
    );
    // The history says the change was undone.
    const [rename] = within(section(entity('Todo 1'), 'Change history')).getAllByRole('listitem');
    expect(rename?.textContent).toMatch(
      /· optimistic, rolled back: the server refused it \(#\d+\)$/,
    );
  });

  it('lists an optimistic update and the answer that committed it as one change', async () => {
    await env.app.controller.fetch(OptimisticTodoResource.get, { id: 1 }); // #1
    const release = env.server.hold('PATCH /todos/1');
    const update = env.app.controller.fetch(
      OptimisticTodoResource.partialUpdate,
      { id: 1 },
      { completed: true },
    ); // #2 applied
    await settle();
    await lookUp('Todo', '1');
    const history = () =>
      within(section(entity('Todo 1'), 'Change history')).getAllByRole('listitem');
    expect(history()[0]?.textContent).toMatch(/^#2 Todo\.partialUpdate.*· optimistic, pending$/);

    release();
    await update; // #3 committed
    await settle();
    const items = history();
    expect(items.map((item) => item.querySelector('button')?.textContent)).toEqual(['#2', '#1']);
    const change = items[0] as HTMLElement;
    expect(
      within(change)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['completedfalsetrue']);
    expect(change.textContent).toMatch(/· optimistic, committed \(#3\)$/);
  });

  it('renders values that contain HTML as text', async () => {
    const evil = '<img src=x onerror="window.pwned=1"><b>bold</b>';
    env.server.add({ title: evil }); // id 5
    await env.app.controller.fetch(TodoResource.get, { id: 5 });
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    // In the collection (as the member's label) ...
    expect(screen.getByText(evil)).toBeTruthy();
    // ... in the entity's fields ...
    await lookUp('Todo', '5');
    expect(fieldValue(entity('Todo 5'), 'title')).toBe(JSON.stringify(evil));
    // ... and in the timeline's details.
    fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }));
    await settle();
    const timeline = screen.getByRole('listbox', { name: 'Timeline' });
    fireEvent.click(within(timeline).getAllByRole('option')[0] as HTMLElement);
    await settle();
    expect(timeline.textContent).toContain(evil.replaceAll('"', '\\"'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(env.panel.container.querySelector('img, b')).toBeNull();
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('lists the events that touched an entity, newest first, updates as diffs', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 }); // #1 adds 4 and 3
    await env.app.controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'one' }); // #2
    await env.app.controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'two' }); // #3
    await settle();
    await lookUp('Todo', '3');
    const history = section(entity('Todo 3'), 'Change history');
    const items = within(history).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('button')?.textContent)).toEqual([
      '#3',
      '#2',
      '#1',
    ]);
    // Named as it was called then.
    expect(items[2]?.textContent).toBe('#1 Todo.getList: added Todo 3 "write report"');
    const latest = within(items[0] as HTMLElement).getByRole('table', {
      name: 'Changes to Todo 3',
    });
    expect(within(latest).getAllByRole('row')[1]?.textContent).toBe('title"one""two"');
    // An event opens in the Timeline, shown in full.
    fireEvent.click(within(items[1] as HTMLElement).getByRole('button', { name: '#2' }));
    await settle();
    expect(screen.getByRole('tab', { name: 'Timeline' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(screen.getByRole('article', { name: 'Event #2' })).toBeTruthy();
  });

  it('names the results a delete took a member from, whether or not a component had read them', async () => {
    // The list is fetched and never read (no component rendered it) before the delete.
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.delete, { id: 4 });
    await settle();
    await lookUp('Todo', '4');
    const origin = section(entity('Todo 4'), 'How its pk was computed');
    expect(origin.textContent).toContain('Results that only lost it');
    expect(origin.textContent).toContain(
      'GET http://api.test/todos?userId=1 (Todo.getList) stays valid but lost a member',
    );
  });
});
