import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChangeSet,
  Collection,
  type CollectionBase,
  type CollectionFilter,
  type Controller,
  createResource,
  createStore,
  type EndpointInterface,
  Entity,
  isInvalid,
  RestEndpoint,
  type State,
  type Store,
  schema,
} from '../../src/index.js';
import { MemberList } from '../../src/normalize/memberList.js';

/**
 * The store's tables keep two indexes so that a write costs what it changes, whatever the number
 * of lists: `rowsHolding` (entity → pk → the collection rows holding it: a delete removes the
 * entity from exactly those) and `rowsByFilter` (collection → its rows by their filtering
 * arguments: a push reaches the rows it matches by lookup, not by testing every row). An index
 * that drifts from the rows fails quietly — a delete leaves a member behind, a push misses a
 * list — so these properties run random sequences of writes through the public API and, after
 * every step, compare what the indexes did with a full scan of the rows and with a model of every
 * list kept here.
 */

// ---- Entities and endpoints -----------------------------------------------------------------

/** An id as a server sends it: `7` and `'7'` name one entity. */
type Id = number | string;
/** A list's arguments, or an add's URL parameters. */
type Args = Readonly<Record<string, Id>>;

class Todo extends Entity {
  id: Id = '';
  title = '';
  userId: Id | undefined = undefined;
  tag: string | undefined = undefined;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

/** A user whose todos come nested in it: its list is the row of its `userId` (nestKey). */
class Owner extends Entity {
  id: Id = '';
  name = '';
  todos: Todo[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Owner';
  static override schema = {
    todos: new schema.Collection([Todo], {
      nestKey: (parent: { id: Id }) => ({ userId: parent.id }),
    }),
  };
}

/** The union's members share pks: Post 7 and Link 7 are two entities. */
class Post extends Todo {
  type = 'post';
  static override key = 'Post';
}
class Link extends Todo {
  type = 'link';
  static override key = 'Link';
}
const feedItem = new schema.Union({ post: Post, link: Link }, 'type');

/** Entities of the lists with custom filters: one type each, so that their tables stay apart. */
class Chore extends Todo {
  static override key = 'Chore';
}
class Errand extends Todo {
  static override key = 'Errand';
}
class Task extends Todo {
  static override key = 'Task';
}
class Job extends Todo {
  static override key = 'Job';
}

/** The query parameters the lists and adds are called with. */
type Search = { userId?: Id; tag?: string; orderBy?: string; type?: string };

const Todos = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as Search,
  paginationField: 'cursor',
}).extend('deleteMany', {
  path: '/todos',
  method: 'DELETE',
  searchParams: {} as { ids: readonly Id[] },
  schema: [new schema.Invalidate(Todo)],
});
const Owners = createResource({ path: '/users/:id', schema: Owner });

const Feed = createResource({
  path: '/feed/:id',
  schema: feedItem,
  searchParams: {} as Search,
  paginationField: 'cursor',
}).extend('deleteMany', {
  path: '/feed',
  method: 'DELETE',
  searchParams: {} as { ids: readonly Id[] },
  schema: [new schema.Invalidate(feedItem)],
});
/** Posts alone, in lists of their own (`[Post]`): a post can be in both kinds of list at once. */
const Posts = createResource({
  path: '/posts/:id',
  schema: Post,
  searchParams: {} as Search,
  paginationField: 'cursor',
});

/** A text of a filter value, as the URL holds it. */
const asText = (value: unknown) => (value === undefined ? undefined : String(value));

/** Chores: `tag` labels a chore, it does not choose a list's members (nor does `orderBy`). */
const choreList = new schema.Collection([Chore], { nonFilterArgumentKeys: ['orderBy', 'tag'] });
/**
 * Errands: a user's list receives the errands the body assigns to that user (the URL names who
 * asked, not whose it is); lists of no user receive every errand.
 */
const errandList = new schema.Collection([Errand], {
  createCollectionFilter:
    (_params: Record<string, unknown> | undefined, body?: Record<string, unknown>) =>
    (row: Readonly<Record<string, string>>) =>
      row.userId === undefined || asText(body?.userId) === row.userId,
});
/**
 * Tasks: a subclass that replaces the filter. A tagged list receives the adds whose URL names its
 * tag, whoever's they are; an untagged list receives every add.
 */
class ByTagCollection extends Collection<any> {
  override createCollectionFilter(...args: readonly unknown[]): CollectionFilter {
    const params = args[0] as Record<string, unknown> | undefined;
    return (row) => row.tag === undefined || asText(params?.tag) === row.tag;
  }
}

/** Jobs: a subclass whose `userId` does not filter (a method override): every user's list. */
class EveryUserCollection extends Collection<any> {
  override nonFilterArgumentKeys(key: string): boolean {
    return key === 'userId' || key.startsWith('order');
  }
}
const jobList = new EveryUserCollection([Job]);

/** A list endpoint over `collection`, with its push, unshift and getPage. */
function listEndpoint(path: string, collection: CollectionBase, name: string) {
  return new RestEndpoint({ path, schema: collection, paginationField: 'cursor', name });
}
const Chores = {
  getList: listEndpoint('/chores', choreList, 'Chore.getList'),
  /** The same table (`[Chore]`) through a list with the default filter: one row per arguments. */
  getOpen: listEndpoint('/chores/open', new schema.Collection([Chore]), 'Chore.getOpen'),
  get: new RestEndpoint({ path: '/chores/:id', schema: Chore, name: 'Chore.get' }),
  delete: new RestEndpoint({
    path: '/chores/:id',
    method: 'DELETE',
    schema: new schema.Invalidate(Chore),
    name: 'Chore.delete',
  }),
  deleteMany: new RestEndpoint({
    path: '/chores',
    method: 'DELETE',
    schema: [new schema.Invalidate(Chore)],
    name: 'Chore.deleteMany',
  }),
};
const Errands = createResource({
  path: '/errands/:id',
  schema: Errand,
  searchParams: {} as Search,
}).extend('deleteMany', {
  path: '/errands',
  method: 'DELETE',
  schema: [new schema.Invalidate(Errand)],
});
const errandGetList = listEndpoint('/errands', errandList, 'Errand.getList');
const jobGetList = listEndpoint('/jobs', jobList, 'Job.getList');
const Jobs = {
  get: new RestEndpoint({ path: '/jobs/:id', schema: Job, name: 'Job.get' }),
  delete: new RestEndpoint({
    path: '/jobs/:id',
    method: 'DELETE',
    schema: new schema.Invalidate(Job),
    name: 'Job.delete',
  }),
  deleteMany: new RestEndpoint({
    path: '/jobs',
    method: 'DELETE',
    schema: [new schema.Invalidate(Job)],
    name: 'Job.deleteMany',
  }),
};
const Tasks = createResource({
  path: '/tasks/:id',
  schema: Task,
  searchParams: {} as Search,
  paginationField: 'cursor',
  Collection: ByTagCollection,
}).extend('deleteMany', {
  path: '/tasks',
  method: 'DELETE',
  schema: [new schema.Invalidate(Task)],
});

// ---- Worlds: what a sequence of operations runs against ---------------------------------------

/**
 * A custom merge (`addWith`): what comes in moves to the end, and the list keeps its newest four,
 * so that an add also makes members leave a row.
 */
function keepLatest(existing: readonly string[], incoming: readonly string[]): string[] {
  const fresh = [...new Set(incoming)];
  return [...existing.filter((member) => !fresh.includes(member)), ...fresh].slice(-4);
}

/** An endpoint that adds to `collection`'s lists with `keepLatest`. */
function latestEndpoint(collection: CollectionBase, name: string) {
  return new RestEndpoint({
    path: '/latest',
    method: 'POST',
    schema: collection.addWith(keepLatest),
    name,
  });
}

/** How an add merges: `push`, `unshift`, or `keepLatest`. */
type AddHow = 'push' | 'unshift' | 'latest';

/** A call as `controller.setResponse` takes it. */
interface Call {
  endpoint: EndpointInterface;
  args: readonly unknown[];
  response: unknown;
}

/** How a delete names the entity: the object, the pk as text, or as a number (when it is one). */
type DeleteForm = 'object' | 'text' | 'number';

/** An entity type lists hold. */
interface Kind {
  /** The entity key, e.g. `Todo`. */
  key: string;
  /** The `type` a union tells this member by; none outside a union. */
  type?: string;
  /** Reads one entity (its response updates the entity's fields). */
  get: EndpointInterface;
  delete(pk: Id, form: DeleteForm): Call;
}

/** A list endpoint and the lists read through it. */
interface Source {
  name: string;
  collection: CollectionBase;
  getList: EndpointInterface;
  getPage: EndpointInterface;
  /** Adds with `keepLatest` (the collection's `addWith`). */
  latest: EndpointInterface;
  /** The kinds (indexes into `World.kinds`) its lists hold: several for a union. */
  kinds: readonly number[];
  union: boolean;
  /** Whether the collection keeps the default filter (looked up in rowsByFilter, not scanned). */
  defaultFilter: boolean;
  lists: readonly Args[];
}

/** A batch delete (`[new schema.Invalidate(...)]`) of some kinds. */
interface Batch {
  kinds: readonly number[];
  call(items: readonly Ref[]): Call;
}

interface World {
  kinds: readonly Kind[];
  sources: readonly Source[];
  batches: readonly Batch[];
  /**
   * Entities with a list nested in a field (nestKey), one per user id: read one by one (`get`)
   * and in a list of their own (`getList`, whose `push` adds an owner with its nested list).
   */
  owners?: { get: EndpointInterface; getList: EndpointInterface; ids: readonly Id[]; kind: number };
}

/** One entity: its kind and pk. */
interface Ref {
  kind: number;
  pk: Id;
}

/** An entity as a response carries it. */
interface Item extends Ref {
  title: string;
  userId?: Id;
  tag?: string;
  /** A field named like a member of Object.prototype: data, in the body and in a filter. */
  odd?: readonly [name: OddName, value: string];
}

/** Names a plain object finds on its prototype; as arguments or fields they are data. */
type OddName = 'constructor' | '__proto__';

/** The user ids lists are filtered by (and owners are): texts a URL escapes, a prototype key. */
const USERS: readonly Id[] = [1, 2, '__proto__', 'x"y'];
const TAGS = ['red', "it's"] as const;

/** Arguments from pairs: `Object.fromEntries` makes a pair named `__proto__` an own member. */
const argsOf = (...pairs: (readonly [string, Id])[]): Args => Object.fromEntries(pairs);

/**
 * Lists of every shape a collection meets: unfiltered, ordered only (`orderBy` does not filter
 * by default), by one argument, by one with an order, by two. Several lists hold one entity.
 */
const LISTS: readonly Args[] = [
  {},
  { orderBy: 'title' },
  ...USERS.map((userId) => ({ userId })),
  { userId: 1, orderBy: 'title' },
  { userId: '__proto__', orderBy: 'id' },
  { userId: 1, tag: 'red' },
  { userId: 2, tag: "it's" },
  { userId: 'x"y', tag: 'red' },
  { tag: 'red' },
  { tag: "it's" },
  { userId: '' },
  argsOf(['constructor', 'x']),
  argsOf(['__proto__', 'x'], ['userId', 1]),
];

const entityDelete =
  (endpoint: EndpointInterface, type?: string) =>
  (pk: Id, form: DeleteForm): Call => ({
    endpoint,
    args: [{ id: pk }],
    response:
      form === 'object' || type !== undefined
        ? { id: pk, ...(type === undefined ? {} : { type }) }
        : form === 'number'
          ? pk
          : String(pk),
  });

const defaultWorld: World = {
  kinds: [{ key: 'Todo', get: Todos.get, delete: entityDelete(Todos.delete) }],
  sources: [
    {
      name: 'Todos',
      collection: Todos.getList.schema,
      getList: Todos.getList,
      getPage: Todos.getList.getPage,
      latest: latestEndpoint(Todos.getList.schema, 'Todo.latest'),
      kinds: [0],
      union: false,
      defaultFilter: true,
      lists: LISTS,
    },
  ],
  batches: [
    {
      kinds: [0],
      call: (items) => ({
        endpoint: Todos.deleteMany,
        args: [{ ids: items.map((item) => item.pk) }],
        response: items.map((item) => ({ id: item.pk })),
      }),
    },
  ],
  owners: { get: Owners.get, getList: Owners.getList, ids: USERS, kind: 0 },
};

const unionWorld: World = {
  kinds: [
    // Posts are deleted by pk (Invalidate(Post)); links through the union, which needs the type.
    { key: 'Post', type: 'post', get: Posts.get, delete: entityDelete(Posts.delete) },
    { key: 'Link', type: 'link', get: Feed.get, delete: entityDelete(Feed.delete, 'link') },
  ],
  sources: [
    {
      name: 'Feed',
      collection: Feed.getList.schema,
      getList: Feed.getList,
      getPage: Feed.getList.getPage,
      latest: latestEndpoint(Feed.getList.schema, 'Feed.latest'),
      kinds: [0, 1],
      union: true,
      defaultFilter: true,
      lists: [...LISTS, { type: 'post' }, { type: 'link', userId: 1 }],
    },
    {
      name: 'Posts',
      collection: Posts.getList.schema,
      getList: Posts.getList,
      getPage: Posts.getList.getPage,
      latest: latestEndpoint(Posts.getList.schema, 'Post.latest'),
      kinds: [0],
      union: false,
      defaultFilter: true,
      lists: LISTS,
    },
  ],
  batches: [
    {
      kinds: [0, 1],
      call: (items) => ({
        endpoint: Feed.deleteMany,
        args: [{ ids: items.map((item) => item.pk) }],
        response: items.map((item) => ({ id: item.pk, type: item.kind === 0 ? 'post' : 'link' })),
      }),
    },
  ],
};

const customWorld: World = {
  kinds: [
    { key: 'Chore', get: Chores.get, delete: entityDelete(Chores.delete) },
    { key: 'Errand', get: Errands.get, delete: entityDelete(Errands.delete) },
    { key: 'Task', get: Tasks.get, delete: entityDelete(Tasks.delete) },
    { key: 'Job', get: Jobs.get, delete: entityDelete(Jobs.delete) },
  ],
  sources: [
    {
      name: 'Chores (nonFilterArgumentKeys)',
      collection: choreList,
      getList: Chores.getList,
      getPage: Chores.getList.getPage,
      latest: latestEndpoint(choreList, 'Chore.latest'),
      kinds: [0],
      union: false,
      defaultFilter: false,
      lists: LISTS,
    },
    {
      name: 'Chores (default filter, same table)',
      collection: Chores.getOpen.schema,
      getList: Chores.getOpen,
      getPage: Chores.getOpen.getPage,
      latest: latestEndpoint(Chores.getOpen.schema, 'Chore.latestOpen'),
      kinds: [0],
      union: false,
      defaultFilter: true,
      lists: [{ userId: 1 }, { userId: 2, tag: 'red' }, { tag: "it's" }, {}],
    },
    {
      name: 'Errands (createCollectionFilter option)',
      collection: errandList,
      getList: errandGetList,
      getPage: errandGetList.getPage,
      latest: latestEndpoint(errandList, 'Errand.latest'),
      kinds: [1],
      union: false,
      defaultFilter: false,
      lists: LISTS,
    },
    {
      name: 'Tasks (subclass overriding createCollectionFilter)',
      collection: Tasks.getList.schema,
      getList: Tasks.getList,
      getPage: Tasks.getList.getPage,
      latest: latestEndpoint(Tasks.getList.schema, 'Task.latest'),
      kinds: [2],
      union: false,
      defaultFilter: false,
      lists: LISTS,
    },
    {
      name: 'Jobs (subclass overriding nonFilterArgumentKeys)',
      collection: jobList,
      getList: jobGetList,
      getPage: jobGetList.getPage,
      latest: latestEndpoint(jobList, 'Job.latest'),
      kinds: [3],
      union: false,
      defaultFilter: false,
      lists: LISTS,
    },
  ],
  batches: [Chores.deleteMany, Errands.deleteMany, Tasks.deleteMany, Jobs.deleteMany].map(
    (endpoint, kind) => ({
      kinds: [kind],
      call: (items: readonly Ref[]) => ({
        endpoint,
        args: [{ ids: items.map((item) => item.pk) }],
        response: items.map((item) => ({ id: item.pk })),
      }),
    }),
  ),
};

/** The collection of owners (Owners.getList), and the one their nested lists are rows of. */
const OWNER_TABLE = Owners.getList.schema.key;
const NESTED_TABLE = Owner.schema.todos.key;

/** The collection tables of a world, by key: how their members name entities. */
function tablesOf(world: World): Map<string, { union: boolean; entity: string | undefined }> {
  const tables = new Map<string, { union: boolean; entity: string | undefined }>();
  for (const source of world.sources) {
    const entity = source.union ? undefined : world.kinds[source.kinds[0]!]!.key;
    tables.set(source.collection.key, { union: source.union, entity });
  }
  if (world.owners) tables.set(OWNER_TABLE, { union: false, entity: Owner.key });
  return tables;
}

// ---- Operations -----------------------------------------------------------------------------

type Op =
  /** A list fetched: its row replaced (members enter and leave). */
  | { op: 'load'; source: number; list: number; items: Item[] }
  /** A page merged into its list (`getPage`), the row made when missing. */
  | { op: 'page'; source: number; list: number; cursor: number; items: Item[] }
  /** An add, its filter values in the URL parameters and/or the body. */
  | { op: AddHow; source: number; params: Args; items: Item[]; single: boolean }
  /** An owner fetched with its nested list (`nestKey`). */
  | { op: 'owner'; owner: number; items: Item[] }
  /** Owners fetched in a list, each with its nested list: several rows written in one response. */
  | { op: 'owners'; owners: { owner: number; items: Item[] }[] }
  /** An owner created (pushed to the lists of owners) with its nested list. */
  | { op: 'ownerPush'; owner: number; items: Item[] }
  | { op: 'delete'; ref: Ref; form: DeleteForm }
  | { op: 'deleteMany'; batch: number; refs: Ref[] }
  /** One entity fetched again: its fields change, no list does. */
  | { op: 'update'; item: Item }
  | { op: 'reset' };

/** What the operations are made of. */
interface Domain {
  pks: fc.Arbitrary<Id>;
  /** The most members a list or page response holds. */
  maxItems: number;
  /** The most entities a batch delete names. */
  maxBatch: number;
  /**
   * How long lists and batches tend to be, up to those maximums: fast-check's default keeps
   * arrays short whatever their maximum.
   */
  size?: fc.SizeForArbitrary;
  /** How often batch deletes come, beside the other operations (1 by default: rarely). */
  batchWeight?: number;
}

/**
 * Sequences of operations: a few lists loaded first (so that adds and deletes meet lists more
 * often than not), then any operations.
 */
function sequences(world: World, domain: Domain, maxSteps: number): fc.Arbitrary<Op[]> {
  const { load, any } = operations(world, domain);
  return fc
    .tuple(
      fc.array(load, { minLength: 1, maxLength: 6 }),
      fc.array(any, { maxLength: maxSteps, size: 'max' }),
    )
    .map(([loads, rest]) => [...loads, ...rest]);
}

function operations(
  world: World,
  { pks, maxItems, maxBatch, size, batchWeight = 1 }: Domain,
): { load: fc.Arbitrary<Op>; any: fc.Arbitrary<Op> } {
  const index = (length: number) => fc.integer({ min: 0, max: length - 1 });
  // Values of lists, values equal to them as text ('1'), and values of no list (3, 'blue').
  const userId = fc.constantFrom<Id>(...USERS, '1', 3, '');
  const tag = fc.constantFrom<string>(...TAGS, 'blue');
  const oddName = fc.constantFrom<OddName>('constructor', '__proto__');
  const odd = fc.tuple(oddName, fc.constantFrom('x', 'y'));
  const item = (kinds: readonly number[]): fc.Arbitrary<Item> =>
    fc.record(
      {
        kind: fc.constantFrom(...kinds),
        pk: pks,
        title: fc.constantFrom('a', 'b'),
        userId,
        tag,
        odd,
      },
      { requiredKeys: ['kind', 'pk', 'title'] },
    );
  const items = (kinds: readonly number[]) =>
    fc.array(item(kinds), { maxLength: maxItems, ...(size && { size }) });
  const allKinds = world.kinds.map((_, kind) => kind);
  const ref = (kinds: readonly number[]): fc.Arbitrary<Ref> =>
    fc.record({ kind: fc.constantFrom(...kinds), pk: pks });
  // Parameters may carry a filter value the body does not, the other way around, or both.
  const param = fc.oneof(
    fc.tuple(fc.constant('userId'), userId),
    fc.tuple(fc.constant('tag'), tag),
    fc.tuple(fc.constant('orderBy'), fc.constantFrom('title', 'id')),
    odd,
  );
  const params: fc.Arbitrary<Args> = fc
    .uniqueArray(param, { selector: ([name]) => name, maxLength: 4 })
    .map((pairs) => argsOf(...pairs));
  const ofSource = (build: (source: number, kinds: readonly number[]) => fc.Arbitrary<Op>) =>
    index(world.sources.length).chain((source) => build(source, world.sources[source]!.kinds));
  const listOf = (source: number) => index(world.sources[source]!.lists.length);
  // One object (`push(params, body)`), or a list of them (its body the list).
  const adds = (op: AddHow) =>
    ofSource((source, kinds) => {
      const add = (added: fc.Arbitrary<Item[]>, single: boolean) =>
        fc.record({
          op: fc.constant(op),
          source: fc.constant(source),
          params,
          items: added,
          single: fc.constant(single),
        });
      return fc.oneof(
        {
          weight: 3,
          arbitrary: add(
            item(kinds).map((one) => [one]),
            true,
          ),
        },
        { weight: 1, arbitrary: add(fc.array(item(kinds), { maxLength: 3 }), false) },
      );
    });
  const load: fc.Arbitrary<Op> = ofSource((source, kinds) =>
    fc.record({
      op: fc.constant('load' as const),
      source: fc.constant(source),
      list: listOf(source),
      items: items(kinds),
    }),
  );
  const choices: fc.WeightedArbitrary<Op>[] = [
    { weight: 5, arbitrary: load },
    { weight: 5, arbitrary: adds('push') },
    { weight: 3, arbitrary: adds('unshift') },
    { weight: 2, arbitrary: adds('latest') },
    {
      weight: 2,
      arbitrary: ofSource((source, kinds) =>
        fc.record({
          op: fc.constant('page' as const),
          source: fc.constant(source),
          list: listOf(source),
          cursor: fc.integer({ min: 2, max: 4 }),
          items: items(kinds),
        }),
      ),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant('delete' as const),
        ref: ref(allKinds),
        form: fc.constantFrom<DeleteForm>('object', 'text', 'number'),
      }),
    },
    {
      weight: batchWeight,
      arbitrary: index(world.batches.length).chain((batch) =>
        fc.record({
          op: fc.constant('deleteMany' as const),
          batch: fc.constant(batch),
          refs: fc.array(ref(world.batches[batch]!.kinds), {
            maxLength: maxBatch,
            ...(size && { size }),
          }),
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('update' as const), item: item(allKinds) }),
    },
    // Rare: a reset empties everything, and what comes after it starts over.
    { weight: 1, arbitrary: fc.constant({ op: 'reset' as const }) },
  ];
  const { owners } = world;
  if (owners) {
    const owner = index(owners.ids.length);
    const nested = items([owners.kind]);
    choices.push(
      {
        weight: 2,
        arbitrary: fc.record({ op: fc.constant('owner' as const), owner, items: nested }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          op: fc.constant('owners' as const),
          owners: fc.array(fc.record({ owner, items: nested }), { maxLength: 3 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ op: fc.constant('ownerPush' as const), owner, items: nested }),
      },
    );
  }
  return { load, any: fc.oneof(...choices) };
}

/** The body of an add: what the server echoes, and where the add's filter values may be. */
function bodyOf(world: World, { kind, title, userId, tag, odd }: Item): Args {
  const { type } = world.kinds[kind]!;
  const pairs: (readonly [string, Id])[] = [['title', title]];
  if (userId !== undefined) pairs.push(['userId', userId]);
  if (tag !== undefined) pairs.push(['tag', tag]);
  if (type !== undefined) pairs.push(['type', type]);
  if (odd !== undefined) pairs.push(odd);
  return argsOf(...pairs);
}

/** The body of an add: one object's, or the list of them. */
function addBody(world: World, op: Extract<Op, { op: AddHow }>): Args | Args[] {
  const bodies = op.items.map((item) => bodyOf(world, item));
  return op.single ? bodies[0]! : bodies;
}

const responseOf = (world: World, item: Item) => ({ id: item.pk, ...bodyOf(world, item) });

/** An owner as a response carries it: with its nested list. */
function ownerResponse(world: World, owner: number, items: readonly Item[]) {
  const id = world.owners!.ids[owner]!;
  return { id, name: 'n', todos: items.map((item) => responseOf(world, item)) };
}

/** The calls an operation makes (a reset is none: it is not a response). */
function callOf(world: World, op: Exclude<Op, { op: 'reset' }>): Call {
  switch (op.op) {
    case 'load': {
      const source = world.sources[op.source]!;
      const list = source.lists[op.list]!;
      return {
        endpoint: source.getList,
        args: [list],
        response: op.items.map((item) => responseOf(world, item)),
      };
    }
    case 'page': {
      const source = world.sources[op.source]!;
      const list = source.lists[op.list]!;
      return {
        endpoint: source.getPage,
        args: [{ ...list, cursor: op.cursor }],
        response: op.items.map((item) => responseOf(world, item)),
      };
    }
    case 'push':
    case 'unshift':
    case 'latest': {
      const source = world.sources[op.source]!;
      const getList = source.getList as unknown as Record<'push' | 'unshift', EndpointInterface>;
      const added = op.items.map((item) => responseOf(world, item));
      return {
        endpoint: op.op === 'latest' ? source.latest : getList[op.op],
        args: [op.params, addBody(world, op)],
        response: op.single ? added[0] : added,
      };
    }
    case 'owner':
      return {
        endpoint: world.owners!.get,
        args: [{ id: world.owners!.ids[op.owner]! }],
        response: ownerResponse(world, op.owner, op.items),
      };
    case 'owners':
      return {
        endpoint: world.owners!.getList,
        args: [{}],
        response: op.owners.map(({ owner, items }) => ownerResponse(world, owner, items)),
      };
    case 'ownerPush': {
      const getList = world.owners!.getList as unknown as { push: EndpointInterface };
      return {
        endpoint: getList.push,
        args: [{}, { name: 'n' }],
        response: ownerResponse(world, op.owner, op.items),
      };
    }
    case 'delete':
      return world.kinds[op.ref.kind]!.delete(op.ref.pk, op.form);
    case 'deleteMany':
      return world.batches[op.batch]!.call(op.refs);
    case 'update':
      return {
        endpoint: world.kinds[op.item.kind]!.get,
        args: [{ id: op.item.pk }],
        response: responseOf(world, op.item),
      };
  }
}

function perform(controller: Controller, world: World, op: Op): void {
  if (op.op === 'reset') {
    // The store is empty once the call returns; its promise only settles the reads it abandons.
    void controller.resetEntireStore();
    return;
  }
  const { endpoint, args, response } = callOf(world, op);
  // Endpoints of several shapes go through one call: the typed signature is per endpoint.
  const setResponse = controller.setResponse as unknown as (
    endpoint: EndpointInterface,
    ...argsAndResponse: unknown[]
  ) => Promise<void>;
  void setResponse(endpoint, ...args, response);
}

// ---- The model ------------------------------------------------------------------------------

/** A row's key as the store makes it: arguments sorted, values as text. */
function rowKeyOf(args: Args): string {
  const entries = Object.keys(args)
    .sort()
    .map((name) => [name, String(args[name])]);
  // fromEntries, not assignment: an argument named `__proto__` is data.
  return JSON.stringify(Object.fromEntries(entries));
}

/** A row's filtering arguments, as a filter receives them. */
const rowArgsOf = (rowKey: string) => JSON.parse(rowKey) as Record<string, string>;

/** Identifies one entity across the tables. */
const entityId = (entity: string, pk: string) => JSON.stringify([entity, pk]);

/**
 * The default filter, written here from its definition rather than taken from the library: a row
 * receives an add when each of its arguments, other than those named `order…`, equals the add's
 * URL parameter or body field of that name (as text).
 */
function defaultFilterReceives(
  row: Readonly<Record<string, string>>,
  params: object,
  body: object,
): boolean {
  return Object.entries(row).every(
    ([name, value]) =>
      name.startsWith('order') ||
      [params, body].some(
        (source) =>
          Object.hasOwn(source, name) &&
          asText((source as Record<string, unknown>)[name]) === value,
      ),
  );
}

/** A collection row, as change-sets and the comparisons below name it. */
const rowName = (collection: string, row: string) => `${collection} ${row}`;

/** Rows a step should touch, as `rowName`s (a row once per time it is touched). */
interface Expected {
  /** The rows an add or page reaches (including those where it only met a duplicate). */
  added?: string[];
  /** The rows a delete removes a member from. */
  invalidated?: string[];
}

/** Every list as it should be, kept apart from the store. */
class Model {
  /** Members in order, by collection key then row key. */
  readonly rows = new Map<string, Map<string, string[]>>();
  /** Entities deleted and not stored again since (`entityId`). */
  readonly deleted = new Set<string>();
  /** The owners stored (by id as text). */
  readonly owners = new Set<string>();
  private readonly tables: ReturnType<typeof tablesOf>;

  constructor(private readonly world: World) {
    this.tables = tablesOf(world);
  }

  /** A model that goes on apart from this one (for a store started from another's state). */
  clone(): Model {
    const copy = new Model(this.world);
    for (const [key, table] of this.rows) copy.rows.set(key, new Map(table));
    for (const id of this.deleted) copy.deleted.add(id);
    for (const id of this.owners) copy.owners.add(id);
    return copy;
  }

  /** How a row of `source` names the entity. */
  private memberOf(source: Source, { kind, pk }: Ref): string {
    return source.union ? entityId(this.world.kinds[kind]!.key, String(pk)) : String(pk);
  }

  private table(key: string): Map<string, string[]> {
    let table = this.rows.get(key);
    if (!table) {
      table = new Map();
      this.rows.set(key, table);
    }
    return table;
  }

  /** An owner stored: its nested list is the Todo collection's row `{ userId }` of its id. */
  private storeOwner(owner: number, items: readonly Item[]): Id {
    this.stored(items);
    const id = this.world.owners!.ids[owner]!;
    this.owners.add(String(id));
    const members = unique(items.map((item) => String(item.pk)));
    this.table(NESTED_TABLE).set(rowKeyOf({ userId: id }), members);
    return id;
  }

  /** Entities a response carries are stored (again, after a delete). */
  private stored(items: readonly Ref[]) {
    for (const { kind, pk } of items)
      this.deleted.delete(entityId(this.world.kinds[kind]!.key, String(pk)));
  }

  apply(op: Op): Expected {
    switch (op.op) {
      case 'load': {
        const source = this.world.sources[op.source]!;
        this.stored(op.items);
        const members = unique(op.items.map((item) => this.memberOf(source, item)));
        this.table(source.collection.key).set(rowKeyOf(source.lists[op.list]!), members);
        return {};
      }
      case 'page': {
        const source = this.world.sources[op.source]!;
        this.stored(op.items);
        const table = this.table(source.collection.key);
        const row = rowKeyOf(source.lists[op.list]!);
        const members = table.get(row) ?? [];
        table.set(
          row,
          unique([...members, ...op.items.map((item) => this.memberOf(source, item))]),
        );
        return { added: [rowName(source.collection.key, row)] };
      }
      case 'push':
      case 'unshift':
      case 'latest':
        return { added: this.add(op) };
      case 'owner':
        this.storeOwner(op.owner, op.items);
        return {};
      case 'owners': {
        // One after the other: an owner listed twice keeps the nested list it came with last.
        for (const { owner, items } of op.owners) this.storeOwner(owner, items);
        const ids = op.owners.map(({ owner }) => String(this.world.owners!.ids[owner]!));
        this.table(OWNER_TABLE).set(rowKeyOf({}), unique(ids));
        return {};
      }
      case 'ownerPush': {
        const id = String(this.storeOwner(op.owner, op.items));
        const collection = Owners.getList.schema;
        const filter = collection.createCollectionFilter({}, { name: 'n' });
        const reached: string[] = [];
        const table = this.table(OWNER_TABLE);
        for (const [row, members] of table) {
          if (!filter(rowArgsOf(row))) continue;
          reached.push(rowName(OWNER_TABLE, row));
          if (!members.includes(id)) table.set(row, [...members, id]);
        }
        return { added: reached };
      }
      case 'delete':
        return { invalidated: this.remove(op.ref) };
      case 'deleteMany':
        return { invalidated: op.refs.flatMap((ref) => this.remove(ref)) };
      case 'update':
        this.stored([op.item]);
        return {};
      case 'reset':
        this.rows.clear();
        this.deleted.clear();
        this.owners.clear();
        return {};
    }
  }

  /**
   * A push or unshift: the rows it reaches are those the collection's own filter selects, tested
   * on every stored row of its table (the scan the index stands in for).
   */
  private add(op: Extract<Op, { op: AddHow }>): string[] {
    const source = this.world.sources[op.source]!;
    const body = addBody(this.world, op);
    this.stored(op.items);
    const filter = source.collection.createCollectionFilter(op.params, body);
    const incoming = op.items.map((item) => this.memberOf(source, item));
    const reached: string[] = [];
    for (const [row, members] of this.table(source.collection.key)) {
      const receives = filter(rowArgsOf(row));
      // The library's default filter is the one defined here.
      if (source.defaultFilter)
        expect(receives, `default filter on ${row}`).toBe(
          defaultFilterReceives(rowArgsOf(row), op.params, body),
        );
      if (!receives) continue;
      reached.push(rowName(source.collection.key, row));
      this.table(source.collection.key).set(row, merged(op.op, members, incoming));
    }
    return reached;
  }

  /** A delete: the entity leaves every row holding it. Returns those rows. */
  private remove({ kind, pk }: Ref): string[] {
    const entity = this.world.kinds[kind]!.key;
    this.deleted.add(entityId(entity, String(pk)));
    const held: string[] = [];
    for (const [key, table] of this.rows) {
      const info = this.tables.get(key);
      if (info === undefined || (!info.union && info.entity !== entity)) continue;
      const member = info.union ? entityId(entity, String(pk)) : String(pk);
      for (const [row, members] of table) {
        if (!members.includes(member)) continue;
        table.set(
          row,
          members.filter((other) => other !== member),
        );
        held.push(rowName(key, row));
      }
    }
    return held;
  }
}

const unique = (members: readonly string[]) => [...new Set(members)];

/** A row's members after an add: new ones appended or prepended (in their order), or merged. */
function merged(how: AddHow, members: readonly string[], incoming: readonly string[]): string[] {
  switch (how) {
    case 'push':
      return unique([...members, ...incoming]);
    case 'unshift':
      return [...unique(incoming).filter((member) => !members.includes(member)), ...members];
    case 'latest':
      return keepLatest(members, incoming);
  }
}

// ---- Checks ---------------------------------------------------------------------------------

/** `[key, value]` pairs sorted by key: compared as lists, so a key `__proto__` is data. */
const sortedEntries = <T extends readonly [string, unknown]>(entries: Iterable<T>): T[] =>
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Every collection row in the state's tables: whatever holds MemberLists is a collection. */
function storedRows(state: State): Map<string, Map<string, string[]>> {
  const rows = new Map<string, Map<string, string[]>>();
  for (const [key, table] of state.entities) {
    for (const [row, value] of table) {
      if (!(value instanceof MemberList)) continue;
      let collection = rows.get(key);
      if (!collection) {
        collection = new Map();
        rows.set(key, collection);
      }
      collection.set(row, value.toArray());
    }
  }
  return rows;
}

/** The rows as sorted `[collection, row, members]`, to compare. */
function flatRows(rows: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>) {
  const flat: [string, string, readonly string[]][] = [];
  for (const [key, table] of rows)
    for (const [row, members] of table) flat.push([key, row, members]);
  return sortedEntries(flat.map((entry) => [rowName(entry[0], entry[1]), entry[2]] as const));
}

/** A holder as compared: the row, and whether it names the entity by union reference. */
const holderName = (collection: string, row: string, union: boolean) =>
  `${rowName(collection, row)}${union ? ' (union)' : ''}`;

/** What `rowsHolding` should be: for each member of each row, the rows holding it. */
function holdersByScan(
  rows: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>,
  tables: ReturnType<typeof tablesOf>,
): [string, string[]][] {
  const holders = new Map<string, string[]>();
  for (const [key, table] of rows) {
    const info = tables.get(key);
    if (!info) throw new Error(`a collection table no source writes: ${key}`);
    for (const [row, members] of table) {
      for (const member of members) {
        const id = info.union ? member : entityId(info.entity!, member);
        holders.set(id, [...(holders.get(id) ?? []), holderName(key, row, info.union)]);
      }
    }
  }
  return sortedEntries([...holders].map(([id, held]): [string, string[]] => [id, held.sort()]));
}

/** What `rowsHolding` is, read the same way. */
function holdersByIndex(state: State): [string, string[]][] {
  const holders: [string, string[]][] = [];
  for (const [entity, table] of state.rowsHolding) {
    for (const [pk, value] of table) {
      const refs = (Array.isArray(value) ? value : [value]) as readonly {
        collection: string;
        row: string;
        union: boolean;
      }[];
      if (refs.length === 0) continue;
      holders.push([
        entityId(entity, pk),
        refs.map((ref) => holderName(ref.collection, ref.row, ref.union)).sort(),
      ]);
    }
  }
  return sortedEntries(holders);
}

/** The rows a step's change-set says it touched with one of these kinds. */
function rowsTouched(changes: readonly ChangeSet[], kinds: readonly string[]): string[] {
  return changes
    .flatMap((changeSet) => changeSet.collections)
    .filter((change) => kinds.includes(change.kind))
    .map((change) => rowName(change.collection, change.row))
    .sort();
}

/** A list as read (`getResponse(...).data`): its members as the model names them. */
function membersRead(data: unknown, union: boolean): string[] | undefined {
  if (data === undefined) return undefined;
  return (data as Entity[]).map((entity) => {
    const pk = String(entity.pk());
    // The class by the prototype: an entity with a `constructor` field holds it as data.
    const type = Object.getPrototypeOf(entity).constructor as typeof Entity;
    return union ? entityId(type.key, pk) : pk;
  });
}

function checkStep(
  world: World,
  model: Model,
  controller: Controller,
  state: State,
  changes: readonly ChangeSet[],
  expected: Expected,
) {
  const tables = tablesOf(world);
  const errors = changes.flatMap((changeSet) =>
    changeSet.results.flatMap((result) => (result.type === 'result-error' ? [result.error] : [])),
  );
  expect(errors, 'a response was refused').toEqual([]);

  // The rows are the model's, in order: the adds reached what the filters select, the deletes
  // removed what they named, and nothing else moved.
  const rows = storedRows(state);
  expect(flatRows(rows)).toEqual(flatRows(model.rows));

  // (1) rowsHolding is what a scan of every row gives.
  expect(holdersByIndex(state)).toEqual(holdersByScan(rows, tables));

  // (2) An add (or page) reached exactly the rows the collection's own filter selects from all
  // the stored rows, including those where it met a duplicate; a delete, exactly those that held
  // the entity.
  if (expected.added)
    expect(rowsTouched(changes, ['push', 'unshift', 'page-merge', 'add'])).toEqual(
      expected.added.sort(),
    );
  if (expected.invalidated)
    expect(rowsTouched(changes, ['invalidate'])).toEqual(expected.invalidated.sort());

  // (3) Every read is the model's list, in order.
  const read = controller.getResponse as unknown as (
    endpoint: EndpointInterface,
    ...argsAndState: unknown[]
  ) => { data: unknown };
  for (const source of world.sources) {
    const table = model.rows.get(source.collection.key);
    for (const list of source.lists) {
      const { data } = read(source.getList, list, state);
      expect(membersRead(data, source.union), `${source.name} ${JSON.stringify(list)}`).toEqual(
        table?.get(rowKeyOf(list)),
      );
    }
  }
  if (world.owners) {
    const { data } = read(world.owners.getList, {}, state);
    expect(membersRead(data, false), 'the list of owners').toEqual(
      model.rows.get(OWNER_TABLE)?.get(rowKeyOf({})),
    );
    for (const id of world.owners.ids) {
      const { data } = read(world.owners.get, { id }, state);
      const expectedTodos = model.owners.has(String(id))
        ? model.rows.get(NESTED_TABLE)?.get(rowKeyOf({ userId: id }))
        : undefined;
      expect(
        membersRead((data as { todos?: unknown } | undefined)?.todos, false),
        `owner ${id}`,
      ).toEqual(expectedTodos);
    }
  }

  // (4) No row holds a deleted entity; every entity deleted since it was last stored is deleted.
  for (const [key, table] of rows) {
    const info = tables.get(key)!;
    for (const [row, members] of table) {
      for (const member of members) {
        const [entity, pk] = info.union
          ? (JSON.parse(member) as [string, string])
          : [info.entity!, member];
        const stored = state.entities.get(entity)?.get(pk);
        expect(
          stored,
          `${rowName(key, row)} holds ${entity} ${pk}, which is not stored`,
        ).toBeDefined();
        expect(isInvalid(stored), `${rowName(key, row)} holds deleted ${entity} ${pk}`).toBe(false);
      }
    }
  }
  for (const id of model.deleted) {
    const [entity, pk] = JSON.parse(id) as [string, string];
    expect(isInvalid(state.entities.get(entity)?.get(pk)), `${id} deleted`).toBe(true);
  }
}

/** What a state's tables said when it was current: it must say the same later. */
interface Snapshot {
  state: State;
  rows: ReturnType<typeof flatRows>;
  holders: ReturnType<typeof holdersByIndex>;
}

/** A store and the model it is checked against, step by step. */
class Runner {
  readonly store: Store;
  private changes: ChangeSet[] = [];
  readonly snapshots: Snapshot[] = [];

  constructor(
    private readonly world: World,
    readonly model: Model,
    initialState?: State,
  ) {
    this.store = createStore(initialState ? { initialState } : {});
    this.store.observe((record) => this.changes.push(record.changes));
  }

  step(op: Op): void {
    this.changes = [];
    const expected = this.model.apply(op);
    perform(this.store.controller, this.world, op);
    const state = this.store.getState();
    checkStep(this.world, this.model, this.store.controller, state, this.changes, expected);
    this.snapshots.push({
      state,
      rows: flatRows(storedRows(state)),
      holders: holdersByIndex(state),
    });
  }

  /**
   * Every state the store went through still holds what it held then: writes copy the paths to
   * what they change (drafts change in place only what they made), so no later write, in this
   * store or in one started from its state, reaches into an older state's rows or indexes.
   */
  checkPastStates(): void {
    for (const [step, { state, rows, holders }] of this.snapshots.entries()) {
      expect(flatRows(storedRows(state)), `rows after step ${step}`).toEqual(rows);
      expect(holdersByIndex(state), `rowsHolding after step ${step}`).toEqual(holders);
    }
  }
}

/** Runs the operations on a fresh store and the model, checking everything after each. */
function runSequence(world: World, ops: readonly Op[]): void {
  const runner = new Runner(world, new Model(world));
  for (const op of ops) runner.step(op);
  runner.checkPastStates();
}

/**
 * Runs `shared`, then starts a second store from the first one's state and runs `left` on the
 * first and `right` on the second, one step of each in turn: the two share every table and
 * index they started with, and neither may see the other's writes.
 */
function runForked(world: World, [shared, left, right]: readonly Op[][]): void {
  const first = new Runner(world, new Model(world));
  for (const op of shared!) first.step(op);
  const second = new Runner(world, first.model.clone(), first.store.getState());
  for (let i = 0; i < Math.max(left!.length, right!.length); i++) {
    if (i < left!.length) first.step(left![i]!);
    if (i < right!.length) second.step(right![i]!);
  }
  first.checkPastStates();
  second.checkPastStates();
}

/**
 * Fixed seeds keep CI runs reproducible (a failure prints its seed and path to replay). To search
 * further, `INDEX_PROPERTY_SEED` runs other seeds and `INDEX_PROPERTY_RUNS` multiplies the runs.
 */
const SEED = Number(process.env.INDEX_PROPERTY_SEED ?? 20_240_611);
const RUNS = Number(process.env.INDEX_PROPERTY_RUNS ?? 1);

interface Bounds {
  numRuns: number;
  maxSteps: number;
  /** Each property has its own seed: SEED plus this. */
  seedOffset: number;
}

function holdUnderRandomOperations(world: World, domain: Domain, bounds: Bounds) {
  fc.assert(
    fc.property(sequences(world, domain, bounds.maxSteps), (ops) => runSequence(world, ops)),
    { numRuns: Math.ceil(bounds.numRuns * RUNS), seed: SEED + bounds.seedOffset },
  );
}

function holdInForkedStores(world: World, domain: Domain, bounds: Bounds) {
  const ops = () => sequences(world, domain, bounds.maxSteps);
  fc.assert(
    fc.property(fc.tuple(ops(), ops(), ops()), (parts) => runForked(world, parts)),
    { numRuns: Math.ceil(bounds.numRuns * RUNS), seed: SEED + bounds.seedOffset },
  );
}

// ---- Properties -----------------------------------------------------------------------------

/** Pks of several shapes; few, so that lists share members and deletes meet them. */
const PKS: readonly Id[] = [
  '550e8400-e29b-41d4-a716-446655440000',
  '6fa459ea-ee8a-3ca4-894e-db77e160355e',
  7,
  '7',
  0,
  '__proto__',
  'say "hi"',
  "it's",
  'constructor',
  '["Post","7"]',
];
const small: Domain = { pks: fc.constantFrom(...PKS), maxItems: 5, maxBatch: 4 };
/**
 * Long lists mostly emptied by deletes: a list then starts again from the members left, and a
 * table of which few keys are left starts a fresh index of its keys (KeyIndex, which an entity
 * type's rows, meta and list memberships share) at its next write. The indexes must hold across
 * both.
 */
const churn: Domain = {
  pks: fc.integer({ min: 0, max: 99 }),
  maxItems: 100,
  maxBatch: 80,
  size: 'max',
  batchWeight: 5,
};

describe('the write indexes agree with a full scan', () => {
  it('default filter: lists by user, by two arguments, ordered, nested in an owner', () => {
    holdUnderRandomOperations(defaultWorld, small, { numRuns: 100, maxSteps: 25, seedOffset: 0 });
  }, 30_000);

  it('a union collection, and posts in lists of their own as well', () => {
    holdUnderRandomOperations(unionWorld, small, { numRuns: 80, maxSteps: 25, seedOffset: 1 });
  }, 30_000);

  it('custom filters (nonFilterArgumentKeys, createCollectionFilter, a subclass) scan', () => {
    holdUnderRandomOperations(customWorld, small, { numRuns: 60, maxSteps: 25, seedOffset: 2 });
  }, 30_000);

  it('two stores from one state: neither sees the other’s writes, old states stay as they were', () => {
    holdInForkedStores(defaultWorld, small, { numRuns: 30, maxSteps: 12, seedOffset: 4 });
    holdInForkedStores(unionWorld, small, { numRuns: 20, maxSteps: 12, seedOffset: 5 });
    holdInForkedStores(defaultWorld, churn, { numRuns: 5, maxSteps: 12, seedOffset: 6 });
  }, 30_000);

  it('many pks: long lists emptied by batch deletes', () => {
    holdUnderRandomOperations(defaultWorld, churn, { numRuns: 20, maxSteps: 30, seedOffset: 3 });
  }, 30_000);
});
