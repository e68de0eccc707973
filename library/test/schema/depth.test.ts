import { describe, expect, it } from 'vitest';
import { createStore, Endpoint, Entity, SchemaError } from '../../src/index.js';
import { plain } from '../fixtures.js';

/** A link in a chain: each one holds the next. */
class Link extends Entity {
  id = 0;
  next: Link | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Link';
  static override schema: Record<string, unknown> = {};
}
Link.schema = { next: Link };

/** `{ id: 1, next: { id: 2, next: … } }`, `length` links long. */
function chain(length: number) {
  let link: Record<string, unknown> | null = null;
  for (let id = length; id >= 1; id--) link = { id, next: link };
  return link;
}

const getLink = new Endpoint(async (_params: { id: number }) => null, {
  schema: Link,
  key: (params: { id: number }) => `link ${params.id}`,
});

describe('deeply nested responses', () => {
  it.each([2000, 10_000])(
    'a chain %i deep is refused with a SchemaError naming the depth, storing nothing',
    async (length) => {
      const { controller, getState } = createStore();
      await controller.setResponse(getLink, { id: 1 }, chain(length));
      const error = getState().meta.get('link 1')?.error;
      expect(error).toBeInstanceOf(SchemaError);
      expect((error as Error).message).toContain('deeper than 256 levels (at Link)');
      expect(plain(getState().entities)).toEqual({});
    },
  );

  it('a chain 200 deep is stored', async () => {
    const { controller, getState } = createStore();
    await controller.setResponse(getLink, { id: 1 }, chain(200));
    expect(Object.keys(plain(getState().entities).Link ?? {})).toHaveLength(200);
  });

  it('a chain stored by many responses reads without running out of stack', async () => {
    const { controller, getState } = createStore();
    // Each response holds one link and names the next by its pk.
    for (let id = 1000; id >= 1; id--)
      await controller.setResponse(getLink, { id }, { id, next: id < 1000 ? id + 1 : null });
    const first = controller.getResponse(getLink, { id: 1 }, getState()).data;
    let link: unknown = first;
    let depth = 0;
    while (link instanceof Link) {
      link = link.next;
      depth++;
    }
    // 128 links are read as entities; the next is left as its pk.
    expect(depth).toBe(128);
    expect(link).toBe('129');
    expect(controller.getResponse(getLink, { id: 129 }, getState()).data?.next).toBeInstanceOf(
      Link,
    );
  });
});
