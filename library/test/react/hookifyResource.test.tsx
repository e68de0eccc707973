// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type HookifiedResource, hookifyResource, resource } from '../../src/index.js';
import { useCache, useSuspense } from '../../src/react/index.js';
import type { Store } from '../../src/store/createStore.js';
import { serverPerTest } from '../helpers/perTest.js';
import {
  App,
  FallbackLog,
  renderInApp,
  requestLines,
  Todo,
  type TodoBody,
  todoResource,
} from './support.js';

const server = serverPerTest();
let TodoResource: ReturnType<typeof todoResource>;
let TodoHooks: ReturnType<typeof hookifyTodos>;

/** The access token of the signed-in user, as an app would keep it. */
const TokenContext = createContext('abc');
const useAuthInit = () => ({ headers: { 'access-token': useContext(TokenContext) } });

function hookifyTodos(resource: ReturnType<typeof todoResource>) {
  return hookifyResource(resource, useAuthInit);
}

beforeEach(() => {
  TodoResource = todoResource(server.url);
  TodoHooks = hookifyTodos(TodoResource);
});
afterEach(cleanup);

/** Every endpoint the hooks return, as one render saw them. */
function useAllEndpoints() {
  const getList = TodoHooks.useGetList();
  return {
    get: TodoHooks.useGet(),
    getList,
    push: getList.push,
    unshift: getList.unshift,
    getPage: getList.getPage,
    update: TodoHooks.useUpdate(),
    partialUpdate: TodoHooks.usePartialUpdate(),
    delete: TodoHooks.useDelete(),
  };
}
type AllEndpoints = ReturnType<typeof useAllEndpoints>;

/** What the rendered components saw last: the hooked endpoints, and a way to change the token. */
let latest: { endpoints?: AllEndpoints; setToken: (token: string) => void } = {
  setToken: () => {},
};
/** Values the `Lists` component read, render by render. */
let lists: unknown[] = [];
beforeEach(() => {
  latest = { setToken: () => {} };
  lists = [];
});

function Capture() {
  latest.endpoints = useAllEndpoints();
  return null;
}

function TokenProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState('abc');
  latest.setToken = setToken;
  return <TokenContext.Provider value={token}>{children}</TokenContext.Provider>;
}

/** Renders the hooks inside a token provider whose value the test can change. */
function renderHooks(store: Store) {
  render(
    <TokenProvider>
      <App store={store} log={new FallbackLog()}>
        <Capture />
      </App>
    </TokenProvider>,
  );
  return latest;
}

/** Todo `id` read with useSuspense through the `useGet` hook of `hooks`. */
function HookedTitle({ hooks, id }: { hooks: typeof TodoHooks; id: number }) {
  const todo = useSuspense(hooks.useGet(), { id });
  return <p>{todo.title}</p>;
}

/** The hooked list and the plain member's cached list, side by side. */
function Lists() {
  const hooked = useSuspense(TodoHooks.useGetList(), { userId: 1 });
  const plain = useCache(TodoResource.getList, { userId: 1 });
  lists.push(hooked, plain);
  return <p>{hooked.map((todo) => todo.title).join(', ')}</p>;
}

describe('hookifyResource: the hooks', () => {
  it('has one hook per member of the resource, and none for extend', () => {
    expect(Object.keys(TodoHooks).sort()).toEqual([
      'useCreate',
      'useDelete',
      'useGet',
      'useGetList',
      'usePartialUpdate',
      'useUpdate',
    ]);
    for (const hook of Object.values(TodoHooks)) expect(typeof hook).toBe('function');
  });

  it('each hook returns the matching endpoint: method, name and URL of the member', () => {
    const { endpoints } = renderHooks(createStore());
    const all = endpoints!;
    const shape = (endpoint: { method: string; name: string }) =>
      `${endpoint.method} ${endpoint.name}`;
    expect(shape(all.get)).toBe('GET Todo.get');
    expect(shape(all.getList)).toBe('GET Todo.getList');
    expect(shape(all.push)).toBe('POST Todo.getList.push');
    expect(shape(all.unshift)).toBe('POST Todo.getList.unshift');
    expect(shape(all.getPage)).toBe('GET Todo.getList.getPage');
    expect(shape(all.update)).toBe('PUT Todo.update');
    expect(shape(all.partialUpdate)).toBe('PATCH Todo.partialUpdate');
    expect(shape(all.delete)).toBe('DELETE Todo.delete');
    expect(all.get.url({ id: 5 })).toBe(`${server.url}/todos/5`);
    expect(all.getList.url({ userId: 2 })).toBe(`${server.url}/todos?userId=2`);
  });
});

describe('hookifyResource: useInit request settings', () => {
  it("sends useInit()'s header with every member, push, unshift and getPage included", async () => {
    const store = createStore();
    const { endpoints } = renderHooks(store);
    const all = endpoints!;
    const run = store.controller.fetch.bind(store.controller);

    const one = await run(all.get, { id: 1 });
    const list = await run(all.getList, { userId: 1 });
    const pushed = await run(all.push, { userId: 1 }, { title: 'pushed' });
    const unshifted = await run(all.unshift, { userId: 1 }, { title: 'unshifted' });
    const page = await run(all.getPage, { page: 2 });
    const updated = await run(all.update, { id: 2 }, { title: 'replaced', userId: 1 });
    const patched = await run(all.partialUpdate, { id: 2 }, { completed: false });
    await run(all.delete, { id: 3 });

    expect(requestLines(server.requests)).toEqual([
      'GET /todos/1',
      'GET /todos?userId=1',
      'POST /todos?userId=1',
      'POST /todos?userId=1',
      'GET /todos?page=2',
      'PUT /todos/2',
      'PATCH /todos/2',
      'DELETE /todos/3',
    ]);
    for (const request of server.requests) {
      expect(request.headers['access-token'], `${request.method} ${request.url}`).toBe('abc');
    }
    // The init's headers merge with the defaults: bodies are still sent as JSON.
    for (const request of server.requests.filter((r) => r.body !== '')) {
      expect(request.headers['content-type']).toBe('application/json');
    }
    expect(JSON.parse(server.requests[2]!.body)).toEqual({ title: 'pushed' });
    expect(JSON.parse(server.requests[6]!.body)).toEqual({ completed: false });

    // The hooked endpoints still read and write the store like the members do.
    expect(one).toBeInstanceOf(Todo);
    expect(list.map((todo) => todo.id)).toEqual([1, 2]);
    expect(pushed.title).toBe('pushed');
    expect(unshifted.title).toBe('unshifted');
    expect(page.map((todo) => todo.id)).toEqual([3, 4]);
    expect(updated.title).toBe('replaced');
    expect(patched.completed).toBe(false);
    const state = store.getState();
    const stored = store.controller.getResponse(TodoResource.getList, { userId: 1 }, state).data;
    expect(stored?.map((todo) => todo.title)).toEqual([
      'unshifted',
      'write tests',
      'replaced',
      'pushed',
    ]);
    expect(store.controller.getResponse(TodoResource.get, { id: 3 }, state).data).toBeUndefined();
  });

  it('the plain members send no such header (the header comes from the hooks)', async () => {
    const store = createStore();
    await store.controller.fetch(TodoResource.get, { id: 1 });
    await store.controller.fetch(TodoResource.getList.push, {}, { title: 'plain' });
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) expect(request.headers['access-token']).toBeUndefined();
  });

  it('follows the context: a new token is sent after the provider changes it', async () => {
    const store = createStore();
    const latest = renderHooks(store);
    act(() => latest.setToken('xyz'));
    await store.controller.fetch(latest.endpoints!.getList.push, {}, { title: 'as xyz' });
    await store.controller.fetch(latest.endpoints!.get, { id: 1 });
    expect(server.requests.map((request) => request.headers['access-token'])).toEqual([
      'xyz',
      'xyz',
    ]);
  });

  it('useSuspense with a hooked endpoint fetches with the header and renders the data', async () => {
    render(
      <TokenContext.Provider value="from-context">
        <App log={new FallbackLog()}>
          <HookedTitle hooks={TodoHooks} id={2} />
        </App>
      </TokenContext.Provider>,
    );
    expect(await screen.findByText('fix bugs')).toBeTruthy();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['access-token']).toBe('from-context');
  });

  it('without useInit the hooks return working endpoints that add no headers', async () => {
    const Plain = hookifyResource(TodoResource);
    renderInApp(<HookedTitle hooks={Plain} id={3} />);
    expect(await screen.findByText('ship')).toBeTruthy();
    expect(requestLines(server.requests)).toEqual(['GET /todos/3']);
    expect(server.requests[0]!.headers['access-token']).toBeUndefined();
  });
});

describe('hookifyResource: keys are unchanged', () => {
  it('every hooked endpoint has the same key as its member', () => {
    const all = renderHooks(createStore()).endpoints!;
    expect(all.get.key({ id: 1 })).toBe(TodoResource.get.key({ id: 1 }));
    expect(all.getList.key({ userId: 1 })).toBe(TodoResource.getList.key({ userId: 1 }));
    expect(all.getPage.key({ page: 2 })).toBe(TodoResource.getList.getPage.key({ page: 2 }));
    expect(all.push.key({}, { title: 'x' })).toBe(
      TodoResource.getList.push.key({}, { title: 'x' }),
    );
    expect(all.update.key({ id: 1 }, {})).toBe(TodoResource.update.key({ id: 1 }, {}));
    expect(all.delete.key({ id: 1 })).toBe(TodoResource.delete.key({ id: 1 }));
  });

  it('a hooked getList and the plain one share the cached result', async () => {
    const store = createStore();
    await store.controller.fetch(TodoResource.getList, { userId: 1 });
    const log = renderInApp(<Lists />, { store });
    // Served from the store at once: no fallback and no request from the hooked endpoint.
    expect(screen.getByText('write tests, fix bugs')).toBeTruthy();
    expect(log.shown).toBe(0);
    expect(lists[0]).toBe(lists[1]);

    // A push through the hooked list lands in the list the plain member reads.
    const push = renderHooks(store).endpoints!.push;
    await act(() => store.controller.fetch(push, { userId: 1 }, { title: 'third' }));
    expect(screen.getByText('write tests, fix bugs, third')).toBeTruthy();
    expect(
      store.controller
        .getResponse(TodoResource.getList, { userId: 1 }, store.getState())
        .data?.map((todo) => todo.title),
    ).toEqual(['write tests', 'fix bugs', 'third']);
    expect(requestLines(server.requests)).toEqual(['GET /todos?userId=1', 'POST /todos?userId=1']);
  });
});

describe('hookifyResource of a resource(): the list moves', () => {
  /** `/todos/:id` made by `resource()`, whose list has `remove` and `move`. */
  function currentTodos() {
    return resource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      searchParams: {} as { userId?: number },
      body: {} as TodoBody,
    });
  }
  type CurrentTodos = ReturnType<typeof currentTodos>;
  /** The list endpoint the component's hook returned: its moves are typed as the member's. */
  let hooked: CurrentTodos['getList'];
  function CaptureList({ hooks }: { hooks: HookifiedResource<CurrentTodos> }) {
    hooked = hooks.useGetList();
    return null;
  }

  it("useGetList().remove and .move send useInit()'s header and change the lists", async () => {
    const Todos = currentTodos();
    const hooks = hookifyResource(Todos, useAuthInit);
    const store = createStore();
    render(
      <App store={store} log={new FallbackLog()}>
        <CaptureList hooks={hooks} />
      </App>,
    );
    const { controller, getState } = store;
    await controller.fetch(Todos.getList, { userId: 1 });
    await controller.fetch(Todos.getList, { userId: 2 });
    await controller.fetch(hooked.move, { id: 1 }, { userId: 2 });
    await controller.fetch(hooked.remove, { userId: 1 }, { id: 2 });
    expect(hooked.remove.name).toBe('Todo.getList.remove');
    expect(hooked.move.name).toBe('Todo.getList.move');
    expect(requestLines(server.requests.slice(2))).toEqual([
      'PATCH /todos/1',
      'PATCH /todos?userId=1',
    ]);
    for (const request of server.requests.slice(2))
      expect(request.headers['access-token']).toBe('abc');
    const read = (userId: number) =>
      controller.getResponse(Todos.getList, { userId }, getState()).data?.map((todo) => todo.id);
    expect(read(1)).toEqual([]);
    expect(read(2)).toEqual([3, 1]);
  });
});
