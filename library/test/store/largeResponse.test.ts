import { describe, expect, it } from 'vitest';
import { connectDevtools } from '../../src/devtools/index.js';
import { createResource, createStore, Entity } from '../../src/index.js';

/**
 * Any size works: no spread or `apply` of an unbounded list and no recursion as deep as a list is
 * long, anywhere a response goes (normalize, the change-set, reads, deletes, the devtools bridge).
 */

class Author extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Author';
}

class Item extends Entity {
  id = '';
  title = '';
  author: Author | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Item';
  static override schema = { author: Author };
}

const Items = createResource({ path: '/items/:id', schema: Item });

function items(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: `item-${index}`,
    title: `item ${index}`,
    author: { id: index % 1000, name: `author ${index % 1000}` },
  }));
}

/** Posts nothing anywhere: the bridge keeps its ring as a page whose panel is closed. */
const silentPort = { postMessage() {}, close() {} };
const noWindow = {
  document: { title: 'large' },
  MessageChannel: class {
    port1 = silentPort;
    port2 = silentPort;
  },
  addEventListener() {},
  removeEventListener() {},
  postMessage() {},
} as unknown as Window;

describe('a list response of any size', () => {
  it('1,000,000 entities are stored, read back in order, and one is deleted from them', async () => {
    const { controller, getState } = createStore();
    await controller.setResponse(Items.getList, items(1_000_000));
    const list = controller.getResponse(Items.getList, getState()).data;
    expect(list).toHaveLength(1_000_000);
    expect(list?.[0]).toBeInstanceOf(Item);
    expect(list?.[999_999]).toMatchObject({ id: 'item-999999', author: { name: 'author 999' } });
    await controller.setResponse(Items.delete, { id: 'item-500000' }, { id: 'item-500000' });
    const after = controller.getResponse(Items.getList, getState()).data;
    expect(after).toHaveLength(999_999);
    expect(after?.[500_000]?.id).toBe('item-500001');
  }, 120_000);

  it('200,000 entities through the devtools bridge, fetched and then fetched again', async () => {
    const store = createStore();
    const connection = connectDevtools(store, { window: noWindow });
    const realFetch = globalThis.fetch;
    try {
      const answer = items(200_000);
      globalThis.fetch = async () => Response.json(answer);
      const fetched = await store.controller.fetch(Items.getList);
      expect(fetched).toHaveLength(200_000);
      answer.reverse();
      await store.controller.fetch(Items.getList);
      const list = store.controller.getResponse(Items.getList, store.getState()).data;
      expect(list?.[0]?.id).toBe('item-199999');
    } finally {
      globalThis.fetch = realFetch;
      connection.disconnect();
    }
  }, 120_000);
});
