import { describe, expect, it } from 'vitest';
import {
  createResource,
  createStore,
  Entity,
  type EntityMeta,
  validateRequired,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';

const server = serverPerTest();

class Article extends Entity {
  id = '';
  title = '';
  body = '';
  version = 0;
  author: Writer | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Article';
  static override schema = {};
}

class Writer extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'Writer';
  static override validate(row: Record<string, unknown>) {
    return typeof row.name === 'string' && row.name !== '' ? undefined : 'name is required';
  }
}

class ValidatedArticle extends Article {
  static override key = 'ValidatedArticle';
  static override schema = { author: Writer };
  static override validate(row: Record<string, unknown>) {
    if (typeof row.title !== 'string') return 'title must be a string';
    return undefined;
  }
}

/** Keeps the stored row when a response brings an older version of it. */
class VersionedArticle extends Article {
  static override key = 'VersionedArticle';
  static override useIncoming(
    _existingMeta: EntityMeta,
    _incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ) {
    return (incoming.version as number) >= (existing.version as number);
  }
}

/** Orders by the version the server sent rather than by when the request was made. */
class ReorderedArticle extends Article {
  static override key = 'ReorderedArticle';
  static override shouldReorder(
    _existingMeta: EntityMeta,
    _incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ) {
    return (incoming.version as number) < (existing.version as number);
  }
}

function resourceOf(entity: typeof Article) {
  return createResource({ path: '/articles/:id', schema: entity, urlPrefix: server.url });
}

describe('Entity.validate', () => {
  it('a response holding an invalid entity fails with its reason (status 400) and stores nothing', async () => {
    const R = resourceOf(ValidatedArticle);
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 'a1', title: 7, body: 'text' } });
    const failure = await controller.fetch(R.get, { id: 'a1' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 400,
      message: 'ValidatedArticle "a1" is not valid: title must be a string',
    });
    expect(getState().entities.get('ValidatedArticle')?.get('a1')).toBeUndefined();
    expect(controller.getResponse(R.get, { id: 'a1' }, getState()).data).toBeUndefined();
    expect(getState().meta.get(R.get.key({ id: 'a1' }))?.error).toBe(failure);
  });

  it('a nested invalid entity fails the whole response: neither it nor its parent is stored', async () => {
    const R = resourceOf(ValidatedArticle);
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 'a1', title: 'ok', author: { id: 'w1', name: '' } } });
    await expect(controller.fetch(R.get, { id: 'a1' })).rejects.toThrow(
      'Writer "w1" is not valid: name is required',
    );
    expect(getState().entities.get('ValidatedArticle')?.get('a1')).toBeUndefined();
    expect(getState().entities.get('Writer')?.get('w1')).toBeUndefined();
  });

  it('valid entities are stored as usual, nested ones included', async () => {
    const R = resourceOf(ValidatedArticle);
    const { controller } = createStore();
    server.respondNext({ body: { id: 'a1', title: 'ok', author: { id: 'w1', name: 'Ada' } } });
    const article = await controller.fetch(R.get, { id: 'a1' });
    expect(article).toBeInstanceOf(ValidatedArticle);
    expect(article.title).toBe('ok');
    expect(article.author).toBeInstanceOf(Writer);
    expect(article.author?.name).toBe('Ada');
  });
});

describe('validateRequired (data-client’s helper for validate)', () => {
  /** Every declared field is required, as data-client's documentation writes it. */
  class StrictArticle extends Article {
    static override key = 'StrictArticle';
    static override validate(processed: Record<string, unknown>) {
      return validateRequired(processed, this.defaults);
    }
  }

  it('names the first missing field: a partial answer fails with status 400 and stores nothing', async () => {
    const R = resourceOf(StrictArticle);
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 'a1', title: 'ok', version: 1, author: null } });
    const failure = await controller.fetch(R.get, { id: 'a1' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 400,
      message: 'StrictArticle "a1" is not valid: Missing key body',
    });
    expect(getState().entities.get('StrictArticle')?.get('a1')).toBeUndefined();
  });

  it('an answer with every field is stored, even with a null one', async () => {
    const R = resourceOf(StrictArticle);
    const { controller } = createStore();
    server.respondNext({ body: { id: 'a1', title: 'ok', body: '', version: 1, author: null } });
    const article = await controller.fetch(R.get, { id: 'a1' });
    expect(article).toBeInstanceOf(StrictArticle);
    expect(article.body).toBe('');
  });

  it('counts a field as present only when the row has it as its own', () => {
    const inherited = Object.create({ name: 'from the prototype' }) as object;
    expect(validateRequired(inherited, { name: '' })).toBe('Missing key name');
    expect(validateRequired({ name: undefined }, { name: '' })).toBeUndefined();
    expect(validateRequired({ a: 1 }, { a: 0, b: 0, c: 0 })).toBe('Missing key b');
  });
});

describe('Entity.useIncoming, shouldReorder and mergeWithStore', () => {
  it('by default a response of an older request only fills gaps of the stored row', () => {
    const R = resourceOf(Article);
    const { controller, getState } = createStore();
    const args = [{ id: 'a1' }];
    // Answered in the opposite order of their requests.
    controller.resolve(R.get, {
      args,
      response: { id: 'a1', title: 'new', version: 2 },
      fetchedAt: 2_000,
    });
    controller.resolve(R.get, {
      args,
      response: { id: 'a1', title: 'old', body: 'b' },
      fetchedAt: 1_000,
    });
    expect(getState().entities.get('Article')?.get('a1')).toEqual({
      id: 'a1',
      title: 'new',
      version: 2,
      body: 'b',
    });
    expect(getState().entitiesMeta.get('Article')?.get('a1')?.fetchedAt).toBe(2_000);
  });

  it('useIncoming returning false keeps the stored row whatever arrives later', async () => {
    const R = resourceOf(VersionedArticle);
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 'a1', title: 'second', version: 2 } });
    await controller.fetch(R.get, { id: 'a1' });
    server.respondNext({ body: { id: 'a1', title: 'first', version: 1, body: 'late' } });
    const answered = await controller.fetch(R.get, { id: 'a1' });
    expect(getState().entities.get('VersionedArticle')?.get('a1')).toEqual({
      id: 'a1',
      title: 'second',
      version: 2,
    });
    // What the store shows, also as the answer of the fetch that brought the old version.
    expect(controller.getResponse(R.get, { id: 'a1' }, getState()).data?.title).toBe('second');
    expect(answered.title).toBe('first');

    server.respondNext({ body: { id: 'a1', title: 'third', version: 3 } });
    await controller.fetch(R.get, { id: 'a1' });
    expect(controller.getResponse(R.get, { id: 'a1' }, getState()).data?.title).toBe('third');
  });

  it('shouldReorder decides which row is the newer one', async () => {
    const R = resourceOf(ReorderedArticle);
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 'a1', title: 'v5', version: 5 } });
    await controller.fetch(R.get, { id: 'a1' });
    // Fetched later, but an older version: it only fills the gaps.
    server.respondNext({ body: { id: 'a1', title: 'v4', version: 4, body: 'from v4' } });
    await controller.fetch(R.get, { id: 'a1' });
    expect(getState().entities.get('ReorderedArticle')?.get('a1')).toEqual({
      id: 'a1',
      title: 'v5',
      version: 5,
      body: 'from v4',
    });
  });

  it('mergeWithStore overridden: the class builds the stored row from both', () => {
    class Counter extends Article {
      static override key = 'Counter';
      static override mergeWithStore(
        _existingMeta: EntityMeta,
        _incomingMeta: EntityMeta,
        existing: Record<string, unknown>,
        incoming: Record<string, unknown>,
      ) {
        return { ...existing, ...incoming, version: (existing.version as number) + 1 };
      }
    }
    const R = resourceOf(Counter);
    const { controller, getState } = createStore();
    controller.setResponse(R.get, { id: 'c' }, { id: 'c', title: 'x', version: 0 });
    controller.setResponse(R.get, { id: 'c' }, { id: 'c', title: 'y', version: 0 });
    controller.setResponse(R.get, { id: 'c' }, { id: 'c', title: 'z', version: 0 });
    expect(getState().entities.get('Counter')?.get('c')).toMatchObject({ title: 'z', version: 2 });
  });
});
