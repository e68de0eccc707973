import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encode } from '../../../library/src/devtools/page/encode.js';
import {
  type Encoded,
  MAX_VALUE_DEPTH,
  type ReplayCommand,
} from '../../../library/src/devtools/protocol/messages.js';
import {
  checkSession,
  SESSION_FORMAT,
  SESSION_VERSION,
} from '../../../library/src/devtools/protocol/session.js';
import { readFileText } from '../../src/panel/recorder/files.js';
import { buildSession } from '../../src/panel/recorder/session.js';
import { OptimisticTodoResource, type TodoApp, TodoResource } from '../panel/support/app.js';
import { panelEnvPerTest } from '../panel/support/env.js';
import { press, settle, storeEnd } from '../panel/support/harness.js';
import { eventsOf } from '../support/messages.js';
import { MemoryStorage, mountWithStorage, mutationEvent } from './support.js';

const schemaPath = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../library/src/devtools/protocol/session.schema.json',
);
const validateSchema = new Ajv2020({ strict: false }).compile(
  JSON.parse(readFileSync(schemaPath, 'utf8')),
);

let storage: MemoryStorage;
const env = panelEnvPerTest({
  mount: () => {
    storage = new MemoryStorage();
    return mountWithStorage(storage);
  },
});

const button = (name: string | RegExp) => screen.getByRole('button', { name });
async function click(name: string | RegExp) {
  fireEvent.click(button(name));
  await settle();
}
async function openRecorder() {
  fireEvent.click(screen.getByRole('tab', { name: 'Recorder' }));
  await settle();
}
const list = () => screen.getByRole('listbox', { name: 'Recorded mutations' });
const rows = () => within(list()).getAllByRole('option');
const shown = () => rows().map((row) => row.querySelector('.endpoint')?.textContent);
const replayCommands = () =>
  env.panel.tab.commands.filter((command): command is ReplayCommand => command.kind === 'replay');
const statusText = () =>
  document.querySelector('.replay-status')?.textContent ?? '(no replay status)';
const progressText = () => document.querySelector('.replay-count')?.textContent;

/** Selects the session file `name` in the file picker, as the user does. */
async function pickFile(text: string, name = 'session.json') {
  const input = screen.getByLabelText('Session file to import') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([text], name)] } });
  await settle();
}

/** Drops a file on the Recorder view. */
async function dropFile(text: string, name = 'dropped.json') {
  const view = screen.getByRole('region', { name: 'Recorder' });
  const dataTransfer = { files: [new File([text], name)], types: ['Files'] };
  fireEvent.dragOver(view, { dataTransfer });
  fireEvent.drop(view, { dataTransfer });
  await settle();
}

const session = (mutations: unknown[]) =>
  JSON.stringify({ format: SESSION_FORMAT, version: SESSION_VERSION, mutations });

describe('Recorder view: recording', () => {
  it('records every kind of mutation the real library makes, and nothing else', async () => {
    await openRecorder();
    expect(screen.getByText(/^Nothing recorded\./)).toBeTruthy();
    await click('Record');
    expect(button('Pause').getAttribute('aria-pressed')).toBe('true');
    const { controller } = env.app;
    await controller.fetch(TodoResource.getList, { userId: 1 }); // a read: not recorded
    await controller.fetch(TodoResource.getList.getPage, { userId: 1, page: 2 });
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await controller.fetch(TodoResource.getList.unshift, { userId: 1 }, { title: 'first' });
    await controller.fetch(
      TodoResource.update,
      { id: 1 },
      { title: 'all', completed: true, userId: 1 },
    );
    await controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'part' });
    await controller.fetch(TodoResource.delete, { id: 3 });
    await controller.fetch(TodoResource.deleteMany, { ids: '1,2' });
    await controller.fetch(TodoResource.get, { id: 4 }); // a read
    env.server.failNext('PATCH /todos/4');
    await controller
      .fetch(TodoResource.partialUpdate, { id: 4 }, { title: 'refused' })
      .catch(() => undefined); // an error
    await controller.fetch(OptimisticTodoResource.partialUpdate, { id: 4 }, { title: 'opt' });
    env.server.failNext('PATCH /todos/4');
    await controller
      .fetch(OptimisticTodoResource.partialUpdate, { id: 4 }, { title: 'rolled back' })
      .catch(() => undefined);
    await settle();

    expect(shown()).toEqual([
      'Todo.getList.getPage',
      'Todo.getList.push',
      'Todo.getList.unshift',
      'Todo.update',
      'Todo.partialUpdate',
      'Todo.delete',
      'Todo.deleteMany',
      'Todo.partialUpdate', // the optimistic one, once: its committed answer
    ]);
    expect(screen.getByText('8 mutations')).toBeTruthy();
    const { entries } = env.panel.store.getState().recorder;
    const timeline = env.panel.store.getState().stores[env.app.devtools.storeId]?.events ?? [];
    const committed = timeline.find((event) => event.action.optimistic === 'committed');
    expect(entries.at(-1)).toMatchObject({
      args: [{ id: 4 }, { title: 'opt' }],
      response: { id: 4, title: 'opt', completed: false, userId: 1 },
      time: committed?.time,
    });
    expect(entries[1]).toMatchObject({
      endpoint: 'Todo.getList.push',
      args: [{ userId: 1 }, { title: 'new' }],
      body: { title: 'new' },
      response: { id: 5, title: 'new', completed: false, userId: 1 },
      method: 'POST',
      url: 'http://api.test/todos?userId=1',
    });
    expect(entries[6]).toMatchObject({
      endpoint: 'Todo.deleteMany',
      args: [{ ids: '1,2' }],
      response: [{ id: 1 }, { id: 2 }],
    });

    await click('Pause');
    expect(screen.getByText('Paused')).toBeTruthy();
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'unseen' });
    await settle();
    expect(rows()).toHaveLength(8);
  });

  it('records only the selected store', async () => {
    const other = env.startApp();
    await openRecorder();
    await click('Record');
    await other.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'elsewhere' });
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'here' });
    await settle();
    expect(env.panel.store.getState().recorder.entries.map((entry) => entry.args[1])).toEqual([
      { title: 'here' },
    ]);
  });
});

describe('Recorder view: editing', () => {
  async function recordThree() {
    await openRecorder();
    await click('Record');
    await env.app.controller.fetch(
      TodoResource.getList.push,
      { userId: 1 },
      { title: '<img src=x onerror=alert(1)>' },
    );
    await env.app.controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' });
    await env.app.controller.fetch(TodoResource.delete, { id: 2 });
    await settle();
  }

  it('shows the selected mutation as text: call, body and answer', async () => {
    await recordThree();
    list().focus();
    await press(list(), 'Enter');
    const detail = screen.getByRole('article', { name: 'Mutation 1: Todo.getList.push' });
    const field = (name: string) =>
      within(detail).getByRole('rowheader', { name }).nextElementSibling?.textContent;
    expect(field('request')).toBe('POST http://api.test/todos?userId=1');
    expect(field('args')).toBe('[{ userId: 1 }, { title: "<img src=x onerror=alert(1)>" }]');
    expect(field('body')).toBe('{ title: "<img src=x onerror=alert(1)>" }');
    expect(field('response')).toBe(
      '{ id: 5, title: "<img src=x onerror=alert(1)>", completed: false, userId: 1 }',
    );
    expect(document.querySelector('img')).toBeNull(); // text, never HTML
  });

  it('moves and removes mutations with keyboard-reachable buttons, keeping the selection', async () => {
    await recordThree();
    list().focus();
    await press(list(), 'ArrowDown'); // the second row
    await press(list(), 'Enter');
    expect(screen.getByRole('article', { name: 'Mutation 2: Todo.partialUpdate' })).toBeTruthy();

    const up = button('Move up');
    up.focus();
    await click('Move up');
    expect(shown()).toEqual(['Todo.partialUpdate', 'Todo.getList.push', 'Todo.delete']);
    expect(screen.getByRole('article', { name: 'Mutation 1: Todo.partialUpdate' })).toBeTruthy();
    expect(screen.getByText('Moved Todo.partialUpdate to position 1 of 3.')).toBeTruthy();
    // At the top it cannot move up, but keeps the focus (aria-disabled, not disabled).
    expect(button('Move up').getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(button('Move up'));
    await click('Move up');
    expect(shown()).toEqual(['Todo.partialUpdate', 'Todo.getList.push', 'Todo.delete']);

    await click('Move down');
    await click('Move down');
    expect(shown()).toEqual(['Todo.getList.push', 'Todo.delete', 'Todo.partialUpdate']);
    expect(button('Move down').getAttribute('aria-disabled')).toBe('true');

    await click('Remove');
    expect(shown()).toEqual(['Todo.getList.push', 'Todo.delete']);
    // The selection goes to the entry that took its place (here, the new last one).
    expect(screen.getByRole('article', { name: 'Mutation 2: Todo.delete' })).toBeTruthy();
    expect(env.panel.store.getState().recorder.entries.map((entry) => entry.endpoint)).toEqual([
      'Todo.getList.push',
      'Todo.delete',
    ]);
  });

  it('clears the list only after confirming', async () => {
    await recordThree();
    await click('Clear…');
    await click('Cancel');
    expect(rows()).toHaveLength(3);
    await click('Clear…');
    await click('Clear');
    expect(screen.queryByRole('listbox', { name: 'Recorded mutations' })).toBeNull();
    expect(
      screen.getByText(/^Recording: mutations of the selected store will show here/),
    ).toBeTruthy();
    expect((button('Export…') as HTMLButtonElement).disabled).toBe(true);
    expect((button('Replay') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Recorder view: export and import', () => {
  let blobs: Blob[];
  let downloads: { name: string; href: string }[];

  beforeEach(() => {
    blobs = [];
    downloads = [];
    // jsdom has no object URLs and no downloads: both are captured instead.
    URL.createObjectURL = (blob: Blob) => {
      blobs.push(blob);
      return `blob:restlens/${blobs.length}`;
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push({ name: this.download, href: this.href });
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('exports a session file that checkSession and the JSON Schema accept', async () => {
    await openRecorder();
    await click('Record');
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await env.app.controller.fetch(TodoResource.delete, { id: 2 });
    await settle();
    await click('Export…');

    expect(downloads).toEqual([
      { name: expect.stringMatching(/^restlens-session-[\dT-]+\.json$/), href: 'blob:restlens/1' },
    ]);
    expect(blobs[0]?.type).toBe('application/json');
    const text = await readFileText(blobs[0] as Blob);
    const file = JSON.parse(text);
    expect(checkSession(file)).toEqual({ ok: true, session: file });
    expect(validateSchema(file), JSON.stringify(validateSchema.errors)).toBe(true);
    const times = env.panel.store.getState().recorder.entries.map((entry) => entry.time);
    expect(file).toEqual({
      format: 'restlens-session',
      version: 1,
      createdAt: expect.any(String),
      source: 'Todo app',
      mutations: [
        {
          endpoint: 'Todo.getList.push',
          args: [{ userId: 1 }, { title: 'new' }],
          response: { id: 5, title: 'new', completed: false, userId: 1 },
          time: times[0],
          method: 'POST',
          url: 'http://api.test/todos?userId=1',
          body: { title: 'new' },
        },
        {
          endpoint: 'Todo.delete',
          args: [{ id: 2 }],
          response: { id: 2 },
          time: times[1],
          method: 'DELETE',
          url: 'http://api.test/todos/2',
        },
      ],
    });
    expect(text).toMatch(/^{\n {2}"format"/); // pretty-printed
    expect(screen.getByText(`Exported 2 mutations to ${downloads[0]?.name}.`)).toBeTruthy();
  });

  it('imports what it exported as it was: each entry keeps its method, URL and body', async () => {
    await openRecorder();
    await click('Record');
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await env.app.controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' });
    await settle();
    const detailOf = async (position: number) => {
      list().focus();
      await press(list(), 'Home');
      for (let step = 1; step < position; step++) await press(list(), 'ArrowDown');
      await press(list(), 'Enter');
      const detail = screen.getByRole('article', { name: /^Mutation / });
      return within(detail)
        .getAllByRole('rowheader')
        .map((header) => `${header.textContent}: ${header.nextElementSibling?.textContent}`);
    };
    const before = [await detailOf(1), await detailOf(2)];
    expect(before[0]).toContain('request: POST http://api.test/todos?userId=1');
    expect(before[1]).toContain('body: { title: "renamed" }');
    const exported = env.panel.store.getState().recorder.entries.map(({ id, ...fields }) => fields);

    await click('Export…');
    await click('Clear…');
    await click('Clear');
    expect(env.panel.store.getState().recorder.entries).toEqual([]);
    await pickFile(await readFileText(blobs[0] as Blob), 'exported.json');

    expect(env.panel.store.getState().recorder.entries.map(({ id, ...fields }) => fields)).toEqual(
      exported,
    );
    expect([await detailOf(1), await detailOf(2)]).toEqual(before);
    expect(rows().map((row) => row.querySelector('.request')?.textContent)).toEqual([
      'POST http://api.test/todos?userId=1',
      'PATCH http://api.test/todos/1',
    ]);
  });

  it.each([
    [
      'not JSON',
      '{"format": ',
      /^Cannot import bad\.json: the file is not JSON \(.+\)\. Nothing was changed\.$/,
    ],
    [
      'another format',
      JSON.stringify({ log: { entries: [] } }),
      /^Cannot import bad\.json: not a RestLens session: "format" must be "restlens-session"\. Nothing was changed\.$/,
    ],
    [
      'a newer version',
      JSON.stringify({ format: SESSION_FORMAT, version: 2, mutations: [] }),
      /^Cannot import bad\.json: the session is version 2, made by a newer RestLens; this one reads version 1\. Nothing was changed\.$/,
    ],
    [
      'a malformed mutation',
      session([{ endpoint: 'Todo.delete', args: [] }, { endpoint: '' }]),
      /mutation 1 is malformed: endpoint: expected a non-empty string of at most 1023 characters\. Nothing was changed\.$/,
    ],
  ])(
    'refuses %s with a clear message, and replaces and replays nothing',
    async (_kind, text, message) => {
      await openRecorder();
      await click('Record');
      await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'kept' });
      await settle();
      await pickFile(text, 'bad.json');
      expect(screen.getByRole('alert').textContent).toMatch(message);
      expect(shown()).toEqual(['Todo.getList.push']);
      expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull();
      expect(replayCommands()).toEqual([]);
    },
  );

  it('imports a picked file, asking before it replaces what was recorded', async () => {
    await openRecorder();
    await click('Record');
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'mine' });
    await settle();
    const file = session([
      { endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { title: 'a' }], response: { id: 1 } },
      { endpoint: 'Todo.delete', args: [{ id: 2 }] },
    ]);
    await pickFile(file, 'theirs.json');
    expect(screen.getByRole('alert').textContent).toBe(
      'Replace the 1 mutation in the list with the 2 mutations of theirs.json? Replace Cancel',
    );
    await click('Cancel');
    expect(shown()).toEqual(['Todo.getList.push']);

    await pickFile(file, 'theirs.json');
    await click('Replace');
    expect(shown()).toEqual(['Todo.partialUpdate', 'Todo.delete']);
    expect(screen.getByText('Imported 2 mutations from theirs.json.')).toBeTruthy();
    expect(replayCommands()).toEqual([]); // importing replays nothing
  });

  it('imports a file dropped on the view', async () => {
    await openRecorder();
    await dropFile(session([{ endpoint: 'Todo.delete', args: [{ id: 2 }], response: '' }]));
    expect(shown()).toEqual(['Todo.delete']);
    expect(screen.getByText('Imported 1 mutation from dropped.json.')).toBeTruthy();
    await dropFile('[1, 2', 'broken.json');
    expect(screen.getByRole('alert').textContent).toMatch(
      /^Cannot import broken\.json: the file is not JSON/,
    );
    expect(shown()).toEqual(['Todo.delete']);
  });
});

describe('Recorder view: replay', () => {
  /** Records a push, a partial update and a delete on the first page load. */
  async function recordSome() {
    await openRecorder();
    await click('Record');
    await env.app.controller.fetch(TodoResource.getList, { userId: 1 });
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await env.app.controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'part' });
    await env.app.controller.fetch(TodoResource.delete, { id: 4 });
    await settle();
    expect(rows()).toHaveLength(3);
  }

  /** The page reloads: a fresh store, empty. */
  async function reload(): Promise<TodoApp> {
    env.panel.tab.reload();
    env.app.close();
    env.app = env.startApp();
    await settle();
    return env.app;
  }

  it('apply, all at once: one command, recorded answers written without network, n / total and ok per mutation', async () => {
    await recordSome();
    const before = encode(env.app.store.getState().entities.get('Todo')?.toObject());
    const fresh = await reload();
    const requests = env.server.requests.length;

    await click('Replay');
    await settle();
    const commands = replayCommands();
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({
      kind: 'replay',
      mode: 'apply',
      storeId: fresh.devtools.storeId,
      mutations: env.panel.store
        .getState()
        .recorder.entries.map(({ endpoint, args, response, time }) => ({
          endpoint,
          args,
          response,
          time,
        })),
    });
    expect(progressText()).toBe('3 / 3');
    expect(statusText()).toBe('Replay (apply) finished: 3 ok.');
    expect(rows().map((row) => row.querySelector('.badge')?.textContent)).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    expect(env.server.requests.length).toBe(requests); // no network
    expect(encode(fresh.store.getState().entities.get('Todo')?.toObject())).toEqual(before);

    // Still recording: the replay's own mutations were not recorded, later ones are.
    expect(rows()).toHaveLength(3);
    await fresh.controller.fetch(TodoResource.delete, { id: 1 });
    await settle();
    expect(shown().at(-1)).toBe('Todo.delete');
    expect(rows()).toHaveLength(4);
  });

  it('send, step by step: one mutation per command, the next on "Next step"; the server gets them again', async () => {
    await recordSome();
    await click('Pause');
    fireEvent.change(screen.getByRole('combobox', { name: 'Mode' }), { target: { value: 'send' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Step by step' }));
    await settle();
    const requests = env.server.requests.length;

    await click('Replay');
    expect(replayCommands().map((command) => [command.mode, command.mutations.length])).toEqual([
      ['send', 1],
    ]);
    expect(progressText()).toBe('1 / 3');
    expect(statusText()).toBe('Step 1 of 3 done (1 ok): Next step sends the next mutation.');
    expect(env.server.requests.slice(requests)).toEqual(['POST /todos?userId=1']);
    // The options are fixed while it runs (their fieldset is disabled).
    expect(screen.getByRole('checkbox', { name: 'Step by step' }).matches(':disabled')).toBe(true);

    await click('Next step');
    expect(progressText()).toBe('2 / 3');
    await click('Next step');
    expect(progressText()).toBe('3 / 3');
    expect(statusText()).toBe('Replay (send) finished: 3 ok.');
    // Each mutation shows the server's answer now against the recorded one, in one tree: the
    // push made another todo (a new id), the update answered as recorded.
    const answersTo = async (position: number) => {
      await press(list(), 'Home');
      for (let step = 1; step < position; step++) await press(list(), 'ArrowDown');
      await press(list(), 'Enter');
      const answers = screen.getByRole('region', { name: 'Recorded and new response' });
      const tree = within(answers).getByRole('tree', { name: 'response now against recorded' });
      return {
        summary: within(answers).getByRole('status').textContent,
        marked: within(tree)
          .getAllByRole('treeitem')
          .filter((item) => item.matches('[class*="change-"]'))
          .map((item) => item.textContent),
      };
    };
    expect(await answersTo(1)).toEqual({
      summary: '1 change from the recorded response.',
      marked: [
        '▾Todo { id: 6, title: "new", completed: false, userId: 1 }changed',
        'id: 5 → 6changed',
      ],
    });
    expect(await answersTo(2)).toEqual({ summary: 'The same as recorded.', marked: [] });
    expect(screen.queryByRole('button', { name: 'Next step' })).toBeNull();
    expect(replayCommands()).toHaveLength(3);
    expect(new Set(replayCommands().map((command) => command.replayId)).size).toBe(3);
    expect(env.server.requests.slice(requests)).toEqual([
      'POST /todos?userId=1',
      'PATCH /todos/3',
      'DELETE /todos/4',
    ]);
    expect([...env.server.todos.values()].filter((todo) => todo.title === 'new')).toHaveLength(2);
  });

  it('keeps the chosen options across views, and replays with them', async () => {
    await recordSome();
    await click('Pause');
    const mode = () => screen.getByRole('combobox', { name: 'Mode' }) as HTMLSelectElement;
    const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
    fireEvent.change(mode(), { target: { value: 'send' } });
    fireEvent.click(checkbox('Stop at the first error'));
    await settle();

    for (const view of ['Timeline', 'Results']) {
      fireEvent.click(screen.getByRole('tab', { name: view }));
      await settle();
      expect(screen.queryByRole('combobox', { name: 'Mode' })).toBeNull();
      await openRecorder();
      expect(mode().value).toBe('send');
      expect(checkbox('Stop at the first error').checked).toBe(true);
      expect(checkbox('Step by step').checked).toBe(false);
    }

    await click('Replay');
    // send, one mutation per command (to stop in time at an error).
    expect(replayCommands().map((command) => [command.mode, command.mutations.length])).toEqual([
      ['send', 1],
      ['send', 1],
      ['send', 1],
    ]);
  });

  it('stops at the first error when asked: the rest is not sent, the error is shown', async () => {
    await openRecorder();
    await dropFile(
      session([
        {
          endpoint: 'Todo.partialUpdate',
          args: [{ id: 1 }, { title: 'a' }],
          response: { id: 1, title: 'a', completed: false, userId: 1 },
        },
        { endpoint: 'Nope.create', args: [{}], response: {} },
        { endpoint: 'Todo.delete', args: [{ id: 2 }], response: { id: 2 } },
      ]),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Stop at the first error' }));
    await click('Replay');
    await settle();
    expect(replayCommands().map((command) => command.mutations.map((m) => m.endpoint))).toEqual([
      ['Todo.partialUpdate'],
      ['Nope.create'],
    ]);
    expect(progressText()).toBe('2 / 3');
    expect(statusText()).toBe('Replay (apply) stopped at the first error: 1 ok, 1 failed.');
    expect(
      within(screen.getByRole('list', { name: 'Failed mutations' })).getByRole('listitem')
        .textContent,
    ).toBe(
      '#2 Nope.create: unknown endpoint "Nope.create": no endpoint of its resource ran in this store, and it was not given to createStore({ resources })',
    );
    expect(rows().map((row) => row.querySelector('.badge')?.textContent ?? '')).toEqual([
      'ok',
      'error',
      '',
    ]);
    expect(env.app.store.getState().entities.get('Todo')?.get('2')).toBeUndefined(); // never deleted

    // The selected failed mutation shows its message too.
    list().focus();
    await press(list(), 'ArrowDown');
    await press(list(), 'Enter');
    expect(screen.getByText(/^Last replay: error: unknown endpoint "Nope\.create"/)).toBeTruthy();

    // It can go on from there: the rest is sent.
    await click('Continue after the error');
    await settle();
    expect(progressText()).toBe('3 / 3');
    expect(statusText()).toBe('Replay (apply) finished: 2 ok, 1 failed.');
    expect(screen.queryByRole('button', { name: 'Continue after the error' })).toBeNull();
    expect(env.app.store.getState().entities.get('Todo')?.get('2')).toEqual(
      expect.objectContaining({ '@@restlens/invalid': true }),
    );
  });

  it('without that option, goes past errors in one command and reports each', async () => {
    await openRecorder();
    await dropFile(
      session([
        { endpoint: 'Nope.create', args: [{}], response: {} },
        { endpoint: 'Todo.delete', args: [{ id: 2 }] }, // no recorded answer to apply
        { endpoint: 'Todo.delete', args: [{ id: 3 }], response: { id: 3 } },
      ]),
    );
    await click('Replay');
    await settle();
    expect(replayCommands()).toHaveLength(1);
    expect(statusText()).toBe('Replay (apply) finished: 1 ok, 2 failed.');
    expect(
      within(screen.getByRole('list', { name: 'Failed mutations' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '#1 Nope.create: unknown endpoint "Nope.create": no endpoint of its resource ran in this store, and it was not given to createStore({ resources })',
      '#2 Todo.delete: no recorded response to apply',
    ]);
  });

  it('can be stopped between steps, and is not offered while the page is unreachable', async () => {
    await recordSome();
    await click('Pause');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Step by step' }));
    await click('Replay');
    // The list cannot change under a running replay.
    expect((button('Import…') as HTMLButtonElement).disabled).toBe(true);
    expect((button('Clear…') as HTMLButtonElement).disabled).toBe(true);
    await click('Stop replay');
    expect(statusText()).toBe('Replay (apply) stopped by you: 1 ok.');
    expect(replayCommands()).toHaveLength(1);

    env.panel.tab.restartBackground();
    await settle();
    expect((button('Replay') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Recorder view: persistence', () => {
  /** The panel is closed and opened again over the same extension storage. */
  async function reopenPanel() {
    env.panel.unmount();
    cleanup();
    env.panel = mountWithStorage(storage);
    // The fake background learns of the page when it next speaks (a read: nothing to record).
    await env.app.controller.fetch(TodoResource.get, { id: 1 });
    await settle();
    await openRecorder();
  }

  it('keeps the list, edits included, across closing and reopening the panel, until cleared', async () => {
    await openRecorder();
    await click('Record');
    await env.app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'kept' });
    await env.app.controller.fetch(TodoResource.delete, { id: 2 });
    await settle();
    list().focus();
    await press(list(), 'Enter');
    await click('Move down');
    expect(shown()).toEqual(['Todo.delete', 'Todo.getList.push']);

    await reopenPanel();
    expect(shown()).toEqual(['Todo.delete', 'Todo.getList.push']);
    expect(screen.getByText('Paused')).toBeTruthy(); // reopening does not record by itself
    expect(env.panel.store.getState().recorder.entries[1]).toMatchObject({
      args: [{ userId: 1 }, { title: 'kept' }],
      body: { title: 'kept' },
      method: 'POST',
    });

    await click('Clear…');
    await click('Clear');
    expect(storage.value).toBeUndefined();
    await reopenPanel();
    expect(screen.queryByRole('listbox', { name: 'Recorded mutations' })).toBeNull();
  });

  it('says so when the recording cannot be saved', async () => {
    storage.failSave = 'QUOTA_BYTES quota exceeded';
    await openRecorder();
    await click('Record');
    await env.app.controller.fetch(TodoResource.delete, { id: 2 });
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(
      'The recording could not be saved (QUOTA_BYTES quota exceeded).',
    );
  });
});

describe('Recorder view: what it cannot read', () => {
  /** A tagged value without what its tag needs. */
  const MALFORMED = { '@t': 'map', entries: 5 } as unknown as Encoded;
  const detailField = (name: string) =>
    within(screen.getByRole('article')).getByRole('rowheader', { name }).nextElementSibling
      ?.textContent;

  /** DevTools is closed and opened again, with `saved` in extension storage. */
  async function reopenWith(saved: MemoryStorage) {
    env.panel.unmount();
    cleanup();
    storage = saved;
    env.panel = mountWithStorage(storage);
    await env.app.controller.fetch(TodoResource.get, { id: 1 }); // the page speaks again
    await settle();
    await openRecorder();
  }

  it('opens on a saved recording holding malformed values, shows them, and still imports', async () => {
    await reopenWith(
      new MemoryStorage(
        buildSession([
          { endpoint: 'Todo.update', args: [{ id: 1 }, MALFORMED], response: MALFORMED },
        ]),
      ),
    );
    expect(button('Record')).toBeTruthy();
    expect(shown()).toEqual(['Todo.update']);
    list().focus();
    await press(list(), 'Enter');
    expect(detailField('args')).toBe('[{ id: 1 }, { "@t": "map", entries: 5 }]');
    expect(detailField('response')).toBe('{ "@t": "map", entries: 5 }');

    await pickFile(session([{ endpoint: 'Todo.delete', args: [MALFORMED] }]), 'more.json');
    await click('Replace');
    expect(shown()).toEqual(['Todo.delete']);
    expect(storage.value).toMatchObject({ mutations: [{ endpoint: 'Todo.delete' }] });
  });

  it('records a mutation a script of the page forged with a malformed value, and exports it', async () => {
    await openRecorder();
    await click('Record');
    const storeId = env.app.devtools.storeId;
    const seq = env.panel.store.getState().stores[storeId]?.lastSeq ?? 0;
    const forged = { ...mutationEvent('Todo.update', [MALFORMED], MALFORMED), seq: seq + 1 };
    // On the store's own port, as a script that ran before the library can post it.
    storeEnd(storeId).postMessage(eventsOf(storeId, [forged]));
    await settle();
    expect(shown()).toEqual(['Todo.update']);
    list().focus();
    await press(list(), 'Enter');
    expect(detailField('args')).toBe('[{ "@t": "map", entries: 5 }]');
    URL.createObjectURL = () => 'blob:restlens/forged';
    URL.revokeObjectURL = () => undefined;
    const download = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await click('Export…');
    expect(download).toHaveBeenCalledOnce();
    expect(screen.getByText(/^Exported 1 mutation to restlens-session-/)).toBeTruthy();
    download.mockRestore();
  });

  it.each([
    [
      'is not a recording',
      'a string' as unknown,
      /the saved recording could not be read \(not a RestLens session/i,
    ],
    [
      'holds values nested too deep to replay',
      buildSession([
        {
          endpoint: 'Todo.update',
          args: [JSON.parse(`${'['.repeat(MAX_VALUE_DEPTH)}${']'.repeat(MAX_VALUE_DEPTH)}`)],
        },
      ]),
      /mutation 0 is malformed/,
    ],
  ])(
    'offers to clear a saved recording that %s; once cleared, it saves again',
    async (_why, value, message) => {
      await reopenWith(new MemoryStorage(value));
      expect(button('Record')).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toMatch(message);
      await click('Clear the saved recording');
      expect(storage.value).toBeUndefined();
      expect(storage.removes).toBe(1);
      expect(screen.queryByRole('alert')).toBeNull();

      await click('Record');
      await env.app.controller.fetch(TodoResource.delete, { id: 2 });
      await settle();
      expect(storage.value).toMatchObject({ mutations: [{ endpoint: 'Todo.delete' }] });
    },
  );

  it('offers to clear a saved recording storage could not read, and then saves again', async () => {
    const saved = new MemoryStorage();
    saved.failLoad = 'the stored value is corrupt';
    await reopenWith(saved);
    expect(screen.getByRole('alert').textContent).toBe(
      'The saved recording could not be read (the stored value is corrupt); changes are not saved. Clear the saved recording',
    );
    await click('Record');
    await env.app.controller.fetch(TodoResource.delete, { id: 2 });
    await settle();
    expect(storage.saves).toBe(0); // never overwritten without asking
    await click('Clear the saved recording');
    expect(storage.removes).toBe(1);
    expect(storage.value).toMatchObject({ mutations: [{ endpoint: 'Todo.delete' }] });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
