import { describe, expectTypeOf, it } from 'vitest';
import {
  type Controller,
  createResource,
  createStore,
  hookifyResource,
  RestEndpoint,
} from '../../src/index.js';
import {
  type ErrorTypes,
  useCache,
  useController,
  useDLE,
  useError,
  useFetch,
  useLive,
  useSubscription,
  useSuspense,
} from '../../src/react/index.js';
import { type Id, Todo, type TodoBody, TodoResource } from './support.js';

const useInit = () => ({ headers: { 'access-token': 'abc' } });
const TodoHooks = hookifyResource(TodoResource, useInit);

describe('hookifyResource: the hooks and their endpoints', () => {
  it('has one use<Member> hook per endpoint member, taking no arguments', () => {
    expectTypeOf<keyof typeof TodoHooks>().toEqualTypeOf<
      'useGet' | 'useGetList' | 'useCreate' | 'useUpdate' | 'usePartialUpdate' | 'useDelete'
    >();
    expectTypeOf(TodoHooks.useGet).parameters.toEqualTypeOf<[]>();
    // @ts-expect-error `extend` is not an endpoint: there is no useExtend
    TodoHooks.useExtend;
    // @ts-expect-error the hooks are named after the members: useGetList, not useList
    TodoHooks.useList;
  });

  it('each hook returns an endpoint typed exactly like its member', () => {
    expectTypeOf(TodoHooks.useGet).returns.toEqualTypeOf<typeof TodoResource.get>();
    expectTypeOf(TodoHooks.useGetList).returns.toEqualTypeOf<typeof TodoResource.getList>();
    expectTypeOf(TodoHooks.useUpdate).returns.toEqualTypeOf<typeof TodoResource.update>();
    expectTypeOf(TodoHooks.usePartialUpdate).returns.toEqualTypeOf<
      typeof TodoResource.partialUpdate
    >();
    expectTypeOf(TodoHooks.useDelete).returns.toEqualTypeOf<typeof TodoResource.delete>();
  });

  it('the hooked endpoints infer URL args, query, body and result like the members', () => {
    const get = TodoHooks.useGet();
    const getList = TodoHooks.useGetList();
    const update = TodoHooks.useUpdate();
    const partialUpdate = TodoHooks.usePartialUpdate();
    const remove = TodoHooks.useDelete();

    expectTypeOf(get).parameters.toEqualTypeOf<[params: { id: Id }]>();
    expectTypeOf(get).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(getList).returns.resolves.toEqualTypeOf<Todo[]>();
    expectTypeOf(getList.push).toBeCallableWith({ userId: 1 }, { title: 'x' });
    expectTypeOf(getList.push).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(getList.unshift).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(getList.getPage).toBeCallableWith({ page: 2, userId: 1 });
    expectTypeOf(getList.getPage).returns.resolves.toEqualTypeOf<Todo[]>();
    expectTypeOf(update).parameters.toEqualTypeOf<
      [params: { id: Id }, body: TodoBody | FormData]
    >();
    expectTypeOf(partialUpdate).toBeCallableWith({ id: 1 }, { completed: true });
    expectTypeOf(remove).parameters.toEqualTypeOf<[params: { id: Id }]>();

    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    get({ idd: 1 });
    // @ts-expect-error the path parameter `id` is missing
    get({});
    // @ts-expect-error `user` is not a declared query parameter
    getList({ user: 1 });
    // @ts-expect-error `title` is a string
    getList.push({}, { title: 1 });
    // @ts-expect-error the pagination field `page` is missing
    getList.getPage({ userId: 1 });
    // @ts-expect-error the body lacks the required `title`
    update({ id: 1 }, { completed: true });
    // @ts-expect-error `completed` is a boolean
    partialUpdate({ id: 1 }, { completed: 'yes' });
    // @ts-expect-error the path parameter `id` is missing
    remove({});
  });

  it('useInit must return request settings', () => {
    expectTypeOf(hookifyResource).toBeCallableWith(TodoResource, () => ({
      headers: { 'access-token': 'abc' },
      credentials: 'same-origin' as const,
    }));
    expectTypeOf(hookifyResource).toBeCallableWith(TodoResource);
    // @ts-expect-error useInit returns a RequestInit, not the token itself
    hookifyResource(TodoResource, () => 'abc');
    // @ts-expect-error `headers` must be HeadersInit
    hookifyResource(TodoResource, () => ({ headers: 5 }));
  });

  it('members added with extend() get hooks too', () => {
    const Extended = TodoResource.extend('getByUser', {
      path: '/users/:userId/todos',
      schema: [Todo],
    });
    const ExtendedHooks = hookifyResource(Extended, useInit);
    expectTypeOf(ExtendedHooks.useGetByUser).returns.toEqualTypeOf<typeof Extended.getByUser>();
    expectTypeOf(ExtendedHooks.useGetByUser()).parameters.toEqualTypeOf<[params: { userId: Id }]>();
    // @ts-expect-error the path parameter `userId` is missing
    ExtendedHooks.useGetByUser()({});
  });
});

describe('controller.fetch', () => {
  const { controller } = createStore();

  it('resolves to the schema reading of each member', () => {
    expectTypeOf(controller.fetch(TodoResource.get, { id: 1 })).toEqualTypeOf<Promise<Todo>>();
    expectTypeOf(controller.fetch(TodoResource.getList, { userId: 1 })).toEqualTypeOf<
      Promise<Todo[]>
    >();
    expectTypeOf(controller.fetch(TodoResource.getList)).toEqualTypeOf<Promise<Todo[]>>();
    expectTypeOf(
      controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'x' }),
    ).toEqualTypeOf<Promise<Todo>>();
    expectTypeOf(controller.fetch(TodoResource.getList.getPage, { page: 2 })).toEqualTypeOf<
      Promise<Todo[]>
    >();
    expectTypeOf(controller.fetch(TodoResource.update, { id: 1 }, { title: 'x' })).toEqualTypeOf<
      Promise<Todo>
    >();
    expectTypeOf(controller.fetch(TodoHooks.useGet(), { id: 1 })).toEqualTypeOf<Promise<Todo>>();
  });

  it('checks the arguments against the endpoint', () => {
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    controller.fetch(TodoResource.get, { idd: 1 });
    // @ts-expect-error the path parameter `id` is missing
    controller.fetch(TodoResource.get);
    // @ts-expect-error `title` is a string
    controller.fetch(TodoResource.update, { id: 1 }, { title: 2 });
    // @ts-expect-error the pagination field `page` is missing
    controller.fetch(TodoResource.getList.getPage, { userId: 1 });
    // @ts-expect-error the body lacks the required `title`
    controller.fetch(TodoHooks.useGetList().push, {}, {});
  });
});

describe('controller.setResponse and setError', () => {
  const { controller } = createStore();

  it('take the arguments then the value; optional arguments may be left out', () => {
    controller.setResponse(TodoResource.getList, [{ id: 1, title: 'x' }]);
    controller.setResponse(TodoResource.getList, { userId: 1 }, [{ id: 1, title: 'x' }]);
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'x' });
    controller.setError(TodoResource.getList, new Error('down'));
    controller.setError(TodoResource.get, { id: 1 }, new Error('down'));
    // @ts-expect-error get needs its URL parameters before the response
    controller.setResponse(TodoResource.get, { id: 1, title: 'x' });
  });
});

describe('useSuspense, useCache and useController', () => {
  it('useSuspense returns the data; `null` args return undefined', () => {
    expectTypeOf(useSuspense(TodoResource.get, { id: 1 })).toEqualTypeOf<Todo>();
    expectTypeOf(useSuspense(TodoResource.getList, { userId: 1 })).toEqualTypeOf<Todo[]>();
    expectTypeOf(useSuspense(TodoResource.getList)).toEqualTypeOf<Todo[]>();
    expectTypeOf(useSuspense(TodoHooks.useGetList(), {})).toEqualTypeOf<Todo[]>();
    expectTypeOf(useSuspense(TodoResource.get, null)).toEqualTypeOf<undefined>();
    const id = 1 as number | null;
    expectTypeOf(useSuspense(TodoResource.get, id === null ? null : { id })).toEqualTypeOf<
      Todo | undefined
    >();
  });

  it('useSuspense reads lists whose filter may be undefined, and endpoints without a schema', () => {
    const userId = undefined as number | undefined;
    expectTypeOf(useSuspense(TodoResource.getList, { userId })).toEqualTypeOf<Todo[]>();
    const Plain = createResource({ path: '/todos/:id', schema: Todo });
    expectTypeOf(useSuspense(Plain.getList, { userId })).toEqualTypeOf<Todo[]>();
    const health = new RestEndpoint({
      path: '/health',
      process: (value: unknown) => value as { ok: boolean },
    });
    expectTypeOf(useSuspense(health)).toEqualTypeOf<{ ok: boolean }>();
  });

  it('useSuspense reads; it does not run mutations', () => {
    // @ts-expect-error update is a mutation (sideEffect: true)
    useSuspense(TodoResource.update, { id: 1 });
    // @ts-expect-error push is a mutation
    useSuspense(TodoResource.getList.push, { userId: 1 });
    // @ts-expect-error delete is a mutation
    useSuspense(TodoResource.delete, { id: 1 });
    expectTypeOf(useSuspense(TodoResource.getList.getPage, { page: 2 })).toEqualTypeOf<Todo[]>();
  });

  it('useSuspense checks the arguments against the endpoint', () => {
    // @ts-expect-error the path parameter `id` is missing
    useSuspense(TodoResource.get);
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    useSuspense(TodoResource.get, { idd: 1 });
    // @ts-expect-error the pagination field `page` is missing
    useSuspense(TodoResource.getList.getPage, { userId: 1 });
    // @ts-expect-error the hooked endpoint checks its arguments too
    useSuspense(TodoHooks.useGet(), {});
  });

  it('useCache may return nothing; useController returns the Controller', () => {
    expectTypeOf(useCache(TodoResource.get, { id: 1 })).toEqualTypeOf<Todo | undefined>();
    expectTypeOf(useCache(TodoResource.getList, null)).toEqualTypeOf<Todo[] | undefined>();
    expectTypeOf(useController()).toEqualTypeOf<Controller>();
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    useCache(TodoResource.get, { idd: 1 });
  });
});

describe('an object schema with nothing stored reads as its shape', () => {
  const PagedList = TodoResource.getList.extend({
    schema: { results: TodoResource.getList.schema, nextPage: '', meta: { total: 0 } },
  });
  type Page = { results: Todo[]; nextPage: string; meta: { total: number } };
  type Empty = { results: undefined; nextPage: string; meta: { total: number } };

  it('useSuspense gives the shape for null args and may give it when they may be null', () => {
    expectTypeOf(useSuspense(PagedList, {})).toEqualTypeOf<Page>();
    expectTypeOf(useSuspense(PagedList, null)).toEqualTypeOf<Empty>();
    const ready = true as boolean;
    const { results, nextPage } = useSuspense(PagedList, ready ? {} : null);
    expectTypeOf(results).toEqualTypeOf<Todo[] | undefined>();
    expectTypeOf(nextPage).toEqualTypeOf<string>();
  });

  it('useCache, useDLE and getResponse may give the shape', () => {
    expectTypeOf(useCache(PagedList, {})).toEqualTypeOf<Page | Empty>();
    expectTypeOf(useDLE(PagedList, {}).data).toEqualTypeOf<Page | Empty>();
    const { controller, getState } = createStore();
    expectTypeOf(controller.getResponse(PagedList, null, getState()).data).toEqualTypeOf<
      Page | Empty
    >();
  });
});

describe('useDLE and useFetch', () => {
  it('useDLE gives data that may be missing, loading and an error with an optional status', () => {
    const { data, loading, error } = useDLE(TodoResource.get, { id: 1 });
    expectTypeOf(data).toEqualTypeOf<Todo | undefined>();
    expectTypeOf(loading).toEqualTypeOf<boolean>();
    expectTypeOf(error).toEqualTypeOf<ErrorTypes | undefined>();
    if (error) expectTypeOf(error.status).toEqualTypeOf<unknown>();
    expectTypeOf(useDLE(TodoResource.getList, null).data).toEqualTypeOf<Todo[] | undefined>();
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    useDLE(TodoResource.get, { idd: 1 });
    // @ts-expect-error mutations are fetched, not read
    useDLE(TodoResource.update, { id: 1 }, { title: 'x' });
  });

  it('useFetch returns the promise of the response, or undefined', () => {
    expectTypeOf(useFetch(TodoResource.get, { id: 1 })).toEqualTypeOf<Promise<Todo> | undefined>();
    expectTypeOf(useFetch(TodoResource.getList, {})).toEqualTypeOf<Promise<Todo[]> | undefined>();
    // @ts-expect-error the path parameter `id` is missing
    useFetch(TodoResource.get, {});
  });
});

describe('useLive, useSubscription and controller.subscribe', () => {
  it('useLive returns what useSuspense returns; useSubscription returns nothing', () => {
    expectTypeOf(useLive(TodoResource.get, { id: 1 })).toEqualTypeOf<Todo>();
    expectTypeOf(useLive(TodoResource.getList, { userId: 1 })).toEqualTypeOf<Todo[]>();
    expectTypeOf(useLive(TodoResource.get, null)).toEqualTypeOf<undefined>();
    const id = 1 as number | null;
    expectTypeOf(useLive(TodoResource.get, id === null ? null : { id })).toEqualTypeOf<
      Todo | undefined
    >();
    expectTypeOf(useSubscription(TodoResource.get, { id: 1 })).toEqualTypeOf<void>();
    useSubscription(TodoResource.getList, null);
  });

  it('they check the arguments and take no mutation', () => {
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    useLive(TodoResource.get, { idd: 1 });
    // @ts-expect-error the path parameter `id` is missing
    useSubscription(TodoResource.get, {});
    // @ts-expect-error update is a mutation: polling would repeat it
    useLive(TodoResource.update, { id: 1 }, { title: 'x' });
    // @ts-expect-error push is a mutation
    useSubscription(TodoResource.getList.push, { userId: 1 }, { title: 'x' });
  });

  it('controller.subscribe and unsubscribe take the call, or null', () => {
    const controller = createStore().controller;
    expectTypeOf(controller.subscribe(TodoResource.get, { id: 1 })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(controller.unsubscribe(TodoResource.get, null)).toEqualTypeOf<Promise<void>>();
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    controller.subscribe(TodoResource.get, { idd: 1 });
  });
});

describe('useError', () => {
  it('gives the error, or undefined; only undefined for null arguments', () => {
    expectTypeOf(useError(TodoResource.get, { id: 1 })).toEqualTypeOf<ErrorTypes | undefined>();
    expectTypeOf(useError(TodoResource.getList, { userId: 1 })).toEqualTypeOf<
      ErrorTypes | undefined
    >();
    expectTypeOf(useError(TodoResource.get, null)).toEqualTypeOf<undefined>();
    const id = 1 as number | undefined;
    expectTypeOf(useError(TodoResource.get, id === undefined ? null : { id })).toEqualTypeOf<
      ErrorTypes | undefined
    >();
  });

  it('takes the endpoint’s arguments, and reads endpoints only', () => {
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    useError(TodoResource.get, { idd: 1 });
    // @ts-expect-error a mutation's error is not stored: it rejects the caller's fetch
    useError(TodoResource.update, { id: 1 }, { title: 'x' });
  });
});
