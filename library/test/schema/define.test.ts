import {
  createReducer,
  Controller as DataClientController,
  type State as DataClientState,
  initialState as dataClientInitialState,
} from '@data-client/core';
import { Endpoint as DataClientEndpoint, schema as dc } from '@data-client/endpoint';
import { describe, expect, it } from 'vitest';
import { createStore, RestEndpoint, type Schema, schema } from '../../src/index.js';
import { endpoint, plain } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';

/**
 * `define()` of schema.Object, Array, Values, Union and All, as data-client 0.9 has it: schemas
 * that refer to each other, or whose members are known later. Each reading is compared with what
 * @data-client/endpoint 0.9.9 (with @data-client/core 0.9.7) reads for the same schema, calls and
 * responses.
 */

const server = serverPerTest();

/** Field classes both libraries' `schema.Entity(Base, options)` make entities of. */
class PostFields {
  id = '';
  type = 'post';
  title = '';
}
class LinkFields {
  id = '';
  type = 'link';
  url = '';
}
class TagFields {
  id = '';
  label = '';
}
class UserFields {
  id = '';
  name = '';
}

const Post = schema.Entity(PostFields, { key: 'Post' });
const Link = schema.Entity(LinkFields, { key: 'Link' });
const Tag = schema.Entity(TagFields, { key: 'Tag' });
const User = schema.Entity(UserFields, { key: 'User' });
const DcPost = dc.Entity(PostFields, { key: 'Post' });
const DcLink = dc.Entity(LinkFields, { key: 'Link' });
const DcTag = dc.Entity(TagFields, { key: 'Tag' });
const DcUser = dc.Entity(UserFields, { key: 'User' });

/** data-client's types read the members of a polymorphic schema from its first definition. */
type PostOrLink = { post: typeof DcPost; link: typeof DcLink };

/** A data-client store: its Controller and reducer, as its CacheProvider wires them. */
function dataClientStore() {
  let state: DataClientState<unknown> = dataClientInitialState;
  const controller: DataClientController = new DataClientController({
    dispatch: async (action) => {
      state = reducer(state, action);
    },
    getState: () => state,
  });
  const reducer = createReducer(controller);
  return { controller, getState: () => state };
}

/** A data-client endpoint that never fetches (responses are set with setResponse). */
function dataClientEndpoint<S extends object>(name: string, endpointSchema: S) {
  return new DataClientEndpoint(async (..._args: any[]): Promise<unknown> => undefined, {
    name,
    schema: endpointSchema,
    key: (...args: unknown[]) => `${name} ${JSON.stringify(args)}`,
  });
}

/** A reading as data (entities as their fields), to compare one library's with the other's. */
const asData = (reading: unknown): unknown => JSON.parse(JSON.stringify(reading));

describe('schema.Object define', () => {
  interface UserData {
    name: string;
    posts: { title: string; tags: { id: string; label: string }[]; author: UserData }[];
  }
  /** A user whose post's author is a user with a post of its own: the schemas' cycle, twice. */
  const response: UserData = {
    name: 'Ann',
    posts: [
      {
        title: 'a',
        tags: [{ id: 't1', label: 'outer' }],
        author: {
          name: 'Bob',
          posts: [
            { title: 'b', tags: [{ id: 't2', label: 'inner' }], author: { name: 'Cy', posts: [] } },
          ],
        },
      },
    ],
  };

  it('a circular pair: a response from the test server is stored and read through both', async () => {
    const user = new schema.Object({});
    const userPost = new schema.Object({ tags: [Tag], author: user });
    user.define({ posts: new schema.Array(userPost) });
    const echo = new RestEndpoint({
      urlPrefix: server.url,
      path: '/echo',
      method: 'POST',
      schema: user,
    });
    const { controller, getState } = createStore();
    const read = (await controller.fetch(echo, response)) as UserData;

    // The tag nested a cycle deep is normalized into its table too, and read back as a Tag.
    expect(plain(getState().entities).Tag).toEqual({
      t1: { id: 't1', label: 'outer' },
      t2: { id: 't2', label: 'inner' },
    });
    expect(read.posts[0]?.author.posts[0]?.tags[0]).toBeInstanceOf(Tag);

    const dcUser = new dc.Object({});
    // Tags first: data-client's getResponse looks through the schema for an entity, member by
    // member, and would follow the cycle forever from `author`.
    const dcPost = new dc.Object({ tags: [DcTag], author: dcUser });
    dcUser.define({ posts: new dc.Array(dcPost) });
    const dataClient = dataClientStore();
    const dcEcho = dataClientEndpoint('echo', dcUser);
    dataClient.controller.setResponse(dcEcho, response);
    const dcRead = dataClient.controller.getResponse(dcEcho, dataClient.getState()).data;
    expect(asData(read)).toEqual(asData(dcRead));
    expect(asData(read)).toEqual(response);
  });

  it('merges new members into the definition, replacing those it names', () => {
    const members = new schema.Object({ post: Post, total: 0 });
    members.define({ link: Link });
    members.define({ post: Tag });
    const dcMembers = new dc.Object({ post: DcPost, total: 0 });
    dcMembers.define({ link: DcLink });
    dcMembers.define({ post: DcTag });
    expect(members.schema).toEqual({ post: Tag, total: 0, link: Link });
    expect(Object.keys(members.schema)).toEqual(Object.keys(dcMembers.schema));
  });

  it('members added after a response was stored: later reads see them, memoized or not', () => {
    const summary = new schema.Object({});
    const { controller, getState } = createStore();
    const getSummary = endpoint('summary', summary);
    const stored = { owner: '7', editor: { id: '8', name: 'Eve' }, count: 3 };
    controller.setResponse(getSummary, stored);
    controller.setResponse(endpoint('user', User), { id: '7', name: 'Ann' });
    const before = controller.getResponse(getSummary, getState()).data;
    expect(before).toEqual(stored);

    summary.define({ owner: User, editor: User });
    const after = controller.getResponse(getSummary, getState()).data as Record<string, unknown>;
    // The owner is the stored user; the editor, stored as it came, reads as a user too.
    expect(after.owner).toBeInstanceOf(User);
    expect(after.editor).toBeInstanceOf(User);

    const dcSummary = new dc.Object({});
    const dataClient = dataClientStore();
    const dcGetSummary = dataClientEndpoint('summary', dcSummary);
    dataClient.controller.setResponse(dcGetSummary, stored);
    dataClient.controller.setResponse(dataClientEndpoint('user', DcUser), {
      id: '7',
      name: 'Ann',
    });
    dataClient.controller.getResponse(dcGetSummary, dataClient.getState());
    dcSummary.define({ owner: DcUser, editor: DcUser });
    const dcAfter = dataClient.controller.getResponse(dcGetSummary, dataClient.getState()).data;
    expect(asData(after)).toEqual(asData(dcAfter));
    expect(asData(after)).toEqual({
      owner: { id: '7', name: 'Ann' },
      editor: { id: '8', name: 'Eve' },
      count: 3,
    });
  });

  it("an entity read before its field's schema was defined is built again after it", () => {
    const profile = new schema.Object({});
    class Author extends schema.Entity(UserFields, { key: 'Author' }) {
      profile: { site?: unknown } = {};
      static override schema = { profile };
    }
    const { controller, getState } = createStore();
    const getAuthor = endpoint('author', Author);
    controller.setResponse(getAuthor, { id: '1', name: 'Ann', profile: { site: 'l1' } });
    controller.setResponse(endpoint('link', Link), { id: 'l1', url: 'https://a.example' });
    const before = controller.getResponse(getAuthor, getState()).data;
    expect(before?.profile).toEqual({ site: 'l1' });

    profile.define({ site: Link });
    // The author's row is unchanged, but the instance built from it before the define is stale.
    const after = controller.getResponse(getAuthor, getState()).data;
    expect(after).not.toBe(before);
    expect(after?.profile.site).toBeInstanceOf(Link);
  });
});

describe('polymorphic schemas defined after construction', () => {
  const post = { id: '1', type: 'post', title: 'p' };
  const link = { id: '2', type: 'link', url: 'https://a.example' };

  /** Stores `response` with `mine` and with `theirs`, and returns both readings. */
  function readBoth(mine: Schema, theirs: object, response: unknown) {
    const { controller, getState } = createStore();
    const read = endpoint('read', mine);
    controller.setResponse(read, response);
    const dataClient = dataClientStore();
    const dcRead = dataClientEndpoint('read', theirs);
    dataClient.controller.setResponse(dcRead, response);
    return {
      reading: controller.getResponse(read, getState()).data,
      dataClientReading: dataClient.controller.getResponse(dcRead, dataClient.getState()).data,
      entities: plain(getState().entities),
    };
  }

  it('schema.Array: defined members, told apart by the attribute given to the constructor', () => {
    const feed = new schema.Array({}, 'type');
    feed.define({ post: Post, link: Link });
    const dcFeed = new dc.Array({} as PostOrLink, 'type');
    dcFeed.define({ post: DcPost, link: DcLink });
    const { reading, dataClientReading, entities } = readBoth(feed, dcFeed, [post, link]);
    expect(entities).toMatchObject({ Post: { '1': post }, Link: { '2': link } });
    const [first, second] = reading as unknown[];
    expect(first).toBeInstanceOf(Post);
    expect(second).toBeInstanceOf(Link);
    expect(asData(reading)).toEqual(asData(dataClientReading));
  });

  it('schema.Array of one schema defined with a schema.Union: a list of its members', () => {
    const feed = new schema.Array(Post);
    feed.define(new schema.Union({ post: Post, link: Link }, 'type'));
    const dcFeed = new dc.Array(DcPost);
    dcFeed.define(new dc.Union({ post: DcPost, link: DcLink }, 'type'));
    const { reading, dataClientReading } = readBoth(feed, dcFeed, [link, post]);
    expect((reading as unknown[])[0]).toBeInstanceOf(Link);
    expect(asData(reading)).toEqual(asData(dataClientReading));
  });

  it('schema.Values: defined members, told apart by an attribute function', () => {
    const byName = new schema.Values({}, (input) => input.type as string);
    byName.define({ post: Post, link: Link });
    const dcByName = new dc.Values(
      {} as PostOrLink,
      (input: { type: keyof PostOrLink }) => input.type,
    );
    dcByName.define({ post: DcPost, link: DcLink });
    const { reading, dataClientReading } = readBoth(byName, dcByName, { a: post, b: link });
    expect((reading as Record<string, unknown>).b).toBeInstanceOf(Link);
    expect(asData(reading)).toEqual(asData(dataClientReading));
  });

  it('schema.Union: define replaces the members, keeping the schema attribute', () => {
    const item = new schema.Union({ post: Post }, 'type');
    item.define({ post: Post, link: Link });
    const dcItem = new dc.Union({ post: DcPost }, 'type');
    dcItem.define({ post: DcPost, link: DcLink });
    const { reading, dataClientReading } = readBoth(item, dcItem, link);
    expect(reading).toBeInstanceOf(Link);
    expect(item.key).toBe('Post;Link');
    expect(asData(reading)).toEqual(asData(dataClientReading));
  });

  it('schema.All: reads the tables of the defined members', () => {
    const everything = new schema.All({}, 'type');
    everything.define({ post: Post, link: Link });
    const dcEverything = new dc.All({} as PostOrLink, 'type');
    dcEverything.define({ post: DcPost, link: DcLink });
    const { reading, dataClientReading } = readBoth(everything, dcEverything, [post, link]);
    expect((reading as unknown[]).map((entity) => entity?.constructor)).toEqual([Post, Link]);
    expect(asData(reading)).toEqual(asData(dataClientReading));
  });

  it('schema.All refuses a definition of anything but entities', () => {
    const everything = new schema.All(Post);
    expect(() => everything.define({ post: Post })).toThrow(
      'schema.All reads entity tables: its definition must be entities',
    );
  });
});

describe('a schema.Collection of a list defined after the collection', () => {
  const items = new schema.Array({} as { post: typeof Post; link: typeof Link }, 'type');
  const feed = new schema.Collection(items);
  items.define({ post: Post, link: Link });
  const post = { id: '1', type: 'post', title: 'p' };
  const link = { id: '2', type: 'link', url: 'https://a.example' };

  it('is stored under the defined members’ table, read as data-client reads it', () => {
    const { controller, getState } = createStore();
    const getFeed = endpoint('feed', feed);
    controller.setResponse(getFeed, { page: 1 }, [post, link]);
    const reading = controller.getResponse(getFeed, { page: 1 }, getState()).data;
    expect(feed.key).toBe('[Post;Link]');
    expect(plain(getState().entities)['[Post;Link]']).toEqual({
      '{"page":"1"}': ['["Post","1"]', '["Link","2"]'],
    });

    const dcItems = new dc.Array({} as PostOrLink, 'type');
    const dcFeed = new dc.Collection(dcItems);
    dcItems.define({ post: DcPost, link: DcLink });
    const dataClient = dataClientStore();
    const dcGetFeed = dataClientEndpoint('feed', dcFeed);
    dataClient.controller.setResponse(dcGetFeed, { page: 1 }, [post, link]);
    const dcReading = dataClient.controller.getResponse(
      dcGetFeed,
      { page: 1 },
      dataClient.getState(),
    );
    expect(asData(reading)).toEqual(asData(dcReading.data));
  });

  it('adds a defined member with push, and loses a deleted one', () => {
    const { controller, getState } = createStore();
    const getFeed = endpoint('feed', feed);
    controller.setResponse(getFeed, {}, [post]);
    controller.setResponse(endpoint('add', feed.push, { sideEffect: true }), {}, link);
    const ids = () => controller.getResponse(getFeed, {}, getState()).data?.map((item) => item.id);
    expect(ids()).toEqual(['1', '2']);
    const remove = endpoint('remove', new schema.Invalidate(Link), { sideEffect: true });
    controller.setResponse(remove, { id: '2' }, { id: '2' });
    expect(ids()).toEqual(['1']);
    // Taken out of the row itself: the collection is known to hold links.
    expect(plain(getState().entities)['[Post;Link]']).toEqual({ '{}': ['["Post","1"]'] });
  });
});
