/**
 * A user's code against the published declarations, compiled by the declaration tests with
 * the oldest and newest supported TypeScript (strict, declarations checked). Each
 * `@ts-expect-error` must be an error there; `same<A, B>(true)` requires two equal types. It
 * holds what must hold on every compiler; the full type tests (`library/test/types`) run on
 * the newest.
 */
import { createElement } from 'react';
import type {
  Controller,
  GetEndpoint,
  MutateEndpoint,
  PaginationFieldEndpoint,
  PolymorphicInterface,
  ResourceGenerics,
  RestGenerics,
  ShortenPath,
} from 'restlens';
import {
  createResource,
  createStore,
  Entity,
  hookifyResource,
  Index,
  RestEndpoint,
  schema,
  validateRequired,
} from 'restlens';
import { connectDevtools, replaySession } from 'restlens/devtools';
import type {
  Denormalize,
  EndpointInterface,
  ErrorTypes,
  FetchFunction,
  NetworkError,
  ResolveType,
  Schema,
  State,
} from 'restlens/react';
import {
  AsyncBoundary,
  CacheProvider,
  ExpiryStatus,
  NetworkErrorBoundary,
  Controller as ReactController,
  useCache,
  useCancelling,
  useController,
  useError,
  useLive,
  useQuery,
  useSubscription,
  useSuspense,
} from 'restlens/react';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when `A` and `B` are the same type. */
function same<A, B>(_proof: Equal<A, B>): void {}

class Todo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return `${this.id}`;
  }
  static key = 'Todo';
}

type TodoBody = { title: string; completed?: boolean };

const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
  body: {} as TodoBody,
  paginationField: 'page',
});
const PlainResource = createResource({ path: '/users/:userId/todos/:id', schema: Todo });
const { controller } = createStore();

export async function generativeTypes() {
  // Results come from the schema.
  const todo: Todo = await controller.fetch(TodoResource.get, { id: 1 });
  const list: Todo[] = await controller.fetch(TodoResource.getList, { userId: 1 });
  const created: Todo = await controller.fetch(TodoResource.getList.push, { title: 'x' });
  const pushed: Todo = await controller.fetch(TodoResource.getList.push, {}, { title: 'x' });
  const page: Todo[] = await controller.fetch(TodoResource.getList.getPage, { page: 2 });
  const deleted: Todo = await controller.fetch(TodoResource.delete, { id: 1 });
  same<
    typeof todo | typeof list | typeof created | typeof pushed | typeof page | typeof deleted,
    Todo | Todo[]
  >(true);

  // URL parameters come from the path, the query from searchParams, the body from body.
  // @ts-expect-error `idd` is not a parameter of '/todos/:id'
  TodoResource.get({ idd: 1 });
  // @ts-expect-error the path parameter `id` is missing
  controller.fetch(TodoResource.get, {});
  // @ts-expect-error `user` is not a declared query parameter
  TodoResource.getList({ user: 1 });
  // @ts-expect-error the body lacks the required `title`
  TodoResource.update({ id: 1 }, { completed: true });
  // @ts-expect-error the pagination field `page` is missing
  TodoResource.getList.getPage({ userId: 1 });
  // @ts-expect-error the list of '/users/:userId/todos' needs `userId`
  PlainResource.getList({});

  // Without a declared body: a part of the entity, or FormData.
  PlainResource.update({ userId: 1, id: 1 }, { title: 'x', completed: true });
  PlainResource.partialUpdate({ userId: 1, id: 1 }, new FormData());
  // @ts-expect-error `titel` is not a field of Todo
  PlainResource.partialUpdate({ userId: 1, id: 1 }, { titel: 'x' });
  // Without declared searchParams the list takes any query, but a query is an object.
  PlainResource.getList({ userId: 1, orderBy: 'title' });
  // @ts-expect-error a number is not a query
  createResource({ path: '/todos/:id', schema: Todo }).getList(5);
}

/** Spec 9.1: hookifyResource's generative types, on TypeScript 4.3 as on the newest. */
export function useHookifiedTypes() {
  const TodoHooks = hookifyResource(TodoResource, () => ({
    headers: { 'access-token': 'abc' },
  }));
  same<ReturnType<typeof TodoHooks.useGet>, typeof TodoResource.get>(true);
  same<ReturnType<typeof TodoHooks.useGetList>, typeof TodoResource.getList>(true);
  same<ReturnType<typeof TodoHooks.useUpdate>, typeof TodoResource.update>(true);
  same<ReturnType<typeof TodoHooks.usePartialUpdate>, typeof TodoResource.partialUpdate>(true);
  same<ReturnType<typeof TodoHooks.useDelete>, typeof TodoResource.delete>(true);
  same<Parameters<typeof TodoHooks.useGet>, []>(true);
  const getList = TodoHooks.useGetList();
  controller
    .fetch(getList.push, {}, { title: 'x' })
    .then((pushed) => same<typeof pushed, Todo>(true));
  controller.fetch(getList.getPage, { page: 2 }).then((page) => same<typeof page, Todo[]>(true));
  // @ts-expect-error `idd` is not a parameter of '/todos/:id'
  TodoHooks.useGet()({ idd: 1 });
  // @ts-expect-error the body lacks the required `title`
  TodoHooks.useUpdate()({ id: 1 }, { completed: true });
  // @ts-expect-error the list of '/users/:userId/todos' needs `userId`
  hookifyResource(PlainResource).useGetList()({});
  // @ts-expect-error the hooks are named after the members: useGetList, not useList
  TodoHooks.useList();
  // @ts-expect-error useInit returns request settings, not a token
  hookifyResource(TodoResource, () => 'abc');
}

export function endpoints() {
  // A plain RestEndpoint keeps its path; without a schema its result is what `process` returns.
  const getUser = new RestEndpoint({ path: '/users/:id' });
  same<typeof getUser.path, '/users/:id'>(true);
  // @ts-expect-error `idd` is not a parameter of '/users/:id'
  getUser({ idd: 1 });
  const health = new RestEndpoint({
    path: '/health',
    process(value: unknown): { ok: boolean } {
      return value as { ok: boolean };
    },
  });
  controller.fetch(health).then((status) => same<typeof status, { ok: boolean }>(true));
  controller.fetch(new RestEndpoint({ path: '/ping' }));
  same<typeof getUser.url, (params: { id: string | number }) => string>(true);

  // A custom Endpoint class keeps the generative types, used directly and by createResource.
  class MyEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
    getRequestInit(body: any): RequestInit {
      return { ...super.getRequestInit(body), credentials: 'same-origin' };
    }
    getHeaders(headers: HeadersInit): HeadersInit {
      return { ...headers, 'access-token': 'abc' };
    }
  }
  const mine = new MyEndpoint({ path: '/todos/:id', schema: Todo });
  same<typeof mine.path, '/todos/:id'>(true);
  // @ts-expect-error `idd` is not a parameter of '/todos/:id'
  mine({ idd: 1 });
  const Mine = createResource({ path: '/todos/:id', schema: Todo, Endpoint: MyEndpoint });
  // @ts-expect-error `idd` is not a parameter of '/todos/:id'
  Mine.get({ idd: 1 });

  // A batch delete with a declared body takes it and resolves to the entities.
  const Batch = TodoResource.extend('deleteMany', {
    path: '/todos',
    method: 'DELETE',
    body: [] as string[],
    schema: [new schema.Invalidate(Todo)],
  });
  controller.fetch(Batch.deleteMany, ['1', '2']).then((todos) => same<typeof todos, Todo[]>(true));
  // @ts-expect-error the body is a list of ids
  Batch.deleteMany([1, 2]);
}

export function namesAndSchemas() {
  same<ShortenPath<'/groups/:group/todos/:id'>, '/groups/:group/todos'>(true);
  const generics: ResourceGenerics = { path: '/todos/:id', schema: Todo };
  const get: GetEndpoint<{ path: '/todos/:id'; schema: typeof Todo }> = TodoResource.get;
  const getPage: PaginationFieldEndpoint<typeof TodoResource.getList, 'page'> =
    TodoResource.getList.getPage;
  const invalidate: schema.Invalidate<typeof Todo> = new schema.Invalidate(Todo);
  class SortedCollection<
    S extends any[] | PolymorphicInterface = any,
    Parent extends any[] = [urlParams: any, body?: any],
  > extends schema.Collection<S, Parent> {
    nonFilterArgumentKeys(key: string) {
      return key === 'orderBy';
    }
  }
  class PlainCollection extends schema.Collection {
    nonFilterArgumentKeys(key: string) {
      return key.startsWith('sort');
    }
  }
  createResource({ path: '/todos/:id', schema: Todo, Collection: SortedCollection });
  createResource({ path: '/todos/:id', schema: Todo, Collection: PlainCollection });
  const byUser = new schema.Collection([Todo], {
    argsKey: (urlParams: { userId?: number }) => ({ userId: urlParams.userId }),
  });
  const Paged = new RestEndpoint({
    path: '/todos',
    schema: { results: byUser, total: 0 },
  });
  controller
    .fetch(Paged)
    .then((result) => same<typeof result, { results: Todo[]; total: number }>(true));
  const fromJS: Todo = Todo.fromJS({ title: 'x' });
  // @ts-expect-error `titel` is not a field of Todo
  Todo.fromJS({ titel: 'x' });
  return [generics, get, getPage, invalidate, fromJS];
}

/** Forms from data-client's own type tests and docs that RestLens once typed differently. */
export async function dataClientForms() {
  const direct: GetEndpoint<{ path: '/todos/:id'; schema: typeof Todo }> = new RestEndpoint({
    path: '/todos/:id',
    schema: Todo,
  });
  const update: MutateEndpoint<{
    path: '/todos/:id';
    schema: typeof Todo;
    method: 'PUT';
    body: TodoBody;
  }> = TodoResource.update;
  same<typeof direct.schema, typeof Todo>(true);
  const Copied = TodoResource.extend('justget', {});
  // @ts-expect-error `extend('justget', {})` keeps get's URL parameters
  Copied.justget({});
  const page = TodoResource.getList.paginated('cursor');
  const pageResult: Todo[] = await controller.fetch(page, { userId: 1, cursor: 2 });
  // @ts-expect-error the pagination field is required
  page({ userId: 1 });
  const filtered = new schema.Collection([Todo], {
    createCollectionFilter:
      (...args) =>
      (rowArgs) =>
        `${args[0].userId}` === rowArgs.userId,
  });
  return [update, pageResult, filtered];
}

/** data-client's `define()`: schemas that refer to each other, or whose members come later. */
export function definedLater() {
  const user = new schema.Object({});
  const post = new schema.Object({ author: user });
  user.define({ posts: new schema.Array(post) });
  const feed = new schema.Array({}, 'type');
  feed.define({ todo: Todo });
  new schema.Values({}, 'type').define({ todo: Todo });
  new schema.Union({ todo: Todo }, 'type').define({ todo: Todo });
  const all = new schema.All(Todo);
  all.define(Todo);
  same<typeof all.schema, typeof Todo>(true);
  // @ts-expect-error the definition is changed by `define`
  all.schema = Todo;
}

export async function devtools() {
  const store = createStore();
  const connection = connectDevtools(store);
  await replaySession(store.controller, {}, { mode: 'apply' });
  connection.disconnect();
}

export function Hooks({ userId }: { userId?: number }) {
  const todos: Todo[] = useSuspense(TodoResource.getList, { userId });
  const todo: Todo = useSuspense(TodoResource.get, { id: 1 });
  const maybe: Todo | undefined = useSuspense(TodoResource.get, userId ? { id: userId } : null);
  const cached: Todo | undefined = useCache(TodoResource.get, { id: 1 });
  const { fetch, invalidate } = useController();
  fetch(TodoResource.getList.push, { userId }, { title: 'x' });
  invalidate(TodoResource.get, { id: 1 });
  same<ReturnType<typeof useController>, Controller>(true);
  // @ts-expect-error a mutation cannot be read with useSuspense
  useSuspense(TodoResource.update, { id: 1 });
  // @ts-expect-error `idd` is not a parameter of '/todos/:id'
  useSuspense(TodoResource.get, { idd: 1 });
  const live: Todo = useLive(TodoResource.get, { id: 1 });
  useSubscription(TodoResource.getList, userId ? { userId } : null);
  const subscribed: Promise<void> = useController().subscribe(TodoResource.get, { id: 1 });
  // @ts-expect-error a mutation is not polled
  useLive(TodoResource.update, { id: 1 }, { title: 'x' });
  return [todos, todo, maybe, cached, live, subscribed];
}

/** What a data-client 0.9 app imports beside the resources, in its documentation's forms. */
class User extends Entity {
  id = 0;
  username = '';
  name = '';
  pk() {
    return `${this.id}`;
  }
  static key = 'User';
  static indexes = ['username' as const];
  static validate(processed: any) {
    return validateRequired(processed, this.defaults);
  }
}
const byUsername = new Index(User);

function ErrorPage({ error, className }: { error: NetworkError; className?: string }) {
  return createElement('div', { className }, `${error.status}`);
}

export function DataClientReact({ username }: { username: string }) {
  const user = useCache(byUsername, { username });
  same<typeof user, User | undefined>(true);
  // @ts-expect-error `name` is not one of User.indexes
  useCache(byUsername, { name: 'Ada' });
  const found = controller.getResponse(byUsername, { username }, controller.getState());
  same<typeof found.data, User | undefined>(true);
  const error = useError(TodoResource.get, { id: 1 });
  same<typeof error, ErrorTypes | undefined>(true);
  const none = useError(TodoResource.get, null);
  same<typeof none, undefined>(true);
  const state: State = controller.getState();
  // The Controller restlens/react exports is restlens's, the class CacheProvider takes.
  const own = createStore({ Controller: ReactController });
  same<typeof own.controller, Controller>(true);
  const fresh: boolean = found.expiryStatus === ExpiryStatus.Valid;
  const schemaOfTodo: Schema = Todo;
  same<Denormalize<typeof Todo>, Todo>(true);
  same<ResolveType<typeof TodoResource.get>, Todo>(true);
  const endpoint: EndpointInterface<FetchFunction> = TodoResource.get;
  // @ts-expect-error RestLens has no managers
  createElement(CacheProvider, { managers: [] });
  return createElement(
    CacheProvider,
    { initialState: state, devButton: 'bottom-right' },
    createElement(
      AsyncBoundary,
      { fallback: 'loading', errorComponent: ErrorPage, errorClassName: 'error' },
      createElement(NetworkErrorBoundary, { fallbackComponent: ErrorPage }, `${fresh}`),
    ),
    [schemaOfTodo, endpoint].length,
  );
}

/** data-client's `schema.Entity` mixin: an entity from a class of fields. */
class ArticleData {
  id = '';
  title = '';
}
export class Article extends schema.Entity(ArticleData, { pk: 'id', key: 'Article' }) {}
export const ArticleResource = createResource({ path: '/articles/:id', schema: Article });
export async function readArticle(): Promise<string> {
  const article: Article = await ArticleResource.get({ id: '1' });
  // @ts-expect-error `slug` is not a field of ArticleData
  schema.Entity(ArticleData, { pk: 'slug' });
  return article.title;
}

/** Current data-client's API: schema.Query, useQuery, useCancelling, controller.set / get. */
const doneTodos = new schema.Query(new schema.All(Todo), (todos, { done }: { done: boolean }) =>
  todos.filter((todo) => todo.completed === done),
);
export function useCurrentApi(id: number): string {
  const done: Todo[] | undefined = useQuery(doneTodos, { done: true });
  // @ts-expect-error the Query's arguments are typed
  useQuery(doneTodos, { done: 'yes' });
  const one: Todo | undefined = useQuery(Todo, { id });
  const todo: Todo = useSuspense(useCancelling(TodoResource.get, { id }), { id });
  controller.set(Todo, { id }, (previous) => ({ ...previous, completed: true }));
  const found: Todo[] | undefined = controller.get(
    doneTodos,
    { done: false },
    controller.getState(),
  );
  const meta = controller.getResponseMeta(TodoResource.get, { id }, controller.getState());
  same<typeof meta.data, Todo | undefined>(true);
  return `${done?.length} ${one?.title} ${todo.title} ${found?.length}`;
}
