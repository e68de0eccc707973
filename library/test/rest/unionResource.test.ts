import { describe, expect, it } from 'vitest';
import { createResource, createStore, SchemaError, schema } from '../../src/index.js';
import { feedItem, Link, Post, plain } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { rows } from './support.js';

const server = serverPerTest();

const FEED = [
  { id: 1, type: 'post', title: 'hello' },
  { id: 1, type: 'link', url: 'https://example.com' },
  { id: 2, type: 'post', title: 'again' },
];

function feedResource() {
  return createResource({ path: '/feed/:id', schema: feedItem, urlPrefix: server.url });
}

describe('schema.Union as a resource schema', () => {
  it('builds every member; get and getList read each item as its own class', async () => {
    const Feed = feedResource();
    expect(Feed.get.name).toBe('Post;Link.get');
    expect(Feed.getList.schema).toBeInstanceOf(schema.Collection);
    expect(Feed.delete.schema).toBeInstanceOf(schema.Invalidate);
    const { controller, getState } = createStore();
    server.respondNext({ body: FEED });
    const list = await controller.fetch(Feed.getList, {});
    expect(list.map((item) => item.constructor)).toEqual([Post, Link, Post]);
    server.respondNext({ body: FEED[1] });
    const one = await controller.fetch(Feed.get, { id: 1 });
    expect(one).toBeInstanceOf(Link);
    expect((one as Link).url).toBe('https://example.com');
    // Post 1 and Link 1 are two entities: one pk, two types.
    expect(plain(getState().entities).Post?.['1']).toEqual(FEED[0]);
    expect(plain(getState().entities).Link?.['1']).toEqual(FEED[1]);
  });

  it('push adds the member it created to the stored lists', async () => {
    const Feed = feedResource();
    const { controller, getState } = createStore();
    server.respondNext({ body: FEED });
    await controller.fetch(Feed.getList, {});
    server.respondNext({ status: 201, body: { id: 3, type: 'link', url: 'https://b.example' } });
    const created = await controller.fetch(Feed.getList.push, { type: 'link', url: 'x' });
    expect(created).toBeInstanceOf(Link);
    const read = controller.getResponse(Feed.getList, {}, getState()).data;
    expect(read?.map((item) => `${item.type} ${item.id}`)).toEqual([
      'post 1',
      'link 1',
      'post 2',
      'link 3',
    ]);
  });

  it('delete invalidates the member the answer names, and only that one', async () => {
    const Feed = feedResource();
    const { controller, getState } = createStore();
    server.respondNext({ body: FEED });
    await controller.fetch(Feed.getList, {});
    server.respondNext({ body: { id: 1, type: 'link' } });
    const deleted = await controller.fetch(Feed.delete, { id: 1 });
    expect(deleted).toBeInstanceOf(Link);
    const read = controller.getResponse(Feed.getList, {}, getState()).data;
    expect(read?.map((item) => `${item.type} ${item.id}`)).toEqual(['post 1', 'post 2']);
    expect(Object.values(rows(getState(), '[Post;Link]'))).toHaveLength(1);
  });

  it('a delete answered with nothing cannot tell the member: a SchemaError says so', async () => {
    const Feed = feedResource();
    const { controller, getState } = createStore();
    server.respondNext({ body: FEED });
    await controller.fetch(Feed.getList, {});
    server.respondNext({ status: 204 });
    const failure = controller.fetch(Feed.delete, { id: 2 });
    await expect(failure).rejects.toThrow(SchemaError);
    await expect(failure).rejects.toThrow(/no member "undefined" \(members: post, link\)/);
    expect(controller.getResponse(Feed.getList, {}, getState()).data).toHaveLength(3);
  });

  it('a function schemaAttribute chooses the member too, also inside a Collection', async () => {
    const byShape = new schema.Union({ post: Post, link: Link }, (input) =>
      'url' in input ? 'link' : 'post',
    );
    const Feed = createResource({ path: '/feed/:id', schema: byShape, urlPrefix: server.url });
    const { controller } = createStore();
    server.respondNext({
      body: [
        { id: 5, url: 'https://c.example' },
        { id: 6, title: 'no url' },
      ],
    });
    const list = await controller.fetch(Feed.getList, {});
    expect(list.map((item) => item.constructor)).toEqual([Link, Post]);
  });

  it('a Collection of a Union drops an invalidated member, whichever list holds it', async () => {
    const mixed = new schema.Collection([feedItem]);
    const { controller, getState } = createStore();
    const Feed = feedResource().extend({ getList: { schema: mixed } });
    server.respondNext({ body: FEED });
    await controller.fetch(Feed.getList, {});
    server.respondNext({ body: { id: 2, type: 'post' } });
    await controller.fetch(Feed.delete, { id: 2 });
    const read = controller.getResponse(Feed.getList, {}, getState()).data;
    expect(read?.map((item) => `${item.type} ${item.id}`)).toEqual(['post 1', 'link 1']);
  });
});
