import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { settle } from './support/harness.js';

const env = panelEnvPerTest();

const openTab = async (name: string) => {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
};

/** Shows Todo `pk` in the Entities view and opens the editor of one of its fields. */
async function editField(pk: string, field: string) {
  env.panel.store.getState().selectEntity('Todo', pk);
  await settle();
  const article = screen.getByRole('article', { name: `Todo ${pk}` });
  fireEvent.click(within(article).getByRole('button', { name: `Edit ${field}` }));
  await settle();
  return within(article).getByRole('textbox', { name: `New value of ${field} (JSON)` });
}

async function save(input: HTMLElement, text: string) {
  fireEvent.input(input, { target: { value: text } });
  fireEvent.click(
    within(input.closest('form') as HTMLElement).getByRole('button', { name: 'Save' }),
  );
  await settle();
}

describe('Editing an entity field', () => {
  it('writes the value into the store, as a devtools edit the timeline shows and the Recorder records', async () => {
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await openTab('Recorder');
    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    await settle();
    const input = await editField('3', 'title');
    expect((input as HTMLInputElement).value).toBe('"write report"');
    await save(input, '"edited in the panel"');
    // The page's store has it, and its readers see it.
    expect(env.app.store.getState().entities.get('Todo')?.get('3')).toMatchObject({
      title: 'edited in the panel',
    });
    const todos = env.app.controller.getResponse(
      TodoResource.getList,
      { userId: 1 },
      env.app.store.getState(),
    ).data;
    expect(todos?.find((todo) => todo.id === 3)?.title).toBe('edited in the panel');
    // The panel shows the new value.
    const title = within(screen.getByRole('article', { name: 'Todo 3' })).getByRole('tree', {
      name: 'title',
    });
    expect(title.textContent).toBe('"edited in the panel"');

    await openTab('Timeline');
    const last = within(screen.getByRole('listbox', { name: 'Timeline' }))
      .getAllByRole('option')
      .at(-1) as HTMLElement;
    expect(last.querySelector('.endpoint')?.textContent).toBe('RestLens.edit(Todo)');
    expect(last.querySelector('.badge-edit')?.textContent).toBe('devtools edit');

    await openTab('Recorder');
    const recorded = within(screen.getByRole('listbox', { name: 'Recorded mutations' }));
    expect(recorded.getAllByRole('option').map((option) => option.textContent)).toEqual([
      expect.stringContaining('RestLens.edit(Todo)'),
    ]);
  });

  it('sends nothing that is not JSON, and shows why the page refused an edit', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 3 });
    await settle();
    const sent = env.panel.tab.commands.length;
    const input = await editField('3', 'title');
    await save(input, 'not json');
    expect(screen.getByRole('alert').textContent).toMatch(/^Not saved: the value is not JSON/);
    expect(env.panel.tab.commands.slice(sent).some((command) => command.kind === 'edit')).toBe(
      false,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await save(await editField('3', 'id'), '99');
    expect(screen.getByRole('alert').textContent).toBe(
      'edit: changing "id" would change the pk of Todo "3"',
    );
    expect(env.app.store.getState().entities.get('Todo')?.get('3')).toMatchObject({ id: 3 });
  });
});
