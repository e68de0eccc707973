import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { press, settle } from './support/harness.js';

const env = panelEnvPerTest();

const openTab = async (name: string) => {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
};
const activeRow = (list: HTMLElement) =>
  document.getElementById(list.getAttribute('aria-activedescendant') ?? '');

describe('Keyboard: the same list behaviour in every view', () => {
  it.each([
    ['Collections', 'Filter collections', 'Collection rows'],
    ['Entities', 'pk', 'Todo entities'],
    ['Results', 'Filter results', 'Results'],
    ['Timeline', 'Filter events', 'Timeline'],
  ])('%s: ArrowDown from the filter enters its list', async (view, filter, list) => {
    await env.app.show(TodoResource.getList, { userId: 1 });
    await settle();
    await openTab(view);
    const input = screen.getByRole('searchbox', { name: filter });
    input.focus();
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    await settle();
    expect(document.activeElement).toBe(screen.getByRole('listbox', { name: list }));
  });

  it('Timeline: Right opens an event, Left closes it, Left on one of its lines goes back to it', async () => {
    await env.app.show(TodoResource.getList, { userId: 1 });
    await settle();
    await openTab('Timeline');
    const list = screen.getByRole('listbox', { name: 'Timeline' });
    list.focus();
    await press(list, 'Home');
    await press(list, 'ArrowRight');
    const event = within(list).getAllByRole('option')[0] as HTMLElement;
    expect(event.getAttribute('aria-expanded')).toBe('true');
    await press(list, 'ArrowDown');
    await press(list, 'ArrowDown');
    expect(activeRow(list)?.classList.contains('detail')).toBe(true);
    await press(list, 'ArrowLeft');
    expect(activeRow(list)).toBe(event);
    await press(list, 'ArrowLeft');
    expect(event.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('Narrow panel: rows cut by the width keep their whole text as a tooltip', () => {
  it('collection rows, members, entities, timeline events and lines, recorded mutations', async () => {
    await openTab('Recorder');
    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    await env.app.show(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await settle();
    const titles = (list: string) =>
      within(screen.getByRole('listbox', { name: list }))
        .getAllByRole('option')
        .map((row) => row.getAttribute('title'));
    expect(titles('Recorded mutations')).toEqual([
      '1. Todo.getList.push POST http://api.test/todos?userId=1',
    ]);
    await openTab('Collections');
    expect(titles('Collection rows')).toEqual(['[Todo] userId: "1": 3 members']);
    expect(titles('Members of [Todo] userId: "1"')).toEqual([
      '1. 4 call mum',
      '2. 3 write report',
      '3. 5 new',
    ]);
    await openTab('Entities');
    expect(titles('Todo entities')).toContain('Todo 5 new');
    await openTab('Timeline');
    const [first] = titles('Timeline');
    expect(first).toMatch(
      /^#1 · \d\d:\d\d:\d\d\.\d{3} · setResponse · Todo\.getList · GET http:\/\/api\.test\/todos\?userId=1 · 2 added · list replaced · 1 stored$/,
    );
  });
});
