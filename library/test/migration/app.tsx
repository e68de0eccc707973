/**
 * A small app written the way `@data-client/rest`'s documentation writes one, with only the
 * import specifiers changed: a base Endpoint class, resources built with it and customised with
 * `extend`, `hookifyResource`, a `schema.Union`, a Collection nested in an entity (`nestKey`),
 * `useController()` destructured, `useSuspense` and `useLive`, under `CacheProvider` and `AsyncBoundary`
 * (data-client 0.9's provider and loading/error boundary); and what current data-client adds
 * (`schema.Query` read with `useQuery`, `useCancelling`, `controller.set`). It must type-check on every
 * supported TypeScript (the declaration tests compile it against the published declarations
 * with TypeScript 4.3, 5.0 and the newest), and it runs against the demo server.
 */

import { useState } from 'react';
import type { ResourceGenerics, ResourceOptions, RestGenerics } from 'restlens';
import { createResource, Entity, hookifyResource, RestEndpoint, schema } from 'restlens';
import {
  AsyncBoundary,
  CacheProvider,
  useCancelling,
  useController,
  useLive,
  useQuery,
  useSuspense,
} from 'restlens/react';

/** The demo app is served by the demo server: its API is on the same origin. */
export const urlPrefix = '';

/** Every request sends the session cookie (docs: "Authentication"). */
export class AuthdEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
  getRequestInit(body: any): RequestInit {
    return {
      ...super.getRequestInit(body),
      credentials: 'same-origin',
    };
  }
}

export class Todo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;

  pk() {
    return `${this.id}`;
  }

  static key = 'Todo';
}

export class User extends Entity {
  id = 0;
  name = '';
  todos: Todo[] = [];

  pk() {
    return `${this.id}`;
  }

  static key = 'User';

  static schema = {
    todos: new schema.Collection([Todo], {
      nestKey: (parent: User) => ({ userId: parent.id }),
    }),
  };
}

export const TodoResource = createResource({
  urlPrefix,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: string | number } | undefined,
  paginationField: 'page',
  optimistic: true,
  Endpoint: AuthdEndpoint,
}).extend('deleteMany', {
  path: '/todos',
  method: 'DELETE',
  body: [] as string[],
  schema: [new schema.Invalidate(Todo)],
  process(_value: unknown, ids: string[]) {
    return ids.map((id) => ({ id }));
  },
});

export const UserResource = hookifyResource(
  createResource({ urlPrefix, path: '/users/:id', schema: User, Endpoint: AuthdEndpoint }),
  function useInit(): RequestInit {
    return { headers: { 'access-token': 'demo-token' } };
  },
);

/** Docs "Function Inheritance Patterns": every resource of the app lists in pages. */
export function createPaginatedResource<O extends ResourceGenerics = any>({
  Endpoint = AuthdEndpoint,
  ...options
}: Readonly<O> & Pick<ResourceOptions, 'urlPrefix' | 'Endpoint'>) {
  const base = createResource({ ...options, Endpoint });
  return base.extend({
    getList: {
      schema: {
        results: new schema.Collection([options.schema]),
        total: 0,
        limit: 0,
        skip: 0,
      },
    },
  });
}

export class Note extends Entity {
  id = 0;
  type = 'note' as const;
  text = '';

  pk() {
    return `${this.id}`;
  }

  static key = 'Note';
}

export class Link extends Entity {
  id = 0;
  type = 'link' as const;
  url = '';

  pk() {
    return `${this.id}`;
  }

  static key = 'Link';
}

export const FeedResource = createResource({
  urlPrefix,
  path: '/feed/:id',
  schema: new schema.Union({ note: Note, link: Link }, 'type'),
  Endpoint: AuthdEndpoint,
  pollFrequency: 10_000,
});

function TodoItem({ todo }: { todo: Todo }) {
  const { fetch } = useController();
  const toggle = () =>
    fetch(TodoResource.partialUpdate, { id: todo.id }, { completed: !todo.completed });
  const remove = () => fetch(TodoResource.delete, { id: todo.id });
  return (
    <li>
      <input type="checkbox" checked={todo.completed} onChange={toggle} />
      {todo.title}
      <button type="button" onClick={remove}>
        delete
      </button>
    </li>
  );
}

export function TodoList({ userId }: { userId?: number }) {
  const todos = useSuspense(TodoResource.getList, { userId });
  const { fetch, invalidate } = useController();
  const add = () => fetch(TodoResource.getList.push, { userId }, { title: 'New todo', userId });
  const more = () => fetch(TodoResource.getList.getPage, { userId, page: 2 });
  const clear = () =>
    fetch(
      TodoResource.deleteMany,
      todos.map((todo) => todo.pk()),
    );
  return (
    <section>
      <ul>
        {todos.map((todo) => (
          <TodoItem key={todo.pk()} todo={todo} />
        ))}
      </ul>
      <button type="button" onClick={add}>
        add
      </button>
      <button type="button" onClick={more}>
        more
      </button>
      <button type="button" onClick={clear}>
        clear
      </button>
      <button type="button" onClick={() => invalidate(TodoResource.getList, { userId })}>
        reload
      </button>
    </section>
  );
}

export function UserProfile({ id }: { id: number }) {
  // The demo server embeds a user's todos when asked (`?_embed=todos`, as json-server does).
  const user = useSuspense(UserResource.useGet(), { id, _embed: 'todos' });
  return (
    <article>
      <h2>{user.name}</h2>
      <p>{user.todos.filter((todo) => !todo.completed).length} open</p>
    </article>
  );
}

export function Feed() {
  const items = useLive(FeedResource.getList);
  return (
    <ul>
      {items.map((item) =>
        item.type === 'note' ? (
          <li key={item.pk()}>{item.text}</li>
        ) : (
          <li key={item.pk()}>{item.url}</li>
        ),
      )}
    </ul>
  );
}

/** Current data-client: the open todos of a user, read from every todo the store holds. */
const openTodos = new schema.Query(new schema.All(Todo), (todos, { userId }: { userId: number }) =>
  todos.filter((todo) => todo.userId === userId && !todo.completed),
);

export function CurrentApi({ userId }: { userId: number }) {
  const open = useQuery(openTodos, { userId });
  const [id, setId] = useState(1);
  // Choosing another todo before the first arrived cancels its request.
  const todo = useSuspense(useCancelling(TodoResource.get, { id }), { id });
  const { set } = useController();
  const rename = () =>
    set(Todo, { id: todo.id }, (previous) => ({ ...previous, title: `${todo.title}!` }));
  return (
    <section>
      <p>{open?.length ?? 0} open by query</p>
      <p>detail: {todo.title}</p>
      <button type="button" onClick={rename}>
        rename
      </button>
      <button type="button" onClick={() => setId(id + 2)}>
        next
      </button>
    </section>
  );
}

export function App() {
  return (
    <CacheProvider>
      <AsyncBoundary fallback="loading…">
        <UserProfile id={1} />
        <TodoList userId={1} />
        <Feed />
        <CurrentApi userId={1} />
      </AsyncBoundary>
    </CacheProvider>
  );
}
