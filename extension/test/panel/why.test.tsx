import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { readersOf } from '../../../library/src/react/readers.js';
import type { SourceLocation } from '../../src/panel/sourceMap.js';
import { type SourceAccess, Sources } from '../../src/panel/sources.js';
import { API, TodoResource, UserResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { mountPanel, settle, waitMs } from './support/harness.js';
import { mapOneLine } from './support/sourceMaps.js';

// The "why": why each request ran, where the app called it (opened in the Sources panel), who
// reads each result and shows each entity, and a search of the entities' values.

/**
 * DevTools as the panel sees it: the page's scripts and maps it can read, and the places it was
 * asked to open in the Sources panel.
 */
const devtools = {
  files: new Map<string, string>(),
  opened: [] as SourceLocation[],
};
const access: SourceAccess = {
  read: async (url) => devtools.files.get(url),
  open: (location) => devtools.opened.push(location),
};
const env = panelEnvPerTest({
  mount: () => {
    devtools.files.clear();
    devtools.opened.length = 0;
    return mountPanel({ sources: new Sources(access) });
  },
});

const TODO_1 = `GET ${API}/todos/1`;

async function openEvent(seq: number) {
  fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }));
  await settle();
  const timeline = screen.getByRole('listbox', { name: 'Timeline' });
  const row = within(timeline)
    .getAllByRole('option')
    .find((option) => option.getAttribute('data-seq') === String(seq));
  fireEvent.click(row as HTMLElement);
  await settle();
  return screen.getByRole('article', { name: `Event #${seq}` });
}

const why = (event: HTMLElement) => within(event).getByRole('region', { name: 'Why' });

describe('why a request ran', () => {
  it('says an app call is one, and lists the frames that called it', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 1 });
    const section = why(await openEvent(1));
    expect(within(section).getByText('app call')).toBeTruthy();
    const frames = within(section).getAllByRole('button');
    // The innermost frame is this test's call of controller.fetch, not the library's.
    expect(frames[0]?.textContent).toMatch(/why\.test\.tsx:\d+:\d+$/);
  });

  it('names the reader that mounted, and the event that invalidated what it refetched', async () => {
    const { controller } = env.app;
    const causes = controller.causes;
    if (causes === undefined) throw new Error('a development store notes causes');
    await causes.run({ kind: 'mount', component: 'TodoTitle' }, undefined, () =>
      controller.fetch(TodoResource.get, { id: 1 }),
    ); // #1
    await controller.invalidate(TodoResource.get, { id: 1 }); // #2
    await causes.run({ kind: 'invalid', component: 'TodoTitle' }, undefined, () =>
      controller.fetch(TodoResource.get, { id: 1 }),
    ); // #3
    await settle();
    expect(within(why(await openEvent(1))).getByText('mount <TodoTitle>')).toBeTruthy();
    expect(within(why(await openEvent(3))).getByText('invalidated by invalidate #2')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Results' }));
    await settle();
    const results = screen.getByRole('listbox', { name: 'Results' });
    const row = within(results)
      .getAllByRole('option')
      .find((option) => option.getAttribute('data-key') === TODO_1);
    fireEvent.click(row as HTMLElement);
    await settle();
    const detail = screen.getByRole('article', { name: `Result ${TODO_1}` });
    expect(detail.querySelector('.fetch-history')?.textContent).toBe(
      'fetched 2× — mount <TodoTitle>, invalidated by invalidate #2',
    );
  });

  it('says a poll and a devtools refetch are what they are', async () => {
    const Polled = TodoResource.get.extend({ pollFrequency: 20 });
    await env.app.controller.subscribe(Polled, { id: 1 });
    await waitMs(60);
    await env.app.controller.unsubscribe(Polled, { id: 1 });
    await settle();
    const events = env.panel.store.getState().stores[env.app.devtools.storeId]?.events ?? [];
    expect(events.map((event) => event.action.cause?.reason.kind)).toContain('poll');
    const poll = events.find((event) => event.action.cause?.reason.kind === 'poll');
    expect(within(why(await openEvent(poll?.seq ?? 0))).getByText('poll')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Results' }));
    await settle();
    const results = screen.getByRole('listbox', { name: 'Results' });
    fireEvent.click(within(results).getAllByRole('option')[0] as HTMLElement);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Refetch' }));
    await settle();
    const refetched = env.panel.store
      .getState()
      .stores[env.app.devtools.storeId]?.events.find(
        (event) => event.action.cause?.reason.kind === 'devtools',
      );
    expect(
      within(why(await openEvent(refetched?.seq ?? 0))).getByText('devtools refetch'),
    ).toBeTruthy();
  });
});

describe('where the app called it', () => {
  it("opens a frame at its place in the app's source, through the script's source map", async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 1 });
    await settle();
    const [event] = env.panel.store.getState().stores[env.app.devtools.storeId]?.events ?? [];
    const frame = event?.action.cause?.trace?.[0];
    if (frame === undefined) throw new Error('the app call has a trace');
    // The script the frame is in says where its map is; the map sends its line to App.tsx:42.
    devtools.files.set(frame.url, 'the bundle\n//# sourceMappingURL=http://app.test/js/app.js.map');
    devtools.files.set(
      'http://app.test/js/app.js.map',
      mapOneLine(frame.line, '../src/App.tsx', 41),
    );
    const section = why(await openEvent(1));
    await settle();
    const [button] = within(section).getAllByRole('button');
    expect(button?.textContent).toMatch(/ App\.tsx:42:1$/);
    fireEvent.click(button as HTMLElement);
    expect(devtools.opened).toEqual([
      {
        url: 'http://app.test/src/App.tsx',
        line: 42,
        column: 1,
        mapped: true,
      },
    ]);
  });

  it('opens the place in the script itself when it has no source map', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 1 });
    await settle();
    const [event] = env.panel.store.getState().stores[env.app.devtools.storeId]?.events ?? [];
    const frame = event?.action.cause?.trace?.[0];
    const [button] = within(why(await openEvent(1))).getAllByRole('button');
    fireEvent.click(button as HTMLElement);
    expect(devtools.opened).toEqual([
      { url: frame?.url, line: frame?.line, column: frame?.column, mapped: false },
    ]);
  });
});

describe('who reads a result, and which components show an entity', () => {
  it('lists the mounted readers of a result and of an entity by component name', async () => {
    await env.app.controller.fetch(TodoResource.get, { id: 1 });
    const registry = readersOf(env.app.store);
    const rows = [{ table: 'Todo', pk: '1' }];
    registry.set({ check() {}, component: 'TodoTitle' }, { key: TODO_1, rows });
    registry.set({ check() {}, component: 'TodoItem' }, { key: TODO_1, rows });
    registry.set({ check() {}, component: 'TodoItem' }, { key: TODO_1, rows });
    await settle();

    fireEvent.click(screen.getByRole('tab', { name: 'Results' }));
    await settle();
    const results = screen.getByRole('listbox', { name: 'Results' });
    fireEvent.click(within(results).getAllByRole('option')[0] as HTMLElement);
    await settle();
    const readers = screen.getByRole('region', { name: 'Readers and fetches' });
    expect(readers.textContent).toContain('<TodoTitle>, <TodoItem> ×2');

    env.panel.store.getState().selectEntity('Todo', '1');
    await settle();
    const references = within(screen.getByRole('article', { name: 'Todo 1' })).getByRole('region', {
      name: 'Referenced by',
    });
    expect(references.querySelector('.components-showing-it')?.textContent).toBe(
      '<TodoTitle>, <TodoItem> ×2',
    );
  });
});

describe('search by value', () => {
  it('finds the entities whose fields contain a text, across types, and opens one', async () => {
    env.server.users.set(7, { id: 7, name: 'Umberto' });
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(UserResource.get, { id: 7 });
    await settle();
    fireEvent.click(screen.getByRole('tab', { name: 'Search' }));
    await settle();
    fireEvent.input(screen.getByRole('searchbox', { name: 'Search entity values' }), {
      target: { value: 'UM' },
    });
    await waitMs(200);
    await settle();
    const matches = within(screen.getByRole('list', { name: 'Matches' })).getAllByRole('listitem');
    expect(matches.map((match) => match.textContent)).toEqual([
      'Todo 4 title: call mum',
      'User 7 name: Umberto',
    ]);
    fireEvent.click(within(matches[1] as HTMLElement).getByRole('button', { name: 'User 7' }));
    await settle();
    expect(screen.getByRole('article', { name: 'User 7' })).toBeTruthy();
  });
});
