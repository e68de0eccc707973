import { describe, expectTypeOf, it } from 'vitest';
import {
  type Controller,
  createResource,
  createStore,
  type Denormalize,
  type EndpointExtraOptions,
  type EndpointInterface,
  Entity,
  type ExpiryStatus,
  type FetchAction,
  type FetchFunction,
  type GetEndpoint,
  type HookResource,
  hookifyResource,
  type InvalidateAction,
  type MutateEndpoint,
  type NetworkError,
  type PaginationFieldEndpoint,
  type PolymorphicInterface,
  type ResetAction,
  type ResolveType,
  type ResourceGenerics,
  RestEndpoint,
  type RestGenerics,
  type Schema,
  type ShortenPath,
  type State,
  schema,
} from '../../src/index.js';
import type * as RestLensReact from '../../src/react/index.js';
import { Todo, TodoResource } from './support.js';

describe('the names data-client users import', () => {
  it('RestGenerics and ResourceGenerics describe the typing options', () => {
    expectTypeOf<{ path: '/todos/:id'; schema: typeof Todo }>().toExtend<ResourceGenerics>();
    expectTypeOf<{
      path: '/todos';
      method: 'POST';
      body: { title: string };
    }>().toExtend<RestGenerics>();
  });

  it('GetEndpoint, ShortenPath and PaginationFieldEndpoint are the members’ types', () => {
    expectTypeOf(TodoResource.get).toEqualTypeOf<
      GetEndpoint<{ path: '/todos/:id'; schema: typeof Todo }>
    >();
    expectTypeOf<ShortenPath<'/groups/:group/todos/:id'>>().toEqualTypeOf<'/groups/:group/todos'>();
    expectTypeOf<ShortenPath<'/todos/:id'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf(TodoResource.getList.getPage).toEqualTypeOf<
      PaginationFieldEndpoint<typeof TodoResource.getList, 'page'>
    >();
  });

  it('FetchFunction and HookResource are data-client’s names too', () => {
    expectTypeOf<(id: number) => Promise<Todo>>().toExtend<FetchFunction>();
    const hooks: HookResource<typeof TodoResource> = hookifyResource(TodoResource, () => ({}));
    expectTypeOf(hooks.useGet).returns.toEqualTypeOf(TodoResource.get);
  });

  it('GetEndpoint types an endpoint built without naming its method (data-client’s type test)', () => {
    const get = new RestEndpoint({ path: '/todos/:id', schema: Todo });
    expectTypeOf(get).toEqualTypeOf<GetEndpoint<{ path: '/todos/:id'; schema: typeof Todo }>>();
    const list: GetEndpoint<{
      path: `${string}:${string}`;
      schema: schema.Collection<[typeof Todo]>;
    }> = new RestEndpoint({
      path: '' as `${string}:${string}`,
      schema: new schema.Collection([Todo]),
    });
    expectTypeOf(list).toBeCallableWith({ hi: 5 });
  });

  it('MutateEndpoint types a mutation: POST unless its options name another method', () => {
    const create = new RestEndpoint({
      path: '/todos',
      method: 'POST',
      schema: Todo,
      body: {} as { title: string },
    });
    const typed: MutateEndpoint<{ path: '/todos'; schema: typeof Todo; body: { title: string } }> =
      create;
    expectTypeOf(typed).toBeCallableWith({ title: 'x' });
    expectTypeOf(typed).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(typed.sideEffect).toEqualTypeOf<true>();
    expectTypeOf(TodoResource.update).toEqualTypeOf<
      MutateEndpoint<{
        path: '/todos/:id';
        schema: typeof Todo;
        method: 'PUT';
        body: { title: string; completed?: boolean };
      }>
    >();
  });
});

describe('schema is a namespace of the schema classes', () => {
  it('its names are values and types', () => {
    const invalidate: schema.Invalidate<typeof Todo> = new schema.Invalidate(Todo);
    const list: schema.Collection<(typeof Todo)[]> = new schema.Collection([Todo]);
    const array: schema.Array<typeof Todo> = new schema.Array(Todo);
    expectTypeOf(invalidate.entity).toEqualTypeOf<typeof Todo>();
    expectTypeOf(list.schema).toEqualTypeOf<schema.Array<typeof Todo>>();
    expectTypeOf(array).toExtend<PolymorphicInterface>();
    expectTypeOf(schema.Values).toBeConstructibleWith(Todo);
    expectTypeOf(schema.Object).toBeConstructibleWith({ todo: Todo });
  });

  it('a Union reads as any of its entities', () => {
    class Note extends Entity {
      id = 0;
      text = '';
      override pk() {
        return this.id;
      }
    }
    const item = new schema.Union({ todo: Todo, note: Note }, 'type');
    const feed = new RestEndpoint({ path: '/feed', schema: new schema.Collection([item]) });
    expectTypeOf(feed).returns.resolves.toEqualTypeOf<(Todo | Note)[]>();
    const Feed = createResource({ path: '/feed/:id', schema: item });
    expectTypeOf(Feed.get).returns.resolves.toEqualTypeOf<Todo | Note>();
  });
});

describe('custom Collection classes (spec 2.4)', () => {
  /** The reference's documented generic form. */
  class OrderedCollection<
    S extends any[] | PolymorphicInterface = any,
    Parent extends any[] = [urlParams: any, body?: any],
  > extends schema.Collection<S, Parent> {
    override nonFilterArgumentKeys(key: string) {
      return key === 'orderBy';
    }
  }
  /** A plain subclass. */
  class SortedCollection extends schema.Collection {
    override nonFilterArgumentKeys(key: string) {
      return key.startsWith('sort');
    }
  }

  it('either is accepted as the Collection option; the list still reads as entities', () => {
    for (const Collection of [OrderedCollection, SortedCollection]) {
      const Todos = createResource({ path: '/todos/:id', schema: Todo, Collection });
      expectTypeOf(Todos.getList).returns.resolves.toEqualTypeOf<Todo[]>();
    }
  });

  it('a typed argsKey is accepted', () => {
    const byUser = new schema.Collection([Todo], {
      argsKey: (urlParams: { userId?: number }) => ({ userId: urlParams.userId }),
    });
    expectTypeOf(byUser.key).toEqualTypeOf<string>();
  });

  it('the createCollectionFilter option gets the URL params and body as data-client types them', () => {
    const byUser = new schema.Collection([Todo], {
      createCollectionFilter:
        (...args) =>
        (rowArgs) =>
          `${args[0][rowArgs.userId ?? '']}` === rowArgs.userId || `${args[1]?.userId}` === 'x',
    });
    expectTypeOf(byUser.createCollectionFilter).returns.toEqualTypeOf<
      (rowArgs: Readonly<Record<string, string>>) => boolean
    >();
  });
});

describe('entities', () => {
  it('fromJS builds an instance from a part of its fields', () => {
    expectTypeOf(Todo.fromJS({ title: 'x' })).toEqualTypeOf<Todo>();
    expectTypeOf(Todo.fromJS()).toEqualTypeOf<Todo>();
    // @ts-expect-error `titel` is not a field of Todo
    Todo.fromJS({ titel: 'x' });
    // @ts-expect-error `title` is a string
    Todo.fromJS({ title: 5 });
  });

  it('an object schema reads its placeholders as their types', async () => {
    const { controller } = createStore();
    const Paged = new RestEndpoint({
      path: '/todos/paged',
      schema: { results: new schema.Collection([Todo]), total: 0, next: '', done: false },
    });
    expectTypeOf(await controller.fetch(Paged)).toEqualTypeOf<{
      results: Todo[];
      total: number;
      next: string;
      done: boolean;
    }>();
  });
});

describe('restlens/react: what @data-client/react re-exports from its core', () => {
  it('names the same types as restlens', () => {
    expectTypeOf<RestLensReact.Controller>().toEqualTypeOf<Controller>();
    expectTypeOf<RestLensReact.ExpiryStatus>().toEqualTypeOf<ExpiryStatus>();
    expectTypeOf<RestLensReact.State>().toEqualTypeOf<State>();
    expectTypeOf<RestLensReact.NetworkError>().toEqualTypeOf<NetworkError>();
    expectTypeOf<RestLensReact.Schema>().toEqualTypeOf<Schema>();
    expectTypeOf<RestLensReact.EndpointInterface>().toEqualTypeOf<EndpointInterface>();
    expectTypeOf<RestLensReact.FetchFunction>().toEqualTypeOf<FetchFunction>();
    expectTypeOf<RestLensReact.EndpointExtraOptions>().toEqualTypeOf<EndpointExtraOptions>();
    expectTypeOf<RestLensReact.FetchAction>().toEqualTypeOf<FetchAction>();
    expectTypeOf<RestLensReact.InvalidateAction>().toEqualTypeOf<InvalidateAction>();
    expectTypeOf<RestLensReact.ResetAction>().toEqualTypeOf<ResetAction>();
    expectTypeOf<RestLensReact.ResolveType<typeof TodoResource.get>>().toEqualTypeOf<
      ResolveType<typeof TodoResource.get>
    >();
    expectTypeOf<RestLensReact.Denormalize<typeof Todo>>().toEqualTypeOf<
      Denormalize<typeof Todo>
    >();
  });
});
