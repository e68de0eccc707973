import { describe, expect, it } from 'vitest';
import {
  AbortOptimistic,
  createResource,
  createStore,
  Entity,
  ExpiryStatus,
  Query,
  RestEndpoint,
  type RestGenerics,
  type Schema,
  schema,
  validateRequired,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { jsonBody, lastRequest, received, sleep } from './support.js';

/**
 * The code examples of data-client 0.9's documentation (docs/rest and docs/core at
 * @data-client/rest@0.9.9), run against the test server. Each expectation is what
 * @data-client/rest 0.9.9 with @data-client/core 0.9.7 read for the same calls and answers.
 * Where a page's fixture answers a route the test server lacks, `respondNext` sends it.
 */

const server = serverPerTest();

/** Lets a mutation's answer be stored (data-client resolves a mutation before storing it). */
const stored = () => sleep(0);

describe('createResource (rest/api/createResource.md)', () => {
  class Todo extends Entity {
    id = '';
    title = '';
    completed = false;
    pk() {
      return this.id;
    }
    static override key = 'Todo';
  }

  it('"Resources start with 6 Endpoints": each request, and what the store shows after it', async () => {
    const TodoResource = createResource({
      urlPrefix: server.url,
      path: '/todos/:id',
      schema: Todo,
    });
    const { controller, getState } = createStore();
    const list = () => controller.getResponse(TodoResource.getList, getState()).data;
    const todo = await controller.fetch(TodoResource.get, { id: '2' });
    await controller.fetch(TodoResource.getList);
    const created = await controller.fetch(TodoResource.getList.push, {
      title: 'finish installing reactive data client',
    });
    expect(created).toMatchObject({ id: 4, title: 'finish installing reactive data client' });
    expect(list()?.map((item) => item.id)).toEqual([1, 2, 3, 4]);
    const updated = await controller.fetch(
      TodoResource.update,
      { id: '2' },
      { ...todo, completed: true },
    );
    expect(updated).toMatchObject({ id: 2, title: 'fix bugs', completed: true });
    await controller.fetch(TodoResource.partialUpdate, { id: '2' }, { completed: false });
    expect(controller.getResponse(TodoResource.get, { id: '2' }, getState()).data).toMatchObject({
      id: 2,
      completed: false,
    });
    const deleted = await controller.fetch(TodoResource.delete, { id: '2' });
    expect(deleted).toBeInstanceOf(Todo);
    expect(deleted).toMatchObject({ id: '2', title: '' });
    expect(list()?.map((item) => item.id)).toEqual([1, 3, 4]);
    expect(controller.getResponse(TodoResource.get, { id: '2' }, getState()).expiryStatus).toBe(
      ExpiryStatus.Invalid,
    );
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      'GET /todos/2 ',
      'GET /todos ',
      'POST /todos {"title":"finish installing reactive data client"}',
      'PUT /todos/2 {"id":2,"title":"fix bugs","completed":true,"userId":1}',
      'PATCH /todos/2 {"completed":false}',
      'DELETE /todos/2 ',
    ]);
  });

  it('the members of /api/:group/:id: their URLs, keys and methods', () => {
    const resource = createResource({
      urlPrefix: '//test.com',
      path: '/api/:group/:id',
      searchParams: {} as { isExtra?: string },
      paginationField: 'page',
      schema: Todo,
    });
    expect(resource.get.url({ group: 'abc', id: 'xyz' })).toBe('//test.com/api/abc/xyz');
    expect(resource.getList.url({ group: 'abc', isExtra: 'xyz' })).toBe(
      '//test.com/api/abc?isExtra=xyz',
    );
    expect(resource.getList.push.key({ group: 'abc' }, { title: 'winning' })).toBe(
      'POST //test.com/api/abc',
    );
    expect(resource.getList.unshift.key({ group: 'abc' }, { title: 'winning' })).toBe(
      'POST //test.com/api/abc',
    );
    const page = { group: 'abc', isExtra: 'xyz', page: '2' };
    expect(resource.getList.getPage.url(page)).toBe('//test.com/api/abc?isExtra=xyz&page=2');
    expect(resource.getList.getPage.key(page)).toBe('GET //test.com/api/abc?isExtra=xyz');
    expect(resource.update.key({ group: 'abc', id: 'xyz' }, { title: 'winning' })).toBe(
      'PUT //test.com/api/abc/xyz',
    );
    expect([resource.partialUpdate.method, resource.delete.method]).toEqual(['PATCH', 'DELETE']);
    expect(resource.delete.key({ group: 'abc', id: 'xyz' })).toBe('DELETE //test.com/api/abc/xyz');
    expect(createResource({ path: '/:first/:second', schema: Todo }).getList.path).toBe('/:first');
  });
});

describe('RestEndpoint (rest/api/RestEndpoint.md)', () => {
  it('path templates: escapes, optional and numeric parameters, sorted search params', () => {
    expect(
      new RestEndpoint({ path: 'https\\://jsonplaceholder.typicode.com/todos/:id' }).url({ id: 5 }),
    ).toBe('https://jsonplaceholder.typicode.com/todos/5');
    const getUsers = new RestEndpoint({
      path: '/:group/user/:id',
      searchParams: {} as { isAdmin?: boolean; sort: 'asc' | 'desc' },
    });
    expect(getUsers.url({ group: 'big', id: '5', sort: 'asc' })).toBe('/big/user/5?sort=asc');
    expect(getUsers.url({ group: 'big', id: '5', sort: 'desc', isAdmin: true })).toBe(
      '/big/user/5?isAdmin=true&sort=desc',
    );
    const optional = new RestEndpoint({ path: '/:group/things/:number?' });
    expect(optional.url({ group: 'first' })).toBe('/first/things');
    expect(optional.url({ group: 'first', number: 'fifty' })).toBe('/first/things/fifty');
    const getReactSite = new RestEndpoint({
      path: 'https\\://site.com/:slug',
      searchParams: {} as { isReact: boolean },
    });
    expect(getReactSite.url({ slug: 'cool', isReact: true })).toBe(
      'https://site.com/cool?isReact=true',
    );
    const getThing = new RestEndpoint({ path: '/:group/things/:id' });
    expect(getThing.key({ group: 'first', id: 77 })).toBe('GET /first/things/77');
    expect(getThing.testKey(getThing.key({ group: 'a', id: 1 }))).toBe(true);
    expect(getThing.testKey('GET /a/b/c/d')).toBe(false);
    expect(new RestEndpoint({ path: '/' }).url()).toBe('/');
  });

  it('method and body: PUT sends its body; `body: undefined` takes none', async () => {
    const update = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos/:id',
      method: 'PUT',
    });
    expect(await update({ id: 1 }, { title: 'updated', completed: true })).toEqual({
      title: 'updated',
      completed: true,
      userId: 0,
      id: 1,
    });
    const rpc = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos/:id/toggle',
      method: 'POST',
      body: undefined,
    });
    expect([rpc.sideEffect, rpc.key({ id: 1 })]).toEqual([
      true,
      `POST ${server.url}/todos/1/toggle`,
    ]);
    expect(await rpc({ id: 1 })).toMatchObject({ id: 1, completed: false });
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PUT', '/todos/1', '{"title":"updated","completed":true}'],
      ['POST', '/todos/1/toggle', ''],
    ]);
  });

  it('process sets what a call resolves to', async () => {
    const getTodo = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos/:id',
      process(value: { title: string }) {
        return { ...value, processed: true };
      },
    });
    expect(await getTodo({ id: 3 })).toEqual({
      id: 3,
      title: 'ship',
      completed: false,
      userId: 2,
      processed: true,
    });
  });

  it('Inheritance: a urlPrefix field and getHeaders, kept by extend', async () => {
    const url = server.url;
    class GithubEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
      override urlPrefix = url;
      override getHeaders(headers: HeadersInit): HeadersInit {
        return { ...headers, 'Access-Token': 'token' };
      }
    }
    const getTodo = new GithubEndpoint({ path: '/todos/:id' });
    expect(getTodo.url({ id: 1 })).toBe(`${url}/todos/1`);
    expect(await getTodo({ id: 1 })).toMatchObject({ title: 'write tests' });
    expect(await getTodo.extend({ path: '/users/:id' })({ id: 1 })).toMatchObject({
      name: 'Ada Lovelace',
    });
    expect(server.requests.map((r) => [r.url, r.headers['access-token']])).toEqual([
      ['/todos/1', 'token'],
      ['/users/1', 'token'],
    ]);
  });

  it('an async getHeaders (the getHeaders tip)', async () => {
    class AuthdEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
      override async getHeaders(headers: HeadersInit) {
        return { ...headers, 'Access-Token': await Promise.resolve('example') };
      }
    }
    const patch = new AuthdEndpoint({ urlPrefix: server.url, path: '/todos/:id', method: 'PATCH' });
    expect(await patch({ id: 1 }, { title: 'x' })).toMatchObject({ id: 1, title: 'x' });
    const request = lastRequest(server);
    expect([request.headers['access-token'], request.headers['content-type']]).toEqual([
      'example',
      'application/json',
    ]);
  });

  it('extend({ schema, getHeaders }) normalizes what the plain endpoint fetched', async () => {
    class User extends Entity {
      id = 0;
      username = '';
      name = '';
      pk() {
        return this.id;
      }
    }
    const getUser = new RestEndpoint({ urlPrefix: server.url, path: '/users/:id' });
    const UserDetailNormalized = getUser.extend({
      schema: User,
      getHeaders(headers: HeadersInit): HeadersInit {
        return { ...headers, 'Access-Token': 'auth' };
      },
    });
    const { controller, getState } = createStore();
    await controller.fetch(UserDetailNormalized, { id: 1 });
    const user = controller.getResponse(UserDetailNormalized, { id: 1 }, getState()).data;
    expect(user).toBeInstanceOf(User);
    expect(user).toMatchObject({ id: 1, username: 'ada', name: 'Ada Lovelace' });
    expect(lastRequest(server).headers['access-token']).toBe('auth');
    expect(UserDetailNormalized.name).toBe(`${server.url}/users/:id`);
  });

  it("paginated('page') and paginated(removeCursor) append to the list they were made from", async () => {
    class Todo extends Entity {
      id = 0;
      title = '';
      pk() {
        return this.id;
      }
    }
    const getList = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos',
      searchParams: {} as { per_page?: number },
      schema: new schema.Collection([Todo]),
    });
    const byPage = getList.paginated('page');
    const byCursor = getList.paginated(({ cursor, ...rest }: { cursor: string | number }) =>
      Object.keys(rest).length ? [rest] : [],
    );
    const { controller, getState } = createStore();
    await controller.fetch(getList, { per_page: 1 });
    const page = await controller.fetch(byPage, { per_page: 1, page: 3 });
    expect(page.map((todo) => todo.id)).toEqual([3]);
    const ids = (...args: [{ per_page: number }] | []) =>
      controller.getResponse(getList, ...args, getState()).data?.map((todo) => todo.id);
    expect(ids({ per_page: 1 })).toEqual([1, 3]);
    await controller.fetch(getList);
    await controller.fetch(byCursor, { cursor: 1 });
    expect(ids()).toEqual([1, 2, 3]);
    expect(byCursor.key({ cursor: 1 })).toBe(getList.key());
  });
});

describe('schema.Collection (rest/api/Collection.md)', () => {
  class Todo extends Entity {
    id = '';
    userId = 0;
    title = '';
    completed = false;
    pk() {
      return this.id;
    }
    static override key = 'Todo';
  }

  it('Usage: each user’s nested todos (nestKey) receive a push or unshift whose body names the user', async () => {
    const getTodos = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos',
      schema: new schema.Collection([Todo]),
    });
    class User extends Entity {
      id = '';
      name = '';
      username = '';
      email = '';
      todos: Todo[] = [];
      pk() {
        return this.id;
      }
      static override key = 'User';
      static override schema = {
        todos: new schema.Collection([Todo], {
          nestKey: (parent: { id: string }) => ({ userId: parent.id }),
        }),
      };
    }
    const getUsers = new RestEndpoint({
      urlPrefix: server.url,
      path: '/users',
      schema: new schema.Collection([User]),
    });
    const { controller, getState } = createStore();
    server.respondNext({
      body: [
        {
          id: '1',
          username: 'bob',
          name: 'Bob',
          todos: [
            { id: '123', title: 'Build Collections', userId: '1' },
            { id: '456', title: 'Add atomic creation', userId: '1' },
          ],
        },
        {
          id: '2',
          username: 'alice',
          name: 'Alice',
          todos: [
            { id: '34', title: 'Use Collections', userId: '2' },
            { id: '453', title: 'Make a fast web app', userId: '2' },
          ],
        },
      ],
    });
    await controller.fetch(getUsers);
    const view = () =>
      controller
        .getResponse(getUsers, getState())
        .data?.map((user) => [user.name, user.todos.map((todo) => todo.title)]);
    server.respondNext({ status: 201, body: { id: '999', title: 'new for bob', userId: '1' } });
    await controller.fetch(getTodos.push, { title: 'new for bob', userId: '1' });
    server.respondNext({
      status: 201,
      body: { id: '1000', title: 'first for alice', userId: '2' },
    });
    await controller.fetch(getTodos.unshift, { title: 'first for alice', userId: '2' });
    await stored();
    expect(view()).toEqual([
      ['Bob', ['Build Collections', 'Add atomic creation', 'new for bob']],
      ['Alice', ['first for alice', 'Use Collections', 'Make a fast web app']],
    ]);
  });

  it.each([
    ['a function', (key: string) => key === 'orderBy'],
    ['a RegExp', /orderBy/],
    ['a list', ['orderBy']],
  ])(
    'nonFilterArgumentKeys as %s: a push reaches the lists its group and author match, whatever their order; a FormData body filters by its fields',
    async (_name, nonFilterArgumentKeys) => {
      class Post extends Entity {
        id = '';
        title = '';
        group = '';
        author = '';
        pk() {
          return this.id;
        }
      }
      const getPosts = new RestEndpoint({
        urlPrefix: server.url,
        path: '/:group/posts',
        searchParams: {} as { orderBy?: string; author?: string },
        schema: new schema.Collection([Post], { nonFilterArgumentKeys }),
      });
      const bob = { id: '1', title: 'a', group: 'react', author: 'bob' };
      const clara = { id: '2', title: 'b', group: 'react', author: 'clara' };
      const { controller, getState } = createStore();
      server.respondNext({ body: [bob] });
      await controller.fetch(getPosts, { group: 'react', author: 'bob' });
      server.respondNext({ body: [clara, bob] });
      await controller.fetch(getPosts, { group: 'react', orderBy: 'title' });
      server.respondNext({ body: [clara] });
      await controller.fetch(getPosts, { group: 'react', author: 'clara' });
      server.respondNext({ status: 201, body: { ...bob, id: '3', title: 'New Post' } });
      await controller.fetch(
        getPosts.push,
        { group: 'react' },
        { title: 'New Post', author: 'bob' },
      );
      const form = new FormData();
      form.set('author', 'clara');
      form.set('title', 'Form Post');
      server.respondNext({ status: 201, body: { ...clara, id: '4', title: 'Form Post' } });
      await controller.fetch(getPosts.push, { group: 'react' }, form);
      await stored();
      const read = (args: { group: string; author?: string; orderBy?: string }) =>
        controller.getResponse(getPosts, args, getState()).data?.map((post) => post.id);
      expect(read({ group: 'react', author: 'bob' })).toEqual(['1', '3']);
      expect(read({ group: 'react', orderBy: 'title' })).toEqual(['2', '1', '3', '4']);
      expect(read({ group: 'react', author: 'clara' })).toEqual(['2', '4']);
      expect(lastRequest(server).headers['content-type']).toMatch(/^multipart\/form-data/);
    },
  );

  it('argsKey: each userId has its list; a push with that userId, in the params or the body, reaches it', async () => {
    const getTodos = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos',
      searchParams: {} as { userId?: string },
      schema: new schema.Collection([Todo], {
        argsKey: (urlParams: { userId?: string }) => ({ ...urlParams }),
      }),
    });
    const { controller, getState } = createStore();
    await controller.fetch(getTodos, { userId: '1' });
    await controller.fetch(getTodos, { userId: '2' });
    await controller.fetch(getTodos.push, { userId: '1' }, { title: 'one' });
    await controller.fetch(getTodos.push, { title: 'two', userId: 2 });
    await stored();
    const ids = (userId: string) =>
      controller.getResponse(getTodos, { userId }, getState()).data?.map((todo) => todo.id);
    expect([ids('1'), ids('2')]).toEqual([
      [1, 2, 4],
      [3, 5],
    ]);
  });
});

describe('Entity (rest/api/Entity.md)', () => {
  it('"Case of the missing id": process takes the pk from the arguments', async () => {
    class Stream extends Entity {
      username = '';
      title = '';
      game = '';
      currentViewers = 0;
      live = false;
      pk() {
        return this.username;
      }
      static override key = 'Stream';
      static override process(
        value: Record<string, unknown>,
        parent: unknown,
        key: string | undefined,
        args: readonly unknown[],
      ) {
        const processed = super.process(value, parent, key, args);
        processed.username = (args[0] as { username?: string } | undefined)?.username;
        return processed;
      }
    }
    const getStream = new RestEndpoint({
      urlPrefix: server.url,
      path: '/streams/:username',
      schema: Stream,
    });
    const { controller, getState } = createStore();
    server.respondNext({
      body: { title: 'speedrun', game: 'zelda', currentViewers: 10, live: true },
    });
    await controller.fetch(getStream, { username: 'bob' });
    expect(controller.getResponse(getStream, { username: 'bob' }, getState()).data).toEqual(
      Stream.fromJS({
        username: 'bob',
        title: 'speedrun',
        game: 'zelda',
        currentViewers: 10,
        live: true,
      }),
    );
  });

  it('useIncoming "Preventing updates": an equal answer keeps the stored instance', async () => {
    class Article extends Entity {
      id = '';
      title = '';
      content = '';
      published = false;
      pk() {
        return this.id;
      }
      static override useIncoming(
        _existingMeta: unknown,
        _incomingMeta: unknown,
        existing: object,
        incoming: object,
      ) {
        return JSON.stringify(incoming) !== JSON.stringify(existing);
      }
    }
    const get = new RestEndpoint({ urlPrefix: server.url, path: '/articles/:id', schema: Article });
    const { controller, getState } = createStore();
    const answer = { id: '1', title: 'a', content: 'x', published: false };
    await controller.setResponse(get, { id: '1' }, answer);
    const first = controller.getResponse(get, { id: '1' }, getState()).data;
    await controller.setResponse(get, { id: '1' }, { ...answer });
    expect(controller.getResponse(get, { id: '1' }, getState()).data).toBe(first);
    await controller.setResponse(get, { id: '1' }, { ...answer, title: 'b', published: true });
    expect(controller.getResponse(get, { id: '1' }, getState()).data).toMatchObject({
      title: 'b',
      published: true,
    });
  });

  it('shouldReorder by updatedAt (LatestPriceEntity): an older price fills gaps only', async () => {
    class LatestPriceEntity extends Entity {
      id = '';
      updatedAt = 0;
      price = '0.0';
      symbol = '';
      pk() {
        return this.id;
      }
      static override shouldReorder(
        _existingMeta: unknown,
        _incomingMeta: unknown,
        existing: { updatedAt: number },
        incoming: { updatedAt: number },
      ) {
        return incoming.updatedAt < existing.updatedAt;
      }
    }
    const get = new RestEndpoint({
      urlPrefix: server.url,
      path: '/prices/:id',
      schema: LatestPriceEntity,
    });
    const { controller, getState } = createStore();
    const read = () => controller.getResponse(get, { id: 'btc' }, getState()).data;
    await controller.setResponse(
      get,
      { id: 'btc' },
      { id: 'btc', updatedAt: 10, price: '100', symbol: 'BTC' },
    );
    await controller.setResponse(
      get,
      { id: 'btc' },
      { id: 'btc', updatedAt: 5, price: '50', symbol: 'BTC' },
    );
    expect(read()).toMatchObject({ updatedAt: 10, price: '100' });
    await controller.setResponse(get, { id: 'btc' }, { id: 'btc', updatedAt: 20, price: '200' });
    expect(read()).toMatchObject({ updatedAt: 20, price: '200', symbol: 'BTC' });
  });

  it('a singleton pk, and fromJS of an entity not yet created (pk undefined)', async () => {
    class Settings extends Entity {
      theme = 'light';
      pk() {
        return 'the_only_one';
      }
    }
    class Draft extends Entity {
      id: string | undefined = undefined;
      title = '';
      pk() {
        return this.id;
      }
    }
    const draft = Draft.fromJS({ title: 'new' });
    expect([draft.title, draft.pk()]).toEqual(['new', undefined]);
    const getSettings = new RestEndpoint({
      urlPrefix: server.url,
      path: '/settings',
      schema: Settings,
    });
    const { controller, getState } = createStore();
    await controller.setResponse(getSettings, { theme: 'dark' });
    expect(controller.getResponse(getSettings, getState()).data).toEqual(
      Settings.fromJS({ theme: 'dark' }),
    );
  });

  it('validate: a response it refuses fails with status 400 and stores nothing', async () => {
    class Article extends Entity {
      id = '';
      title = '';
      pk() {
        return this.id;
      }
      static override validate(processed: Record<string, unknown>) {
        return 'title' in processed ? undefined : 'missing title';
      }
    }
    const get = new RestEndpoint({ urlPrefix: server.url, path: '/articles/:id', schema: Article });
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: '1' } });
    await expect(controller.fetch(get, { id: '1' })).rejects.toMatchObject({ status: 400 });
    expect(controller.getResponse(get, { id: '1' }, getState()).data).toBeUndefined();
  });
});

describe('Partial entities (rest/guides/partial-entities.md)', () => {
  class ArticleSummary extends Entity {
    id = '';
    title = '';
    pk() {
      return this.id;
    }
    // this ensures `Article` maps to the same entity
    static override key = 'Article';
    static override schema = { createdAt: (iso: string) => new Date(iso) };
  }
  class Article extends ArticleSummary {
    content = '';
    createdAt = new Date(0);
    static override validate(processedEntity: Record<string, unknown>) {
      return validateRequired(processedEntity, this.defaults);
    }
  }

  it('an article known only from the list is Invalid (fetched before shown); once fetched it reads as an Article', async () => {
    const ArticleResource = createResource({
      urlPrefix: server.url,
      path: '/article/:id',
      schema: Article,
    }).extend({ getList: { schema: new schema.Collection([ArticleSummary]) } });
    const { controller, getState } = createStore();
    server.respondNext({
      body: [
        { id: '1', title: 'first' },
        { id: '2', title: 'second' },
      ],
    });
    await controller.fetch(ArticleResource.getList);
    const list = controller.getResponse(ArticleResource.getList, getState()).data;
    expect(list?.map((article) => [article.constructor, article.title])).toEqual([
      [ArticleSummary, 'first'],
      [ArticleSummary, 'second'],
    ]);
    const fromList = controller.getResponse(ArticleResource.get, { id: '1' }, getState());
    expect([fromList.expiryStatus, fromList.data]).toEqual([ExpiryStatus.Invalid, undefined]);

    server.respondNext({
      body: {
        id: '1',
        title: 'first',
        content: 'Imagine there was much more here.',
        createdAt: '2011-10-05T14:48:00.000Z',
      },
    });
    await controller.fetch(ArticleResource.get, { id: '1' });
    const full = controller.getResponse(ArticleResource.get, { id: '1' }, getState());
    expect(full.expiryStatus).toBe(ExpiryStatus.Valid);
    expect(full.data).toBeInstanceOf(Article);
    expect(full.data?.content).toBe('Imagine there was much more here.');
    expect(full.data?.createdAt.toISOString()).toBe('2011-10-05T14:48:00.000Z');
    // The list still reads summaries, of the row the detail filled in.
    const after = controller.getResponse(ArticleResource.getList, getState()).data;
    expect(after?.map((article) => [article.constructor, article.title])).toEqual([
      [ArticleSummary, 'first'],
      [ArticleSummary, 'second'],
    ]);
  });
});

describe('Relational data: reverse lookups (rest/guides/relational-data.md)', () => {
  it("a user lists the posts and comments process linked to it; a comment's process sees the post it is listed in", async () => {
    class User extends Entity {
      id = '';
      name = '';
      posts: Post[] = [];
      comments: Comment[] = [];
      pk() {
        return this.id;
      }
      static override merge(existing: Record<string, any>, incoming: Record<string, any>) {
        return {
          ...existing,
          ...incoming,
          posts: [...(existing.posts || []), ...(incoming.posts || [])],
          comments: [...(existing.comments || []), ...(incoming.comments || [])],
        };
      }
      static override process(value: Record<string, unknown>, parent: any, key?: string) {
        switch (key) {
          case 'author':
            return { ...value, posts: [parent.id] };
          case 'commenter':
            return { ...value, comments: [parent.id] };
          default:
            return { ...value };
        }
      }
    }
    class Comment extends Entity {
      id = '';
      content = '';
      commenter = User.fromJS();
      post = Post.fromJS();
      pk() {
        return this.id;
      }
      static override schema: Record<string, unknown> = { commenter: User };
      static override process(value: Record<string, unknown>, parent: any) {
        return { ...value, post: parent.id };
      }
    }
    class Post extends Entity {
      id = '';
      title = '';
      author = User.fromJS();
      comments: Comment[] = [];
      pk() {
        return this.id;
      }
      static override schema = { author: User, comments: [Comment] };
    }
    // with circular dependencies we must set schema after they are all defined
    User.schema = { posts: [Post], comments: [Comment] };
    Comment.schema = { ...Comment.schema, post: Post };
    const PostResource = createResource({
      urlPrefix: server.url,
      path: '/posts/:id',
      schema: Post,
      dataExpiryLength: Infinity,
    });
    const UserResource = createResource({
      urlPrefix: server.url,
      path: '/users/:id',
      schema: User,
    });
    const { controller, getState } = createStore();
    const paul = { id: '123', name: 'Paul' };
    const jane = { id: '245', name: 'Jane' };
    server.respondNext({
      body: [
        {
          id: '1',
          title: 'My first post!',
          author: paul,
          comments: [
            { id: '249', content: 'Nice post!', commenter: jane },
            { id: '250', content: 'Thanks!', commenter: paul },
          ],
        },
        {
          id: '2',
          title: 'This other post',
          author: paul,
          comments: [
            { id: '251', content: 'Your other post was nicer', commenter: jane },
            {
              id: '252',
              content: 'I am a spammer!',
              commenter: { id: '246', name: 'Spambot5000' },
            },
          ],
        },
      ],
    });
    await controller.fetch(PostResource.getList);
    const posts = controller.getResponse(PostResource.getList, getState()).data;
    expect(
      posts?.map((post) => [
        post.title,
        post.author.name,
        post.comments.map((comment) => [
          comment.content,
          comment.commenter.name,
          comment.commenter === post.author,
          comment.post.id,
        ]),
      ]),
    ).toEqual([
      [
        'My first post!',
        'Paul',
        [
          ['Nice post!', 'Jane', false, '1'],
          ['Thanks!', 'Paul', true, '1'],
        ],
      ],
      [
        'This other post',
        'Paul',
        [
          ['Your other post was nicer', 'Jane', false, '2'],
          ['I am a spammer!', 'Spambot5000', false, '2'],
        ],
      ],
    ]);
    const userPage = (id: string) => {
      const { data, expiryStatus } = controller.getResponse(UserResource.get, { id }, getState());
      return [
        expiryStatus,
        data?.name,
        data?.posts.map((post) => post.title),
        data?.comments.map((comment) => comment.content),
      ];
    };
    expect(userPage('123')).toEqual([
      ExpiryStatus.Valid,
      'Paul',
      ['My first post!', 'This other post'],
      ['Thanks!'],
    ]);
    expect(userPage('245')).toEqual([
      ExpiryStatus.Valid,
      'Jane',
      [],
      ['Nice post!', 'Your other post was nicer'],
    ]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('Polymorphic schemas: Union, Array, Values, All (rest/api/*.md)', () => {
  abstract class FeedItem extends Entity {
    readonly id: number = 0;
    declare readonly type: 'link' | 'post';
    pk() {
      return `${this.id}`;
    }
  }
  class Link extends FeedItem {
    override readonly type = 'link' as const;
    readonly url: string = '';
    readonly title: string = '';
  }
  class Post extends FeedItem {
    override readonly type = 'post' as const;
    readonly content: string = '';
  }
  const feedAnswer = [
    { id: 1, type: 'link', url: 'https://ntucker.true.io', title: 'Nate site' },
    { id: 10, type: 'post', content: 'good day!' },
  ];
  /** An item of a type the docs' definitions do not name. */
  const video = { id: 11, type: 'video', src: 'x' };

  it.each<[string, () => Schema]>([
    ['[schema.Union]', () => [new schema.Union({ link: Link, post: Post }, 'type')]],
    [
      'schema.Array with a string attribute',
      () => new schema.Array({ link: Link, post: Post }, 'type'),
    ],
    [
      'schema.Array with a function attribute',
      () =>
        new schema.Array(
          { links: Link, posts: Post },
          (input: Record<string, unknown>) => `${input.type}s`,
        ),
    ],
  ])(
    '%s: each item is its type; one of a type not in the definition is kept as it came',
    async (_name, feedSchema) => {
      const feed = new RestEndpoint({ urlPrefix: server.url, path: '/feed', schema: feedSchema() });
      const { controller, getState } = createStore();
      server.respondNext({ body: [...feedAnswer, video] });
      await controller.fetch(feed);
      const items = controller.getResponse(feed, getState()).data as unknown[];
      expect(items.map((item) => (item as object).constructor)).toEqual([Link, Post, Object]);
      expect(items[0]).toMatchObject({ id: 1, url: 'https://ntucker.true.io', title: 'Nate site' });
      expect(items[2]).toEqual(video);
      expect(getState().entities.get('Link')?.get('1')).toBeDefined();
      expect(getState().entities.get('Post')?.get('10')).toBeDefined();
    },
  );

  it.each<[string, () => Schema]>([
    ['a string attribute', () => new schema.Values({ link: Link, post: Post }, 'type')],
    [
      'a function attribute',
      () =>
        new schema.Values(
          { links: Link, posts: Post },
          (input: Record<string, unknown>) => `${input.type}s`,
        ),
    ],
  ])('schema.Values with %s reads a list answer by its indexes', async (_name, feedSchema) => {
    const getFeed = new RestEndpoint({
      urlPrefix: server.url,
      path: '/feed',
      schema: feedSchema(),
    });
    const { controller, getState } = createStore();
    server.respondNext({ body: feedAnswer });
    await controller.fetch(getFeed);
    const items = controller.getResponse(getFeed, getState()).data as Record<string, FeedItem>;
    expect(Object.entries(items).map(([key, item]) => [key, item.constructor, item.pk()])).toEqual([
      ['0', Link, '1'],
      ['1', Post, '10'],
    ]);
  });

  it('schema.Values(Item) keeps the keys of the answer', async () => {
    class Item extends Entity {
      readonly id: number = 0;
      pk() {
        return `${this.id}`;
      }
    }
    const getItems = new RestEndpoint({
      urlPrefix: server.url,
      path: '/items',
      schema: new schema.Values(Item),
    });
    const { controller, getState } = createStore();
    server.respondNext({ body: { firstThing: { id: 1 }, secondThing: { id: 2 } } });
    await controller.fetch(getItems);
    expect(controller.getResponse(getItems, getState()).data).toEqual({
      firstThing: Item.fromJS({ id: 1 }),
      secondThing: Item.fromJS({ id: 2 }),
    });
  });

  it('schema.All as an endpoint schema reads every user, the one created later too', async () => {
    class User extends Entity {
      id = '';
      name = '';
      pk() {
        return this.id;
      }
    }
    const createUser = new RestEndpoint({
      urlPrefix: server.url,
      path: '/users',
      schema: User,
      body: { name: '' },
      method: 'POST',
    });
    const getUsers = new RestEndpoint({
      urlPrefix: server.url,
      path: '/users',
      schema: new schema.All(User),
    });
    const { controller, getState } = createStore();
    expect(controller.getResponse(getUsers, getState()).data).toBeUndefined();
    server.respondNext({
      body: [
        { id: '123', name: 'Jim' },
        { id: '456', name: 'Jane' },
      ],
    });
    await controller.fetch(getUsers);
    server.respondNext({ body: { id: '777', name: 'ABC' } });
    await controller.fetch(createUser, { name: 'ABC' });
    await stored();
    expect(controller.getResponse(getUsers, getState()).data?.map((user) => user.name)).toEqual([
      'Jim',
      'Jane',
      'ABC',
    ]);
  });

  it('schema.Object({ users: new schema.Array(User) })', async () => {
    class User extends Entity {
      id = '';
      name = '';
      pk() {
        return this.id;
      }
    }
    const getUsers = new RestEndpoint({
      urlPrefix: server.url,
      path: '/users',
      schema: new schema.Object({ users: new schema.Array(User) }),
    });
    const { controller, getState } = createStore();
    server.respondNext({ body: { users: [{ id: '123', name: 'Beth' }] } });
    await controller.fetch(getUsers);
    expect(controller.getResponse(getUsers, getState()).data).toEqual({
      users: [User.fromJS({ id: '123', name: 'Beth' })],
    });
  });
});

describe('Query (rest/api/Query.md)', () => {
  class User extends Entity {
    id = '';
    name = '';
    isAdmin = false;
    pk() {
      return this.id;
    }
  }

  it('Sorting & Filtering, Aggregates: undefined until users are stored, then their reading', async () => {
    const UserResource = createResource({
      urlPrefix: server.url,
      path: '/users/:id',
      schema: User,
    });
    interface Args {
      asc: boolean;
      isAdmin?: boolean;
    }
    const sortedUsers = new Query(
      new schema.All(User),
      (entries, { asc, isAdmin }: Args = { asc: false }) => {
        let sorted = [...entries].sort((a, b) => a.name.localeCompare(b.name));
        if (isAdmin !== undefined) sorted = sorted.filter((user) => user.isAdmin === isAdmin);
        if (asc) return sorted;
        return sorted.reverse();
      },
    );
    const getUserCount = new Query(
      new schema.All(User),
      (entries, { isAdmin }: { isAdmin?: boolean } = {}) => {
        if (isAdmin !== undefined) return entries.filter((user) => user.isAdmin === isAdmin).length;
        return entries.length;
      },
    );
    const { controller, getState } = createStore();
    expect(controller.getResponse(getUserCount, getState()).data).toBeUndefined();
    server.respondNext({
      body: [
        { id: '123', name: 'Jim' },
        { id: '456', name: 'Jane' },
        { id: '777', name: 'Albatras', isAdmin: true },
      ],
    });
    await controller.fetch(UserResource.getList);
    const names = (users: User[] | undefined) => users?.map((user) => user.name);
    expect(names(controller.getResponse(sortedUsers, { asc: true }, getState()).data)).toEqual([
      'Albatras',
      'Jane',
      'Jim',
    ]);
    expect(names(controller.getResponse(sortedUsers, getState()).data)).toEqual([
      'Jim',
      'Jane',
      'Albatras',
    ]);
    expect(
      names(controller.getResponse(sortedUsers, { asc: true, isAdmin: false }, getState()).data),
    ).toEqual(['Jane', 'Jim']);
    expect(controller.getResponse(getUserCount, getState()).data).toBe(3);
    expect(controller.getResponse(getUserCount, { isAdmin: true }, getState()).data).toBe(1);
  });

  it('Client side joins: a todo’s userId is the stored user', async () => {
    class Person extends Entity {
      id = 0;
      name = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'User';
    }
    class Todo extends Entity {
      id = 0;
      userId = Person.fromJS({});
      title = '';
      completed = false;
      pk() {
        return `${this.id}`;
      }
      static override schema = { userId: Person };
    }
    const UserResource = createResource({
      urlPrefix: server.url,
      path: '/users/:id',
      schema: Person,
    });
    const TodoResource = createResource({
      urlPrefix: server.url,
      path: '/todos/:id',
      schema: Todo,
    });
    const todosWithUser = new Query(
      new schema.All(Todo),
      (entries, { userId = 0 }: { userId?: number }) =>
        entries.filter((todo) => todo.userId?.id === userId),
    );
    const { controller, getState } = createStore();
    await controller.fetch(UserResource.getList);
    await controller.fetch(TodoResource.getList);
    const todos = controller.getResponse(todosWithUser, { userId: 1 }, getState()).data;
    expect(todos?.map((todo) => [todo.title, todo.userId.name])).toEqual([
      ['write tests', 'Ada Lovelace'],
      ['fix bugs', 'Ada Lovelace'],
    ]);
  });
});

describe('Invalidate and Controller (rest/api/Invalidate.md, core/api/Controller.md)', () => {
  class User extends Entity {
    id = '';
    name = '';
    pk() {
      return this.id;
    }
  }

  it('deleteUser with schema.Invalidate takes the user out of the list', async () => {
    const getUsers = new RestEndpoint({
      urlPrefix: server.url,
      path: '/users',
      schema: new schema.Collection([User]),
    });
    const deleteUser = new RestEndpoint({
      urlPrefix: server.url,
      path: '/users/:id',
      method: 'DELETE',
      schema: new schema.Invalidate(User),
    });
    const { controller, getState } = createStore();
    server.respondNext({
      body: [
        { id: '123', name: 'Jim' },
        { id: '456', name: 'Jane' },
        { id: '555', name: 'Phone' },
      ],
    });
    await controller.fetch(getUsers);
    server.respondNext({ body: { id: '456' } });
    expect(await controller.fetch(deleteUser, { id: '456' })).toEqual(User.fromJS({ id: '456' }));
    await stored();
    expect(controller.getResponse(getUsers, getState()).data?.map((user) => user.name)).toEqual([
      'Jim',
      'Phone',
    ]);
  });

  it('fetch(push, new FormData(form)) posts the form, and the item joins the list its fields name', async () => {
    class Todo extends Entity {
      id = 0;
      title = '';
      userId = 0;
      pk() {
        return `${this.id}`;
      }
    }
    const getTodos = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos',
      searchParams: {} as { userId?: number },
      schema: new schema.Collection([Todo]),
    });
    const { controller, getState } = createStore();
    await controller.fetch(getTodos, { userId: 1 });
    await controller.fetch(getTodos, { userId: 2 });
    const form = new FormData();
    form.set('userId', '2');
    form.set('title', 'from a form');
    server.respondNext({ status: 201, body: { id: 4, title: 'from a form', userId: 2 } });
    const created = await controller.fetch(getTodos.push, form);
    await stored();
    expect(created).toMatchObject({ id: 4, title: 'from a form' });
    const ids = (userId: number) =>
      controller.getResponse(getTodos, { userId }, getState()).data?.map((todo) => todo.id);
    expect([ids(1), ids(2)]).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('setResponse(delete) removes the entity from lists and makes its get Invalid', async () => {
    const UserResource = createResource({
      urlPrefix: server.url,
      path: '/users/:id',
      schema: User,
    });
    const { controller, getState } = createStore();
    await controller.fetch(UserResource.getList);
    await controller.fetch(UserResource.get, { id: '2' });
    await controller.setResponse(UserResource.delete, { id: '2' }, { id: '2' });
    expect(
      controller.getResponse(UserResource.getList, getState()).data?.map((u) => u.name),
    ).toEqual(['Ada Lovelace']);
    expect(controller.getResponse(UserResource.get, { id: '2' }, getState()).expiryStatus).toBe(
      ExpiryStatus.Invalid,
    );
  });

  it('invalidate, expireAll(endpoint), invalidateAll({ testKey }), fetchIfStale and resetEntireStore', async () => {
    const UserResource = createResource({
      urlPrefix: server.url,
      path: '/users/:id',
      schema: User,
    });
    const { controller, getState } = createStore();
    const read = (id: string) => {
      const { expiryStatus, expiresAt } = controller.getResponse(
        UserResource.get,
        { id },
        getState(),
      );
      return [expiryStatus, expiresAt > Date.now()];
    };
    await controller.fetch(UserResource.get, { id: '1' });
    await controller.fetch(UserResource.get, { id: '2' });
    await controller.fetch(UserResource.getList);
    expect((await controller.fetchIfStale(UserResource.get, { id: '1' }))?.name).toBe(
      'Ada Lovelace',
    );
    expect(server.requests).toHaveLength(3);
    await controller.invalidate(UserResource.get, { id: '1' });
    expect(read('1')[0]).toBe(ExpiryStatus.Invalid);
    expect(read('2')).toEqual([ExpiryStatus.Valid, true]);
    await controller.expireAll(UserResource.get);
    expect(read('2')).toEqual([ExpiryStatus.Valid, false]);
    expect(controller.getResponse(UserResource.getList, getState()).expiresAt).toBeGreaterThan(
      Date.now(),
    );
    expect((await controller.fetchIfStale(UserResource.get, { id: '2' }))?.name).toBe(
      'Alan Turing',
    );
    expect(server.requests).toHaveLength(4);
    const testKey = (key: string) => key.startsWith(`GET ${server.url}`);
    await controller.invalidateAll({ testKey });
    expect(read('2')[0]).toBe(ExpiryStatus.Invalid);
    expect(controller.getResponse(UserResource.getList, getState()).expiryStatus).toBe(
      ExpiryStatus.Invalid,
    );
    await controller.resetEntireStore();
    expect(controller.getResponse(UserResource.getList, getState()).data).toBeUndefined();
  });
});

describe('Pagination (rest/guides/pagination.md)', () => {
  class User extends Entity {
    id = 0;
    name = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'User';
  }
  class Post extends Entity {
    id = 0;
    author = User.fromJS();
    title = '';
    body = '';
    pk() {
      return this.id?.toString();
    }
    static override key = 'Post';
    static override schema = { author: User };
  }

  it('"Expanding Lists": getPage with the cursor of an object answer appends without duplicates', async () => {
    const PostResource = createResource({
      urlPrefix: server.url,
      path: '/posts/:id',
      schema: Post,
      paginationField: 'cursor',
    }).extend('getList', {
      schema: { results: new schema.Collection([Post]), cursor: '' },
    });
    const { controller, getState } = createStore();
    const a = { id: 1, name: 'A' };
    server.respondNext({
      body: {
        results: [
          { id: 1, title: 'a', author: a },
          { id: 2, title: 'b', author: { id: 2, name: 'B' } },
        ],
        cursor: 'c2',
      },
    });
    await controller.fetch(PostResource.getList);
    const cursor = controller.getResponse(PostResource.getList, getState()).data?.cursor;
    server.respondNext({
      body: {
        results: [
          { id: 2, title: 'b', author: { id: 2, name: 'B' } },
          { id: 3, title: 'c', author: a },
        ],
        cursor: '',
      },
    });
    const page = await controller.fetch(PostResource.getList.getPage, { cursor: cursor as string });
    expect(page.results.map((post) => post.id)).toEqual([2, 3]);
    await stored();
    const list = controller.getResponse(PostResource.getList, getState()).data;
    expect(list.results?.map((post) => [post.id, post.title, post.author.name])).toEqual([
      [1, 'a', 'A'],
      [2, 'b', 'B'],
      [3, 'c', 'A'],
    ]);
    expect(list?.cursor).toBe('');
    expect(received(server)).toEqual(['GET /posts', 'GET /posts?cursor=c2']);
  });

  it('"Tokens in HTTP Headers": parseResponse of Base.getList wraps the list with its link', async () => {
    class Article extends Entity {
      id = 0;
      title = '';
      pk() {
        return `${this.id}`;
      }
    }
    const ArticleResource = createResource({
      urlPrefix: server.url,
      path: '/todos/:id',
      schema: Article,
    }).extend((Base) => ({
      getList: Base.getList.extend({
        schema: { results: [Article], link: '' },
        async parseResponse(response: Response) {
          const results = await Base.getList.parseResponse(response);
          if (response.headers?.has('link') || Array.isArray(results)) {
            return { link: response.headers.get('link'), results };
          }
          return results;
        },
      }),
    }));
    const { controller, getState } = createStore();
    const fetched = await controller.fetch(ArticleResource.getList);
    expect(fetched.results.map((article) => article.title)).toEqual([
      'write tests',
      'fix bugs',
      'ship',
    ]);
    const read = controller.getResponse(ArticleResource.getList, getState()).data;
    expect(read.results?.map((article) => article.constructor)).toEqual([
      Article,
      Article,
      Article,
    ]);
  });
});

describe('Optimistic updates (rest/guides/optimistic-updates.md)', () => {
  class CountEntity extends Entity {
    count = 0;
    updatedAt = 0;
    pk() {
      return 'SINGLETON';
    }
    static override shouldReorder(
      _existingMeta: unknown,
      _incomingMeta: unknown,
      existing: { updatedAt: number },
      incoming: { updatedAt: number },
    ) {
      return incoming.updatedAt < existing.updatedAt;
    }
  }

  function counter() {
    const getCount = new RestEndpoint({
      urlPrefix: server.url,
      path: '/api/count',
      schema: CountEntity,
      name: 'get',
    });
    const increment = new RestEndpoint({
      urlPrefix: server.url,
      path: '/api/count/increment',
      method: 'POST',
      body: undefined,
      name: 'increment',
      schema: CountEntity,
      getRequestInit() {
        // this is a substitute for super.getRequestInit()
        return RestEndpoint.prototype.getRequestInit.call(this, { updatedAt: 12345 });
      },
      getOptimisticResponse(snap) {
        const { data } = snap.getResponse(getCount) as { data?: CountEntity };
        if (!data) throw new AbortOptimistic();
        return { count: data.count + 1, updatedAt: snap.fetchedAt };
      },
    });
    return { getCount, increment };
  }

  it('the counter shows the increment until the server answers, then the answer', async () => {
    const { getCount, increment } = counter();
    const { controller, getState } = createStore();
    server.respondNext({ body: { count: 0, updatedAt: 1 } });
    await controller.fetch(getCount);
    server.setDelay(50);
    server.respondNext({ body: { count: 1, updatedAt: Date.now() } });
    const incremented = controller.fetch(increment);
    await server.waitForRequest(2);
    expect(controller.getResponse(getCount, getState()).data?.count).toBe(1);
    expect((await incremented).count).toBe(1);
    expect(controller.getResponse(getCount, getState()).data?.count).toBe(1);
    expect(jsonBody(lastRequest(server))).toEqual({ updatedAt: 12345 });
  });

  it('AbortOptimistic: with no count stored, nothing shows until the answer', async () => {
    const { getCount, increment } = counter();
    const { controller, getState } = createStore();
    server.setDelay(50);
    server.respondNext({ body: { count: 7 } });
    const incremented = controller.fetch(increment);
    await server.waitForRequest(1);
    expect(controller.getResponse(getCount, getState()).data).toBeUndefined();
    expect((await incremented).count).toBe(7);
  });

  it('optimistic: true — partialUpdate, push and delete show at once in the userId list', async () => {
    class Todo extends Entity {
      id = 0;
      userId = 0;
      title = '';
      completed = false;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Todo';
    }
    const TodoResource = createResource({
      urlPrefix: server.url,
      path: '/todos/:id',
      searchParams: {} as { userId?: string | number } | undefined,
      schema: Todo,
      optimistic: true,
    });
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { userId: 1 });
    server.setDelay(40);
    const read = () =>
      controller
        .getResponse(TodoResource.getList, { userId: 1 }, getState())
        .data?.map((todo) => [todo.title, todo.completed]);
    const pending = [
      controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }),
      controller.fetch(TodoResource.getList.push, { userId: 1, title: 'new' }),
    ];
    expect(read()).toEqual([
      ['write tests', true],
      ['fix bugs', true],
      ['new', false],
    ]);
    await Promise.all(pending);
    const deleted = controller.fetch(TodoResource.delete, { id: 2 });
    expect(read()).toEqual([
      ['write tests', true],
      ['new', false],
    ]);
    await deleted;
    expect(read()).toEqual([
      ['write tests', true],
      ['new', false],
    ]);
  });
});

describe('Network transform (rest/guides/network-transform.md)', () => {
  const camel = (key: string) =>
    key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
  const snake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  function deeplyApplyKeyTransform(obj: any, transform: (key: string) => string) {
    const ret: Record<string, any> = Array.isArray(obj) ? [] : {};
    Object.keys(obj).forEach((key) => {
      if (obj[key] != null && typeof obj[key] === 'object') {
        ret[transform(key)] = deeplyApplyKeyTransform(obj[key], transform);
      } else {
        ret[transform(key)] = obj[key];
      }
    });
    return ret;
  }
  class CamelEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
    override getRequestInit(body: any) {
      if (body) return super.getRequestInit(deeplyApplyKeyTransform(body, snake));
      return super.getRequestInit(body);
    }
    override process(value: any) {
      return deeplyApplyKeyTransform(value, camel);
    }
  }
  class Stream extends Entity {
    username = '';
    title = '';
    game = '';
    currentViewers = 0;
    live = false;
    pk() {
      return this.username;
    }
    static override key = 'Stream';
  }

  it('camelCase answers and snake_case bodies; process takes the username from the params', async () => {
    const getStream = new CamelEndpoint({
      urlPrefix: server.url,
      path: '/:username',
      schema: Stream,
    });
    const getNamedStream = new RestEndpoint({
      urlPrefix: server.url,
      path: '/:username',
      schema: Stream,
      process(value: Record<string, unknown>, { username }: { username: string }) {
        value.username = username;
        return value;
      },
    });
    const update = new CamelEndpoint({
      urlPrefix: server.url,
      path: '/:username',
      method: 'PUT',
      schema: Stream,
    });
    const { controller, getState } = createStore();
    server.respondNext({
      body: { title: 'When I’m Grandmaster', game: 'Starcraft II', live: true },
    });
    await controller.fetch(getNamedStream, { username: 'ntucker' });
    server.respondNext({ body: { username: 'x', current_viewers: 3 } });
    expect(await controller.fetch(getStream, { username: 'x' })).toEqual(
      Stream.fromJS({ username: 'x', currentViewers: 3 }),
    );
    server.respondNext({ body: { username: 'ntucker', current_viewers: 1337 } });
    await controller.fetch(update, { username: 'ntucker' }, { currentViewers: 1337 });
    await stored();
    expect(jsonBody(lastRequest(server))).toEqual({ current_viewers: 1337 });
    expect(
      controller.getResponse(getNamedStream, { username: 'ntucker' }, getState()).data,
    ).toEqual(
      Stream.fromJS({
        username: 'ntucker',
        title: 'When I’m Grandmaster',
        game: 'Starcraft II',
        live: true,
        currentViewers: 1337,
      }),
    );
  });
});

describe('what data-client refuses, refused alike', () => {
  it('a getPage of an endpoint whose schema holds no Collection', () => {
    class Todo extends Entity {
      id = 0;
      pk() {
        return this.id;
      }
    }
    const getTodos = new RestEndpoint({
      urlPrefix: server.url,
      path: '/todos',
      schema: Todo,
      paginationField: 'page',
    });
    expect(() => getTodos.getPage).toThrow(/schema holds no schema.Collection/);
  });
});
