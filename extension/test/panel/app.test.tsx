import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { press, settle, waitMs } from './support/harness.js';

/** No page store at first: each test starts its own with `env.startApp` (closed after it). */
const env = panelEnvPerTest({ openApp: false });

const status = () => screen.getByRole('banner').querySelector('.status')?.textContent;
const openTab = async (name: string) => {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
};
const timelineSeqs = () =>
  within(screen.getByRole('listbox', { name: 'Timeline' }))
    .getAllByRole('option')
    .map((row) => row.querySelector('.seq')?.textContent);
const rowArgs = () =>
  within(screen.getByRole('listbox', { name: 'Collection rows' }))
    .getAllByRole('option')
    .map((option) => option.querySelector('.args')?.textContent);
const memberPks = () =>
  within(screen.getByRole('listbox', { name: /^Members of/ }))
    .getAllByRole('option')
    .map((option) => option.querySelector('.pk')?.textContent);

describe('Header and store states', () => {
  it('says clearly when the page has no RestLens store, and how to add one', async () => {
    await settle();
    expect(screen.getByRole('heading', { name: 'No RestLens store on this page' })).toBeTruthy();
    expect(env.panel.container.querySelector('.empty-state p')?.textContent).toBe(
      'To enable it, wrap your app in <DataProvider> in a development build, or call connectDevtools(store).',
    );
    expect(status()).toBe('Connected, waiting for the page');
    expect(screen.queryByRole('tablist')).toBeNull();

    env.startApp();
    await settle();
    expect(screen.queryByText('No RestLens store on this page')).toBeNull();
    expect(status()).toBe('Connected');
    expect(screen.getByRole('tablist', { name: 'Views' })).toBeTruthy();
  });

  it('shows a selector when the page has several stores, and switches between them', async () => {
    const main = env.startApp('Main store');
    const admin = env.startApp('Admin store');
    await main.controller.fetch(TodoResource.getList, { userId: 1 });
    await admin.controller.fetch(TodoResource.getList, {});
    await admin.controller.fetch(TodoResource.getList.getPage, { page: 2 });
    await settle();
    const selector = screen.getByRole('combobox', { name: 'Store' }) as HTMLSelectElement;
    expect([...selector.options].map((option) => option.textContent)).toEqual([
      'Main store',
      'Admin store',
    ]);
    expect(rowArgs()).toEqual(['userId: "1"']);
    expect(memberPks()).toEqual(['4', '3']);

    fireEvent.change(selector, { target: { value: admin.devtools.storeId } });
    await settle();
    expect(rowArgs()).toEqual(['all (no arguments)']);
    expect(memberPks()).toEqual(['4', '3', '2', '1']);
    await openTab('Timeline');
    expect(timelineSeqs()).toEqual(['#1', '#2']);
    expect(screen.getByRole('banner').textContent).toContain('seq 2');
  });

  it('starts a fresh history when the page reloads, and marks the reload', async () => {
    const first = env.startApp();
    await first.controller.fetch(TodoResource.getList, { userId: 1 });
    await first.controller.fetch(TodoResource.get, { id: 1 });
    await settle();
    expect(screen.queryByText(/Page reloaded/)).toBeNull();

    env.panel.tab.reload();
    first.close();
    const second = env.startApp();
    await second.controller.fetch(TodoResource.getList, {});
    await settle();
    expect(screen.getByRole('banner').textContent).toContain('Page reloaded 1×');
    expect(screen.queryByRole('combobox', { name: 'Store' })).toBeNull(); // the old store is gone
    await openTab('Timeline');
    expect(timelineSeqs()).toEqual(['#1']);
    expect(screen.getByText(/the history starts at the latest load/)).toBeTruthy();
    await openTab('Collections');
    expect(rowArgs()).toEqual(['all (no arguments)']);
  });

  it('resyncs after a gap in seq: the missing events are asked for and shown', async () => {
    const app = env.startApp();
    await settle();
    await app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    env.panel.tab.dropEvents = 1; // the push's events are lost on the way
    await app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'lost' });
    await settle();
    await app.controller.fetch(TodoResource.getList.unshift, { userId: 1 }, { title: 'first' });
    await settle();
    expect(env.panel.tab.commands).toContainEqual(
      expect.objectContaining({ kind: 'connect', storeId: app.devtools.storeId, lastSeq: 1 }),
    );
    expect(memberPks()).toEqual(['6', '4', '3', '5']);
    await openTab('Timeline');
    expect(timelineSeqs()).toEqual(['#1', '#2', '#3']);
  });

  it('shows the background going away, and loses nothing once it is back', async () => {
    const app = env.startApp();
    await app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    env.panel.tab.restartBackground();
    await settle();
    expect(status()).toBe('Disconnected, reconnecting…');
    await app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'meanwhile' });
    await settle();
    await waitMs(150); // the first reconnect comes after 100 ms
    expect(status()).toBe('Connected');
    expect(memberPks()).toEqual(['4', '3', '5']);
  });
});

describe('View tabs', () => {
  it('switch with the arrow keys, Home and End, moving focus with the selection', async () => {
    env.startApp();
    await settle();
    const tab = (name: string) => screen.getByRole('tab', { name });
    tab('Collections').focus();
    await press(tab('Collections'), 'ArrowRight');
    expect(tab('Entities').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Entities'));
    expect(tab('Entities').tabIndex).toBe(0);
    expect(tab('Collections').tabIndex).toBe(-1);
    await press(tab('Entities'), 'End');
    expect(document.activeElement).toBe(tab('Recorder'));
    await press(tab('Recorder'), 'ArrowRight'); // wraps around
    expect(document.activeElement).toBe(tab('Collections'));
    await press(tab('Collections'), 'ArrowLeft');
    expect(tab('Recorder').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tab('Recorder').id);
  });
});

describe('Actions', () => {
  it('invalidates a chosen result, expires all, and resets the store after confirming', async () => {
    const app = env.startApp();
    await app.controller.fetch(TodoResource.getList, { userId: 1 });
    await app.controller.fetch(TodoResource.get, { id: 3 });
    await settle();
    const actions = screen.getByRole('group', { name: 'Actions' });
    const picker = within(actions).getByRole('combobox') as HTMLSelectElement;
    expect([...picker.options].map((option) => option.value)).toEqual([
      'GET http://api.test/todos/3',
      'GET http://api.test/todos?userId=1',
    ]);
    fireEvent.change(picker, { target: { value: 'GET http://api.test/todos/3' } });
    await settle();
    fireEvent.click(within(actions).getByRole('button', { name: 'Invalidate' }));
    await settle();
    expect(env.panel.tab.commands.at(-1)).toMatchObject({
      kind: 'invalidate',
      storeId: app.devtools.storeId,
      key: 'GET http://api.test/todos/3',
    });
    expect(app.store.getState().meta.get('GET http://api.test/todos/3')?.invalidated).toBe(true);

    fireEvent.click(within(actions).getByRole('button', { name: 'Expire all' }));
    await settle();
    expect(env.panel.tab.commands.at(-1)).toMatchObject({ kind: 'expireAll' });

    fireEvent.click(within(actions).getByRole('button', { name: 'Reset store…' }));
    await settle();
    expect(env.panel.tab.commands.at(-1)?.kind).toBe('expireAll'); // nothing sent yet
    fireEvent.click(within(actions).getByRole('button', { name: 'Reset' }));
    await settle();
    expect(env.panel.tab.commands.at(-1)).toMatchObject({ kind: 'reset' });
    expect(screen.getByText(/No collections yet/)).toBeTruthy();
    await openTab('Timeline');
    const kinds = within(screen.getByRole('listbox', { name: 'Timeline' }))
      .getAllByRole('option')
      .map((row) => row.querySelector('.kind')?.textContent);
    // The single-result Invalidate is recorded as what it is: an `invalidate` of that key.
    expect(kinds).toEqual(['setResponse', 'setResponse', 'invalidate', 'expireAll', 'reset']);
  });

  it('sends nothing while the page is not connected', async () => {
    const app = env.startApp();
    await app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    env.panel.tab.restartBackground();
    await settle();
    for (const name of ['Invalidate', 'Expire all', 'Reset store…'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists the stored reads, each named by the endpoint that read it, never by a mutation', async () => {
    const app = env.startApp();
    await app.controller.fetch(TodoResource.get, { id: 3 });
    await app.controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'renamed' });
    await app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await app.controller.fetch(TodoResource.getList, { userId: 1 });
    // The next page is merged into the list: the list is still the list's read.
    await app.controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 });
    await settle();
    const picker = within(screen.getByRole('group', { name: 'Actions' })).getByRole(
      'combobox',
    ) as HTMLSelectElement;
    expect([...picker.options].map((option) => option.textContent)).toEqual([
      'GET http://api.test/todos/3 (Todo.get)',
      'GET http://api.test/todos?userId=1 (Todo.getList)',
    ]);
  });

  it('says what it sent until the store moves on', async () => {
    const app = env.startApp();
    await app.controller.fetch(TodoResource.get, { id: 3 });
    await settle();
    const actions = screen.getByRole('group', { name: 'Actions' });
    const said = () => within(actions).getByRole('status').textContent;
    fireEvent.click(within(actions).getByRole('button', { name: 'Expire all' }));
    await settle();
    expect(said()).toBe('Expired every result');
    await app.controller.fetch(TodoResource.get, { id: 4 });
    await settle();
    expect(said()).toBe('');
  });
});

describe('A page without a store', () => {
  it('says the page changed and has no store, instead of showing the store of the page before', async () => {
    const app = env.startApp();
    await app.controller.fetch(TodoResource.getList, { userId: 1 });
    await settle();
    expect(screen.getByRole('listbox', { name: 'Collection rows' })).toBeTruthy();
    // The tab went to a page without RestLens: its content script's port closed.
    app.close();
    env.panel.ports.at(-1)?.deliver({ type: 'content-disconnected' });
    await settle();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'The page changed: it has no RestLens store',
    );
    expect(screen.queryByRole('listbox', { name: 'Collection rows' })).toBeNull();
    expect(status()).toBe('Page changed, no store');
  });

  it('says the extension does not run on data: and file: pages', async () => {
    for (const url of ['data:text/html,<p>hi</p>', 'file:///home/me/index.html']) {
      env.panel.store.getState().pageNavigated(url);
      await settle();
      expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
        'RestLens does not run on this page',
      );
      expect(screen.getByRole('main').textContent).toContain(`${url.split(':')[0]}:`);
    }
  });
});
