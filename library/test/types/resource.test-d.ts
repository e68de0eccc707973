import { describe, expectTypeOf, it } from 'vitest';
import { createResource, RestEndpoint, schema } from '../../src/index.js';
import { type Id, Todo, type TodoBody, TodoResource } from './support.js';

/** Two URL parameters: the list members keep `group`. */
const GroupTodoResource = createResource({
  path: '/groups/:group/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
  body: {} as TodoBody,
  paginationField: 'cursor',
});

/** No body, searchParams or paginationField declared. */
const PlainResource = createResource({ path: '/todos/:id', schema: Todo });

describe('URL arguments come from the path', () => {
  it('`:id` is a required parameter of get, update, partialUpdate and delete', () => {
    expectTypeOf(TodoResource.get).parameters.toEqualTypeOf<[params: { id: Id }]>();
    expectTypeOf(TodoResource.delete).parameters.toEqualTypeOf<[params: { id: Id }]>();
    expectTypeOf(TodoResource.get).toBeCallableWith({ id: 1 });
    expectTypeOf(TodoResource.get).toBeCallableWith({ id: '1' });
    expectTypeOf(TodoResource.update).parameter(0).toEqualTypeOf<{ id: Id }>();
    expectTypeOf(TodoResource.partialUpdate).parameter(0).toEqualTypeOf<{ id: Id }>();

    // @ts-expect-error the path parameter `id` is missing
    TodoResource.get({});
    // @ts-expect-error `idd` is not a parameter of '/todos/:id'
    TodoResource.get({ idd: 1 });
    // @ts-expect-error get needs its URL parameters
    TodoResource.get();
    // @ts-expect-error a URL parameter is a string or a number
    TodoResource.get({ id: true });
    // @ts-expect-error `id` is missing for delete too
    TodoResource.delete({});
  });

  it('every parameter of a longer path is required; the list members drop the last one', () => {
    expectTypeOf(GroupTodoResource.get).parameters.toEqualTypeOf<[params: { group: Id; id: Id }]>();
    // `.branded` compares the flattened object, whatever intersections build it.
    expectTypeOf(GroupTodoResource.getList).parameters.branded.toEqualTypeOf<
      [params: { group: Id; userId?: number }]
    >();
    expectTypeOf(GroupTodoResource.getList).toBeCallableWith({ group: 'a', userId: 1 });

    // @ts-expect-error `group` is missing
    GroupTodoResource.get({ id: 1 });
    // @ts-expect-error the list needs `group`
    GroupTodoResource.getList({ userId: 1 });
    // @ts-expect-error the list needs its arguments at all
    GroupTodoResource.getList();
    // @ts-expect-error push needs `group` as well
    GroupTodoResource.getList.push({ userId: 1 }, { title: 'x' });
  });

  it('`:name?` is an optional parameter', () => {
    const getPost = new RestEndpoint({ path: '/users/:userId/posts/:postId?', schema: Todo });
    expectTypeOf(getPost).parameters.toEqualTypeOf<[params: { userId: Id; postId?: Id }]>();
    expectTypeOf(getPost).toBeCallableWith({ userId: 1 });
    expectTypeOf(getPost).toBeCallableWith({ userId: 1, postId: 'p' });

    // @ts-expect-error the required `userId` is missing
    getPost({ postId: 2 });
  });

  it('a path without parameters (with literal query text) takes no required arguments', () => {
    const sorted = new RestEndpoint({ path: '/todos\\?sort=asc', schema: [Todo] });
    expectTypeOf(sorted).toBeCallableWith();
    expectTypeOf(sorted).toBeCallableWith({});
  });
});

describe('the query comes from searchParams', () => {
  it('getList takes the declared query, and only it', () => {
    expectTypeOf(TodoResource.getList).parameters.toEqualTypeOf<[params?: { userId?: number }]>();
    expectTypeOf(TodoResource.getList).toBeCallableWith();
    expectTypeOf(TodoResource.getList).toBeCallableWith({ userId: 1 });

    // @ts-expect-error `userId` is a number
    TodoResource.getList({ userId: 'one' });
    // @ts-expect-error `user` is not a declared query parameter
    TodoResource.getList({ user: 1 });
    // @ts-expect-error push takes the same query: `user` is still wrong
    TodoResource.getList.push({ user: 1 }, { title: 'x' });
  });

  it('without searchParams the list takes any query, but only a query', () => {
    // A direct call: unlike toBeCallableWith it checks object literals for unknown keys.
    expectTypeOf(PlainResource.getList({ anything: 'goes', page: 2 })).resolves.toEqualTypeOf<
      Todo[]
    >();
    expectTypeOf(PlainResource.getList({ userId: undefined })).resolves.toEqualTypeOf<Todo[]>();
    // @ts-expect-error a number is not a query
    PlainResource.getList(5);
    // Nested values are sent in brackets (`?filter[done]=true`); a function is no query value.
    expectTypeOf(PlainResource.getList({ filter: { done: true } })).resolves.toEqualTypeOf<
      Todo[]
    >();
    // @ts-expect-error a function is no query value
    PlainResource.getList({ filter: () => true });
  });
});

describe('the body comes from body', () => {
  it('push and unshift take (query, body) or (body)', () => {
    expectTypeOf(TodoResource.getList.push).toBeCallableWith({ userId: 1 }, { title: 'x' });
    expectTypeOf(TodoResource.getList.push).toBeCallableWith({ title: 'x', completed: true });
    expectTypeOf(TodoResource.getList.unshift).toBeCallableWith({}, { title: 'x' });

    // @ts-expect-error `title` is a string
    TodoResource.getList.push({}, { title: 1 });
    // @ts-expect-error `titel` is not a field of the body
    TodoResource.getList.push({}, { titel: 'x' });
    // @ts-expect-error the body lacks the required `title`
    TodoResource.getList.unshift({}, { completed: true });
    // @ts-expect-error push needs a body
    TodoResource.getList.push();
  });

  it('update takes (params, body); partialUpdate a part of the body', () => {
    expectTypeOf(TodoResource.update).parameters.toEqualTypeOf<
      [params: { id: Id }, body: TodoBody | FormData]
    >();
    expectTypeOf(TodoResource.partialUpdate)
      .parameter(1)
      .toEqualTypeOf<Partial<TodoBody> | FormData>();
    expectTypeOf(TodoResource.partialUpdate).toBeCallableWith({ id: 1 }, { completed: true });
    expectTypeOf(TodoResource.partialUpdate).toBeCallableWith({ id: 1 }, {});

    // @ts-expect-error `title` is a string
    TodoResource.update({ id: 1 }, { title: 1 });
    // @ts-expect-error the body lacks the required `title`
    TodoResource.update({ id: 1 }, { completed: true });
    // @ts-expect-error update needs its URL parameters before the body
    TodoResource.update({ title: 'x' });
    // @ts-expect-error `completed` is a boolean
    TodoResource.partialUpdate({ id: 1 }, { completed: 'yes' });
    // @ts-expect-error `done` is not a field of the body
    TodoResource.partialUpdate({ id: 1 }, { done: true });
  });

  it('GET and DELETE members take no body', () => {
    // @ts-expect-error get takes no body
    TodoResource.get({ id: 1 }, { title: 'x' });
    // @ts-expect-error delete takes no body
    TodoResource.delete({ id: 1 }, { title: 'x' });
  });

  it('without a declared body the body is a part of the entity', () => {
    expectTypeOf(PlainResource.update).parameter(1).toEqualTypeOf<Partial<Todo> | FormData>();
    expectTypeOf(PlainResource.partialUpdate)
      .parameter(1)
      .toEqualTypeOf<Partial<Todo> | FormData>();
    expectTypeOf(PlainResource.getList.push).toBeCallableWith({ title: 'x', completed: true });
    expectTypeOf(PlainResource.update({ id: 1 }, { title: 'x' })).resolves.toEqualTypeOf<Todo>();
    // @ts-expect-error `whatever` is not a field of Todo
    PlainResource.update({ id: 1 }, { whatever: true });
    // @ts-expect-error `completed` is a boolean
    PlainResource.partialUpdate({ id: 1 }, { completed: 'yes' });
    // @ts-expect-error `titel` is not a field of Todo
    PlainResource.getList.push({ titel: 'x' });
    // @ts-expect-error `title` is a string
    PlainResource.getList.unshift({}, { title: 5 });
  });

  it('a FormData body is accepted too', () => {
    const form = new FormData();
    expectTypeOf(TodoResource.update).toBeCallableWith({ id: 1 }, form);
    expectTypeOf(TodoResource.partialUpdate).toBeCallableWith({ id: 1 }, form);
    expectTypeOf(TodoResource.getList.push).toBeCallableWith({ userId: 1 }, form);
    expectTypeOf(PlainResource.getList.push).toBeCallableWith(form);
  });
});

describe('getPage needs the pagination field', () => {
  it('takes the list query plus the pagination field', () => {
    expectTypeOf(TodoResource.getList.getPage).toBeCallableWith({ page: 2 });
    expectTypeOf(TodoResource.getList.getPage).toBeCallableWith({ page: '2', userId: 1 });
    expectTypeOf(GroupTodoResource.getList.getPage).toBeCallableWith({
      group: 'a',
      cursor: 'next',
    });

    // @ts-expect-error the pagination field `page` is missing
    TodoResource.getList.getPage({ userId: 1 });
    // @ts-expect-error no arguments at all: `page` is missing
    TodoResource.getList.getPage();
    // @ts-expect-error `pageSize` is not a declared query parameter
    TodoResource.getList.getPage({ page: 2, pageSize: 10 });
    // @ts-expect-error the pagination field of this resource is `cursor`
    GroupTodoResource.getList.getPage({ group: 'a', page: 2 });
    // @ts-expect-error the shortened path still needs `group`
    GroupTodoResource.getList.getPage({ cursor: 'next' });
  });

  it('list.paginated(field) takes the field too, as getPage does', () => {
    const list = new RestEndpoint({
      path: '/todos',
      searchParams: {} as { userId?: number },
      schema: new schema.Collection([Todo]),
    });
    const page = list.paginated('cursor');
    expectTypeOf(page).toBeCallableWith({ userId: 1, cursor: 2 });
    expectTypeOf(page).returns.resolves.toEqualTypeOf<Todo[]>();
    // @ts-expect-error the pagination field is required
    page({ userId: 1 });
  });

  it('list.paginated(removeCursor) takes what removeCursor takes (data-client’s type test)', () => {
    const list = new RestEndpoint({
      path: '/groups/:group/todos',
      schema: { nextPage: '', data: { results: new schema.Collection([Todo]) } },
    });
    const page = list.paginated(
      ({ cursor, ...rest }: { cursor: string | number; group: string | number }) => [rest],
    );
    expectTypeOf(page).toBeCallableWith({ cursor: 2, group: 'a' });
    expectTypeOf(page).returns.resolves.toEqualTypeOf<{
      nextPage: string;
      data: { results: Todo[] };
    }>();
    // @ts-expect-error the cursor is required by removeCursor
    page({ group: 'a' });
  });

  it('exists only when paginationField is given', () => {
    expectTypeOf(PlainResource.getList.getPage).toEqualTypeOf<undefined>();
    // @ts-expect-error there is no getPage to call
    PlainResource.getList.getPage({ page: 2 });
  });

  it('without declared searchParams other query keys are accepted, the field is still required', () => {
    const Paged = createResource({ path: '/todos/:id', schema: Todo, paginationField: 'skip' });
    expectTypeOf(Paged.getList.getPage({ skip: 10, limit: 5 })).resolves.toEqualTypeOf<Todo[]>();
    // @ts-expect-error the pagination field `skip` is missing
    Paged.getList.getPage({ limit: 5 });
  });
});

describe('results come from the schema', () => {
  it('entity members resolve to entity instances, list members to arrays of them', () => {
    expectTypeOf(TodoResource.get).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(TodoResource.getList).returns.resolves.toEqualTypeOf<Todo[]>();
    expectTypeOf(TodoResource.getList.push).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(TodoResource.getList.unshift).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(TodoResource.getList.getPage).returns.resolves.toEqualTypeOf<Todo[]>();
    expectTypeOf(TodoResource.update).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(TodoResource.partialUpdate).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(TodoResource.delete).returns.resolves.toEqualTypeOf<Todo>();
    expectTypeOf(GroupTodoResource.getList).returns.resolves.toEqualTypeOf<Todo[]>();
    // Instances: the entity's methods are there.
    expectTypeOf(TodoResource.get).returns.resolves.toHaveProperty('pk');
    expectTypeOf(TodoResource.get).returns.resolves.not.toBeAny();
  });

  it('an object schema added with extend() reads back as the object of its members; placeholders widen', () => {
    const Paged = TodoResource.extend('getPaged', {
      path: '/todos/paged\\?v=2',
      schema: { results: new schema.Collection([Todo]), total: 0, next: '' },
    });
    expectTypeOf(Paged.getPaged).returns.resolves.toEqualTypeOf<{
      results: Todo[];
      total: number;
      next: string;
    }>();
    expectTypeOf(Paged.getPaged).toBeCallableWith();
    // The other members are unchanged.
    expectTypeOf(Paged.get).returns.resolves.toEqualTypeOf<Todo>();
  });

  it('a getList overridden with an object schema pages into the same object type', () => {
    const Paged = PlainResource.extend({
      getList: {
        path: '/paged/todos',
        schema: { results: new schema.Collection([Todo]), total: 0, limit: 0, skip: 0 },
        paginationField: 'skip',
      },
    });
    type Page = { results: Todo[]; total: number; limit: number; skip: number };
    expectTypeOf(Paged.getList).returns.resolves.toEqualTypeOf<Page>();
    expectTypeOf(Paged.getList.getPage).returns.resolves.toEqualTypeOf<Page>();
    expectTypeOf(Paged.getList.getPage({ limit: 2, skip: 2 })).resolves.toEqualTypeOf<Page>();
    // @ts-expect-error the pagination field `skip` is missing
    Paged.getList.getPage({ limit: 2 });
  });

  it('extend() keeps the generative types of the members it overrides or adds', () => {
    const Searched = TodoResource.extend({ getList: { searchParams: {} as { q: string } } });
    expectTypeOf(Searched.getList).parameters.toEqualTypeOf<[params: { q: string }]>();
    expectTypeOf(Searched.getList).returns.resolves.toEqualTypeOf<Todo[]>();
    // @ts-expect-error the override made `q` required
    Searched.getList({});

    const ByUser = TodoResource.extend('getByUser', {
      path: '/users/:userId/todos',
      schema: [Todo],
    });
    expectTypeOf(ByUser.getByUser).parameters.toEqualTypeOf<[params: { userId: Id }]>();
    expectTypeOf(ByUser.getByUser).returns.resolves.toEqualTypeOf<Todo[]>();
    // @ts-expect-error `userId` is missing
    ByUser.getByUser({});

    const Built = TodoResource.extend((base) => ({
      getDone: base.getList.extend({ path: '/owners/:owner/done' }),
    }));
    expectTypeOf(Built.getDone).parameters.branded.toEqualTypeOf<
      [params: { owner: Id; userId?: number }]
    >();
    expectTypeOf(Built.getDone).returns.resolves.toEqualTypeOf<Todo[]>();
  });

  it("extend with empty options keeps every type (data-client’s `extend('justget', {})`)", () => {
    const Copied = TodoResource.extend('justget', {});
    expectTypeOf(Copied.justget).toEqualTypeOf(TodoResource.get.extend({}));
    expectTypeOf(Copied.justget).parameters.toEqualTypeOf<[params: { id: Id }]>();
    expectTypeOf(Copied.justget.method).toEqualTypeOf<'GET'>();
    // @ts-expect-error `id` is missing
    Copied.justget({});
  });

  it('methods in the options of extend() get typed parameters', () => {
    TodoResource.extend('toggle', {
      method: 'POST',
      getOptimisticResponse(snap, params) {
        expectTypeOf(snap.fetchedAt).toEqualTypeOf<number>();
        return params;
      },
    });
  });

  it("getList's list schema narrows to schema.Array, its members' schema kept", () => {
    const list = TodoResource.getList.schema.schema;
    if (list instanceof schema.Array) expectTypeOf(list.schema).toEqualTypeOf<typeof Todo>();
  });
});
