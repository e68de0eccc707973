import { describe, expectTypeOf, it } from 'vitest';
import {
  createResource,
  createStore,
  RestEndpoint,
  type RestEndpointOptions,
  type RestGenerics,
  schema,
} from '../../src/index.js';
import { type Id, Todo } from './support.js';

const { controller } = createStore();

describe('a RestEndpoint without a schema', () => {
  it('runs with controller.fetch; its result is untyped, or what `process` returns', () => {
    const health = new RestEndpoint({ path: '/health' });
    expectTypeOf(controller.fetch(health)).toEqualTypeOf<Promise<any>>();
    expectTypeOf(health).toBeCallableWith();

    const status = new RestEndpoint({
      path: '/status/:service',
      process(value: unknown): { up: boolean } {
        return value as { up: boolean };
      },
    });
    expectTypeOf(status).returns.resolves.toEqualTypeOf<{ up: boolean }>();
    expectTypeOf(controller.fetch(status, { service: 'db' })).toEqualTypeOf<
      Promise<{ up: boolean }>
    >();
    // @ts-expect-error the path parameter `service` is missing
    controller.fetch(status, {});
  });
});

describe('the endpoint members are typed', () => {
  const getTodo = new RestEndpoint({ path: '/users/:userId/todos/:id', schema: Todo });

  it('path, method and sideEffect keep their literal types', () => {
    expectTypeOf(getTodo.path).toEqualTypeOf<'/users/:userId/todos/:id'>();
    expectTypeOf(getTodo.method).toEqualTypeOf<'GET'>();
    expectTypeOf(getTodo.sideEffect).toEqualTypeOf<undefined>();
    const update = getTodo.extend({ method: 'PUT' });
    expectTypeOf(update.method).toEqualTypeOf<'PUT'>();
    expectTypeOf(update.sideEffect).toEqualTypeOf<true>();
    // `sideEffect` alone keeps the method; a new method works out `sideEffect` again.
    const sideEffecting = getTodo.extend({ sideEffect: true });
    expectTypeOf(sideEffecting.method).toEqualTypeOf<'GET'>();
    expectTypeOf(sideEffecting.sideEffect).toEqualTypeOf<true>();
    const created = new RestEndpoint({ path: '/todos', sideEffect: true });
    expectTypeOf(created.extend({ sideEffect: undefined }).method).toEqualTypeOf<'POST'>();
    const explicit = new RestEndpoint({ path: '/todos', method: 'GET', sideEffect: true });
    expectTypeOf(explicit.extend({ method: 'GET' }).sideEffect).toEqualTypeOf<undefined>();
  });

  it('schema is the schema it was made with (data-client: not optional)', () => {
    expectTypeOf(getTodo.schema).toEqualTypeOf<typeof Todo>();
    expectTypeOf(new RestEndpoint({ path: '/health' }).schema).toEqualTypeOf<undefined>();
  });

  it('url takes the URL (and query) parameters', () => {
    expectTypeOf(getTodo.url).parameters.toEqualTypeOf<[params: { userId: Id; id: Id }]>();
    expectTypeOf(getTodo.url).returns.toEqualTypeOf<string>();
    // @ts-expect-error `userId` is missing
    getTodo.url({ id: 1 });
  });

  it('getHeaders takes and returns HeadersInit, maybe asynchronously', () => {
    expectTypeOf(getTodo.getHeaders).parameters.toEqualTypeOf<[headers: HeadersInit]>();
    expectTypeOf(getTodo.getHeaders).returns.toEqualTypeOf<Promise<HeadersInit> | HeadersInit>();
    expectTypeOf(RestEndpoint).toBeConstructibleWith({
      path: '/todos',
      getHeaders: (headers: HeadersInit) => new Headers(headers),
    });
  });
});

describe('a custom Endpoint class (spec 2.3)', () => {
  /** The documented pattern: generic over RestGenerics, overriding getRequestInit synchronously. */
  class SameOriginEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
    override getRequestInit(body: any): RequestInit {
      return { ...super.getRequestInit(body), credentials: 'same-origin' };
    }
  }
  /** An asynchronous override, and getHeaders adding a token. */
  class TokenEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
    override async getRequestInit(body?: unknown): Promise<RequestInit> {
      return { ...(await super.getRequestInit(body)), mode: 'cors' };
    }
    override async getHeaders(headers: HeadersInit): Promise<HeadersInit> {
      return { ...headers, 'access-token': 'abc' };
    }
  }

  it('keeps the path literal and the generative types when used directly', () => {
    const getTodo = new SameOriginEndpoint({ path: '/todos/:id', schema: Todo });
    expectTypeOf(getTodo.path).toEqualTypeOf<'/todos/:id'>();
    expectTypeOf(getTodo).parameters.toEqualTypeOf<[params: { id: Id }]>();
    expectTypeOf(getTodo).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(getTodo.extend({ path: '/v2/todos/:slug' })).parameters.toEqualTypeOf<
      [params: { slug: Id }]
    >();
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    getTodo({ idd: 1 });
  });

  it('is accepted as createResource’s Endpoint, which keeps the members’ types', () => {
    for (const Endpoint of [SameOriginEndpoint, TokenEndpoint]) {
      const Todos = createResource({ path: '/todos/:id', schema: Todo, Endpoint });
      expectTypeOf(Todos.get).parameters.toEqualTypeOf<[params: { id: Id }]>();
      expectTypeOf(Todos.getList.push).returns.resolves.toEqualTypeOf<Todo>();
    }
  });

  it('a class of RestLens’ own form (a subclass with its own options type) is accepted too', () => {
    class Traced extends RestEndpoint {}
    class Options<O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {}
    expectTypeOf(createResource).toBeCallableWith({
      path: '/t/:id',
      schema: Todo,
      Endpoint: Traced,
    });
    expectTypeOf(createResource).toBeCallableWith({
      path: '/t/:id',
      schema: Todo,
      Endpoint: Options,
    });
  });
});

describe('batch delete: a DELETE member with a declared body', () => {
  const Todos = createResource({ path: '/todos/:id', schema: Todo }).extend('deleteMany', {
    path: '/todos',
    method: 'DELETE',
    body: [] as string[],
    schema: [new schema.Invalidate(Todo)],
  });

  it('takes the body and resolves to the entities it removed', () => {
    expectTypeOf(Todos.deleteMany).toBeCallableWith(['1', '2']);
    expectTypeOf(controller.fetch(Todos.deleteMany, ['1'])).toEqualTypeOf<Promise<Todo[]>>();
    // @ts-expect-error the body is a list of ids (strings)
    Todos.deleteMany([1, 2]);
  });

  it('a plain delete takes no body and resolves to the entity', () => {
    expectTypeOf(controller.fetch(Todos.delete, { id: 1 })).toEqualTypeOf<Promise<Todo>>();
    // @ts-expect-error delete takes no body
    Todos.delete({ id: 1 }, ['1']);
  });
});
