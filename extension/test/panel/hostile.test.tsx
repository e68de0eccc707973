import { fireEvent, screen, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Effect, StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { hello, readers } from '../support/messages.js';
import { panelEnvPerTest } from './support/env.js';
import { settle } from './support/harness.js';
import { ScriptedPage } from './support/scripted.js';

/**
 * What a page may send that the validators accept, rendered by the whole panel: names that are
 * also prototype members, and tagged values that are not what their tag says. Each must show as
 * the data it is, in every view, and nothing may reach a prototype.
 */

const env = panelEnvPerTest({ openApp: false });
let prototypeNames: string[];
beforeEach(() => {
  prototypeNames = Object.getOwnPropertyNames(Object.prototype);
});

async function openTab(name: string) {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
}

async function lookUp(type: string, pk: string) {
  await openTab('Entities');
  fireEvent.change(screen.getByRole('combobox', { name: 'Entity type' }), {
    target: { value: type },
  });
  fireEvent.input(screen.getByRole('searchbox', { name: 'pk' }), { target: { value: pk } });
  fireEvent.click(screen.getByRole('button', { name: 'Show' }));
  await settle();
}

/** Expands every event of the timeline; returns the text of its lines. */
async function expandedTimeline(): Promise<string[]> {
  await openTab('Timeline');
  const timeline = screen.getByRole('listbox', { name: 'Timeline' });
  // Rows are found again after each click: the list's elements hold whichever row is at their
  // place, and an expanded event's lines push the events after it down.
  const collapsed = () =>
    within(timeline)
      .getAllByRole('option')
      .find((row) => row.getAttribute('aria-expanded') === 'false');
  for (let row = collapsed(); row; row = collapsed()) fireEvent.click(row);
  await settle();
  return within(timeline)
    .getAllByRole('option')
    .map((row) => row.textContent ?? '');
}

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('names a page chooses, like prototype members', () => {
  it.each(NAMES)('shows a store, entity type, pk, collection and result named %s', async (key) => {
    const page = new ScriptedPage(env.panel, key);
    await page.open({ [key]: { [key]: { id: 1, title: `the ${key} row` } } });
    const effects: Effect[] = [
      { type: 'entities-added', entity: key, pks: ['other'] },
      {
        type: 'collection-changed',
        collection: `[${key}]`,
        row: key,
        kind: 'push',
        lengthBefore: 0,
        lengthAfter: 2,
        inserted: [{ index: 0, pks: [key, 'other'] }],
        duplicates: [],
        removed: [],
      },
      { type: 'result-stored', key, endpoint: key, expiresAt: 0, kept: true, result: key },
    ];
    await page.change(effects, [{ type: 'result-expired', key }]);

    const view = env.panel.store.getState().stores[key];
    expect(view).toMatchObject({ id: key, name: 'Todos', ready: true, lastSeq: 2 });
    expect(env.panel.store.getState().storeOrder).toEqual([key]);
    expect(screen.getByRole('banner').textContent).toContain('seq 2');

    // Collections: the row, its members.
    const members = screen.getByRole('listbox', { name: `Members of [${key}] ${key}` });
    expect(
      within(members)
        .getAllByRole('option')
        .map((option) => option.getAttribute('data-pk')),
    ).toEqual([key, 'other']);
    expect(members.textContent).toContain(`the ${key} row`);

    // Entities: the type, its pks, the entity and what references it.
    await lookUp(key, key);
    const types = screen.getByRole('combobox', { name: 'Entity type' }) as HTMLSelectElement;
    expect([...types.options].map((option) => option.textContent)).toEqual([`${key} (2)`]);
    const entity = screen.getByRole('article', { name: `${key} ${key}` });
    expect(entity.textContent).toContain(`"the ${key} row"`);
    expect(entity.textContent).toContain(`[${key}] ${key} position 1 of 2`);

    // Timeline: every line of every event.
    const lines = await expandedTimeline();
    expect(lines).toContain(`added ${key} other`);
    expect(lines).toContain(`expired ${key}`);

    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeNames);
  });

  it('shows results named like prototype members as live, each at its own frequency', async () => {
    const page = new ScriptedPage(env.panel);
    await page.open();
    await page.change(
      NAMES.map((key) => ({
        type: 'result-stored',
        key,
        endpoint: 'Todo.get',
        expiresAt: 0,
        kept: true,
        result: key,
      })),
    );
    await openTab('Results');
    const liveOf = (key: string) =>
      within(screen.getByRole('listbox', { name: 'Results' }))
        .getAllByRole('option')
        .find((row) => row.getAttribute('data-key') === key)
        ?.querySelector('.result-live')?.textContent;
    const liveness = () => NAMES.map(liveOf);
    // As a structured clone brings it: `__proto__` an own key, not the prototype.
    await page.post(
      readers(page.storeId, JSON.parse('{"__proto__": 500, "constructor": 1500, "toString": 9e7}')),
    );
    const shown = ['live · every 500 ms', 'live · every 2 s', 'live · every 25 h', undefined];
    expect(liveness()).toEqual(shown);

    // Frequencies that are no positive number are refused with the whole answer.
    for (const polling of ['{"__proto__": -1}', '{"constructor": 0}', '{"toString": "1 s"}'])
      await page.post(readers(page.storeId, JSON.parse(polling)));
    expect(liveness()).toEqual(shown);
    // A page made before polling says nothing of it: nothing is live.
    await page.post(readers(page.storeId));
    expect(liveness()).toEqual([undefined, undefined, undefined, undefined]);
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeNames);
  });

  it('lists stores named __proto__ and constructor side by side', async () => {
    for (const storeId of ['__proto__', 'constructor']) {
      const page = new ScriptedPage(env.panel, storeId);
      await page.open();
    }
    const select = within(screen.getByRole('banner')).getByRole('combobox') as HTMLSelectElement;
    expect([...select.options].map((option) => option.value)).toEqual(['__proto__', 'constructor']);
    fireEvent.change(select, { target: { value: 'constructor' } });
    await settle();
    expect(env.panel.store.getState().selectedStoreId).toBe('constructor');
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeNames);
  });
});

describe('stores a script of the page makes up', () => {
  it('lists only stores that sent their state, and shows the real one', async () => {
    // Not stores: each says hello, then nothing. The first is picked until a store is there.
    const port = env.panel.ports.at(-1);
    port?.deliver({ type: 'content-connected', pageId: 'scripted' });
    for (let n = 0; n < 1429; n++) port?.deliver({ type: 'page', message: hello(`forged-${n}`) });
    await settle();
    expect(env.panel.store.getState().selectedStoreId).toBe('forged-0');
    expect(screen.getByText("Loading the store's snapshot…")).toBeTruthy();
    await new ScriptedPage(env.panel, 'real').open({ Todo: { '1': { id: 1, title: 'real' } } });

    const header = screen.getByRole('banner');
    expect(within(header).queryByRole('combobox')).toBeNull();
    expect(header.textContent).toContain('Todos');
    expect(env.panel.store.getState().selectedStoreId).toBe('real');
    await openTab('Entities');
    expect(screen.getByRole('listbox', { name: 'Todo entities' }).textContent).toContain('real');
  });
});

/** Tagged values whose fields are not what their tag needs. */
const MALFORMED = [
  { '@t': 'map', entries: 5 },
  { '@t': 'set', values: { length: 1 } },
  { '@t': 'instance', class: ['Todo'], fields: null },
  { '@t': 'error', name: { toString: 1 }, message: 2 },
  { '@t': 'number', v: { valueOf: 1, toString: 1 } },
] as unknown as Encoded[];

describe('malformed tagged values', () => {
  it('shows them as the objects they are, wherever a value is shown', async () => {
    const page = new ScriptedPage(env.panel);
    await page.open({ Todo: { '1': { id: 1, title: 'one', extra: MALFORMED } } });
    const event: Omit<StoreEvent, 'seq' | 'time'> = {
      action: {
        type: 'setResponse',
        endpoint: 'Todo.update',
        key: 'PUT /todos/1',
        mutation: true,
        args: MALFORMED,
        body: MALFORMED[0],
        response: MALFORMED[1],
        error: MALFORMED[2],
      },
      effects: [
        {
          type: 'result-stored',
          key: 'k',
          endpoint: 'Todo.update',
          expiresAt: 0,
          kept: true,
          result: MALFORMED[3] ?? null,
        },
        {
          type: 'result-error',
          key: 'k',
          endpoint: 'Todo.update',
          error: MALFORMED[4] ?? null,
          kept: true,
        },
        {
          type: 'entity-invalidated',
          entity: 'Todo',
          pk: '2',
          from: MALFORMED[0] ?? null,
          via: 'response',
        },
      ],
    };
    await page.change(event);

    const lines = (await expandedTimeline()).join('\n');
    expect(lines).toContain(
      'args [{ "@t": "map", entries: 5 }, { "@t": "set", values: { length: 1 } }',
    );
    expect(lines).toContain('body { "@t": "map", entries: 5 }');
    expect(lines).toContain('error { "@t": "instance", class: ["Todo"], fields: null }');
    expect(lines).toContain(
      'stored k (Todo.update) → { "@t": "error", name: { toString: 1 }, message: 2 }',
    );

    await lookUp('Todo', '1');
    const fields = within(screen.getByRole('article', { name: 'Todo 1' })).getByRole('region', {
      name: 'Fields',
    });
    expect(fields.textContent).toContain('{ "@t": "number", v: { valueOf: 1, toString: 1 } }');
    await lookUp('Todo', '2');
    const origin = within(screen.getByRole('article', { name: 'Todo 2' })).getByRole('region', {
      name: 'How its pk was computed',
    });
    expect(origin.textContent).toContain('response { "@t": "map", entries: 5 } → Todo pk "2"');
  });
});
