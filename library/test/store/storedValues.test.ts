import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  Endpoint,
  Entity,
  SchemaError,
  type State,
  schema,
} from '../../src/index.js';
import { MAX_PLAIN_DEPTH } from '../../src/normalize/ownValues.js';
import { serverPerTest } from '../helpers/perTest.js';

/**
 * What the store keeps is its own: the objects an app gives it stay the app's (changing them later
 * changes nothing stored), and in development what it keeps is frozen, so code that writes to a
 * value it read fails where it writes rather than changing the store and its past states.
 */

const server = serverPerTest();

class Author extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'Author';
}

class Article extends Entity {
  id = 0;
  title = '';
  tags: string[] = [];
  meta: { rating: number; links: { href: string }[] } = { rating: 0, links: [] };
  author: Author | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Article';
  static override schema = { author: Author };
}

const articleResource = () =>
  createResource({ path: '/articles/:id', schema: Article, urlPrefix: server.url });

const article = () => ({
  id: 1,
  title: 'values',
  tags: ['a', 'b'],
  meta: { rating: 3, links: [{ href: '/one' }] },
  author: { id: 7, name: 'Ada' },
});

type Row = ReturnType<typeof article>;

/** The stored row of an article. */
function storedArticle(state: State, pk = '1'): Row {
  const row = state.entities.get('Article')?.get(pk);
  if (row === undefined) throw new Error(`no Article ${pk} is stored`);
  return row as Row;
}

describe('what the app gives the store stays its own', () => {
  it('an object given to setResponse and changed afterwards changes no stored row, now or in a past state', async () => {
    const R = articleResource();
    const { controller, getState } = createStore();
    const given = article();
    await controller.setResponse(R.get, { id: 1 }, given);
    const stored = getState();
    given.tags.push('x');
    given.meta.links[0]!.href = '/changed';
    given.meta.rating = 0;
    given.title = 'changed';
    await controller.setResponse(R.get, { id: 2 }, { ...article(), id: 2 });

    for (const state of [stored, getState()]) {
      const row = storedArticle(state);
      expect(row).toEqual({ ...article(), author: '7' });
    }
    const read = controller.getResponse(R.get, { id: 1 }, getState()).data!;
    expect(read.tags).toEqual(['a', 'b']);
    expect(read.meta).toEqual({ rating: 3, links: [{ href: '/one' }] });
  });

  it('what fetch resolves to is the app’s to change: the stored row keeps what the server sent', async () => {
    const R = articleResource();
    const { controller, getState } = createStore();
    server.respondNext({ body: article() });
    const fetched = await controller.fetch(R.get, { id: 1 });
    fetched.tags.push('x');
    fetched.meta.links.push({ href: '/two' });
    expect(fetched.tags).toEqual(['a', 'b', 'x']);
    const row = storedArticle(getState());
    expect(row.tags).toEqual(['a', 'b']);
    expect(row.meta.links).toEqual([{ href: '/one' }]);
    expect(controller.getResponse(R.get, { id: 1 }, getState()).data?.tags).toEqual(['a', 'b']);
  });

  it('a `process` that returns the object it was given leaves that object as the app had it', async () => {
    class Note extends Entity {
      id = 0;
      tags: string[] = [];
      author: Author | null = null;
      pk() {
        return this.id;
      }
      static override key = 'Note';
      static override schema = { author: Author };
      static override process(input: Record<string, unknown>) {
        return input;
      }
    }
    const R = createResource({ path: '/notes/:id', schema: Note, urlPrefix: server.url });
    const { controller, getState } = createStore();
    const given = { id: 1, tags: ['a'], author: { id: 7, name: 'Ada' } };
    await controller.setResponse(R.get, { id: 1 }, given);
    // Normalize wrote the author's pk into the row, not into the app's object.
    expect(given.author).toEqual({ id: 7, name: 'Ada' });
    expect(Object.isFrozen(given)).toBe(false);
    expect(Object.isFrozen(given.tags)).toBe(false);
    given.tags.push('b');
    expect(getState().entities.get('Note')?.get('1')).toEqual({ id: 1, tags: ['a'], author: '7' });
  });

  it('members without a schema in an object schema, and results of endpoints without one, are copied', async () => {
    const R = articleResource();
    const page = R.getList.extend({
      path: '/articles',
      schema: { results: [Article], paging: { next: '' } },
    });
    const { controller, getState } = createStore();
    const given = { results: [article()], paging: { next: '/articles?page=2', seen: [1] } };
    await controller.setResponse(page, {}, given);
    given.paging.seen.push(2);
    expect(controller.getResponse(page, {}, getState()).data?.paging).toEqual({
      next: '/articles?page=2',
      seen: [1],
    });

    const settings = new Endpoint(async () => ({}), { name: 'settings' });
    const answer = { theme: { dark: true }, recent: ['a'] };
    await controller.setResponse(settings, answer);
    answer.theme.dark = false;
    answer.recent.push('b');
    expect(controller.getResponse(settings, getState()).data).toEqual({
      theme: { dark: true },
      recent: ['a'],
    });
  });

  it('an object of a type a union does not name is copied too', async () => {
    class Post extends Entity {
      id = 0;
      type = 'post';
      pk() {
        return this.id;
      }
      static override key = 'Post';
    }
    const feed = new Endpoint(async () => [], {
      name: 'feed',
      schema: [new schema.Union({ post: Post }, 'type')],
    });
    const { controller, getState } = createStore();
    const unknown = { id: 2, type: 'poll', options: ['yes', 'no'] };
    await controller.setResponse(feed, [{ id: 1, type: 'post' }, unknown]);
    unknown.options.push('maybe');
    const read = controller.getResponse(feed, getState()).data as unknown[];
    expect(read[1]).toEqual({ id: 2, type: 'poll', options: ['yes', 'no'] });
  });
});

describe('copies keep what the values are', () => {
  it('instances of classes (a Date a `process` made) are kept as they are, not turned into objects', async () => {
    class Event extends Entity {
      id = 0;
      at = new Date(0);
      pk() {
        return this.id;
      }
      static override key = 'Event';
      static override process(input: Record<string, unknown>) {
        return { ...input, at: new Date(input.at as string) };
      }
    }
    const R = createResource({ path: '/events/:id', schema: Event, urlPrefix: server.url });
    const { controller } = createStore();
    server.respondNext({ body: { id: 1, at: '2024-05-01T00:00:00.000Z' } });
    await controller.fetch(R.get, { id: 1 });
    const read = controller.getResponse(R.get, { id: 1 }, controller.getState()).data!;
    expect(read.at).toBeInstanceOf(Date);
    expect(read.at.toISOString()).toBe('2024-05-01T00:00:00.000Z');
  });

  it('a member named __proto__ in a nested object stays data, and sets no prototype', async () => {
    const R = articleResource();
    const { controller, getState } = createStore();
    server.respondNext({
      rawBody:
        '{"id":1,"title":"t","tags":[],"meta":{"rating":1,"links":[],"__proto__":{"polluted":true}}}',
    });
    await controller.fetch(R.get, { id: 1 });
    const meta = storedArticle(getState()).meta;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(meta, '__proto__')?.value).toEqual({ polluted: true });
    expect((meta as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it(`lists nested deeper than ${MAX_PLAIN_DEPTH} levels are refused with a SchemaError, storing nothing`, async () => {
    const R = articleResource();
    const { controller, getState } = createStore();
    const deep = `${'['.repeat(MAX_PLAIN_DEPTH + 1)}${']'.repeat(MAX_PLAIN_DEPTH + 1)}`;
    server.respondNext({ rawBody: `{"id":1,"title":"t","tags":${deep}}` });
    const error = await controller.fetch(R.get, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(
      /^the response nests lists or objects deeper than 256 levels \(or holds one inside itself\)/,
    );
    expect(getState().entities.get('Article')).toBeUndefined();
  });

  it(`lists nested ${MAX_PLAIN_DEPTH} levels deep are stored`, async () => {
    const R = articleResource();
    const { controller, getState } = createStore();
    const deep = `${'['.repeat(MAX_PLAIN_DEPTH)}${']'.repeat(MAX_PLAIN_DEPTH)}`;
    server.respondNext({ rawBody: `{"id":1,"title":"t","tags":${deep}}` });
    await controller.fetch(R.get, { id: 1 });
    expect(JSON.stringify(storedArticle(getState()).tags)).toBe(deep);
  });
});

describe('in development, what the store keeps is frozen', () => {
  it('a read entity’s lists and objects throw on write and the stored row stays as it was', async () => {
    const R = articleResource();
    const { controller, getState } = createStore();
    server.respondNext({ body: article() });
    await controller.fetch(R.get, { id: 1 });
    const read = controller.getResponse(R.get, { id: 1 }, getState()).data!;
    expect(() => read.tags.push('x')).toThrow(TypeError);
    expect(() => {
      read.meta.rating = 5;
    }).toThrow(/read.only|not extensible|Cannot assign/);
    expect(() => {
      read.meta.links[0]!.href = '/changed';
    }).toThrow(TypeError);
    const row = storedArticle(getState());
    expect(Object.isFrozen(row)).toBe(true);
    expect(row).toEqual({ ...article(), author: '7' });
  });

  it('a merged row and the results stored are frozen too', async () => {
    const R = articleResource();
    const { controller, getState } = createStore();
    await controller.setResponse(R.get, { id: 1 }, article());
    await controller.setResponse(
      R.partialUpdate,
      { id: 1 },
      { tags: ['c'] },
      { id: 1, tags: ['c'] },
    );
    const row = storedArticle(getState());
    expect(row.tags).toEqual(['c']);
    expect(Object.isFrozen(row)).toBe(true);
    expect(Object.isFrozen(row.tags)).toBe(true);
    expect(Object.isFrozen(row.meta.links[0])).toBe(true);

    const settings = new Endpoint(async () => ({}), { name: 'settings' });
    await controller.setResponse(settings, { theme: { dark: true } });
    const stored = controller.getResponse(settings, getState()).data as {
      theme: { dark: boolean };
    };
    expect(() => {
      stored.theme.dark = false;
    }).toThrow(TypeError);
  });
});
