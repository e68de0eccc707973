// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import { createResource, createStore, Entity, type Store } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { effectsOf, PanelStandIn } from './support.js';

// How the page labels the entities an event touches: what the panel names them by.

class Note extends Entity {
  id = 0;
  title = '';
  summary = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Note';
  static override label = 'summary';
}

class Plain extends Entity {
  id = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Plain';
}

const server = serverPerTest();
let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;

beforeEach(() => {
  store = createStore();
  panel = new PanelStandIn();
  connection = connectDevtools(store, { batchInterval: 0 });
  panel.connect(0, connection.storeId);
});
afterEach(() => {
  connection.disconnect();
  panel.restore();
  vi.restoreAllMocks();
});

const lastEvent = () => {
  connection.flush();
  const event = panel.events(connection.storeId).at(-1);
  if (!event) throw new Error('no event');
  return event;
};

describe('entity labels', () => {
  it("uses the class's static label field over title, and gives none to an entity without one", async () => {
    const Notes = createResource({ path: '/notes/:id', schema: Note, urlPrefix: server.url });
    await store.controller.setResponse(
      Notes.get,
      { id: 1 },
      {
        id: 1,
        title: 'the title',
        summary: 'the summary',
      },
    );
    expect(effectsOf(lastEvent(), 'entities-added')).toEqual([
      {
        type: 'entities-added',
        entity: 'Note',
        pks: ['1'],
        labels: ['the summary'],
        rows: [{ id: 1, title: 'the title', summary: 'the summary' }],
      },
    ]);
    const Plains = createResource({ path: '/plain/:id', schema: Plain, urlPrefix: server.url });
    await store.controller.setResponse(Plains.get, { id: 1 }, { id: 1 });
    // No entity of the group has a label: none is sent.
    expect(effectsOf(lastEvent(), 'entities-added')).toEqual([
      { type: 'entities-added', entity: 'Plain', pks: ['1'], rows: [{ id: 1 }] },
    ]);
  });

  it('labels a group of up to 100 entities; a larger one is said by its count', async () => {
    const Notes = createResource({ path: '/notes/:id', schema: Note, urlPrefix: server.url });
    const notes = (count: number, from: number) =>
      Array.from({ length: count }, (_, index) => ({ id: from + index, summary: `note ${index}` }));
    await store.controller.setResponse(Notes.getList, {}, notes(100, 0));
    const [small] = effectsOf(lastEvent(), 'entities-added');
    expect(small?.labels).toHaveLength(100);
    expect(small?.labels?.[99]).toBe('note 99');
    // Their rows come with them too, up to the same count.
    expect(small?.rows?.[99]).toEqual({ id: 99, summary: 'note 99' });
    await store.controller.setResponse(Notes.getList, { page: 2 }, notes(101, 1000));
    const [large] = effectsOf(lastEvent(), 'entities-added');
    expect(large?.pks).toHaveLength(101);
    expect(large).not.toHaveProperty('labels');
    expect(large).not.toHaveProperty('rows');
  });

  it('carries an added row only whole: one too large for the event is left for the panel to ask', async () => {
    const Notes = createResource({ path: '/notes/:id', schema: Note, urlPrefix: server.url });
    const large = { id: 1, summary: 'large', text: 'x'.repeat(300 * 1024) };
    const small = JSON.parse('{"id":2,"summary":"small","__proto__":"data"}');
    await store.controller.setResponse(Notes.getList, {}, [large, small]);
    const [added] = effectsOf(lastEvent(), 'entities-added');
    expect(added?.pks).toEqual(['1', '2']);
    expect(added?.rows?.[0]).toBeNull();
    expect(added?.rows?.[1]).toEqual(small);
    expect(Object.hasOwn(added?.rows?.[1] as object, '__proto__')).toBe(true);
  });

  it('cuts a long label, and reads a field named __proto__ as data', async () => {
    class Odd extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Odd';
      static override label = '__proto__';
    }
    const Odds = createResource({ path: '/odd/:id', schema: Odd, urlPrefix: server.url });
    await store.controller.setResponse(
      Odds.get,
      { id: 1 },
      JSON.parse('{"id":1,"__proto__":"proto"}'),
    );
    expect(effectsOf(lastEvent(), 'entities-added')[0]?.labels).toEqual(['proto']);
    const Notes = createResource({ path: '/notes/:id', schema: Note, urlPrefix: server.url });
    await store.controller.setResponse(Notes.get, { id: 2 }, { id: 2, summary: 'x'.repeat(100) });
    expect(effectsOf(lastEvent(), 'entities-added')[0]?.labels).toEqual([`${'x'.repeat(59)}…`]);
  });
});
