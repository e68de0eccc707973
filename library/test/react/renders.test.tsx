// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { memo, StrictMode, Suspense, startTransition, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResource, createStore, hookifyResource, type Store } from '../../src/index.js';
import {
  DataProvider,
  useCache,
  useController,
  useDLE,
  useSuspense,
} from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import type { TodoRecord } from '../helpers/server.js';
import { Todo, User } from '../rest/support.js';

/** A hundred todos of two users: every component below reads from them. */
const TODOS: TodoRecord[] = Array.from({ length: 100 }, (_, i) => ({
  id: i + 1,
  title: `todo ${i + 1}`,
  completed: false,
  userId: (i % 2) + 1,
}));

const server = serverPerTest({ todos: TODOS });

let TodoResource: ReturnType<typeof todoResource>;
let MemberResource: ReturnType<typeof memberResource>;
function todoResource() {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    optimistic: true,
  });
}
function memberResource() {
  return createResource({ path: '/users/:id', schema: User, urlPrefix: server.url });
}

/** Renders by component: `todo 7`, `list`, `member 1`, … */
let renders = new Map<string, number>();
const counted = (name: string) => renders.set(name, (renders.get(name) ?? 0) + 1);
/** The components that rendered since the last call. */
function renderedSince(): string[] {
  const names = [...renders.keys()].sort();
  renders = new Map();
  return names;
}

beforeEach(() => {
  TodoResource = todoResource();
  MemberResource = memberResource();
  renders = new Map();
});
afterEach(cleanup);

const TodoRow = memo(function TodoRow({ id }: { id: number }) {
  const todo = useSuspense(TodoResource.get, { id });
  counted(`todo ${id}`);
  return <li>{todo.title}</li>;
});

/** The list reader renders one row per todo, as apps do: a row goes when its todo does. */
function List() {
  const todos = useSuspense(TodoResource.getList, {});
  counted('list');
  return (
    <>
      <p>{todos.length} todos</p>
      <ul>
        {todos.map(({ id }) => (
          <TodoRow key={id} id={id} />
        ))}
      </ul>
    </>
  );
}

function MemberName({ id }: { id: number }) {
  const member = useSuspense(MemberResource.get, { id });
  counted(`member ${id}`);
  return <p>{member.name}</p>;
}

/** A hundred row components, the list reader and a member reader, all fetched and shown. */
async function mountAll(store: Store) {
  await act(() => store.controller.fetch(TodoResource.getList, {}));
  await act(() => store.controller.fetch(MemberResource.get, { id: 1 }));
  render(
    <StrictMode>
      <DataProvider store={store}>
        <Suspense fallback="loading">
          <List />
          <MemberName id={1} />
        </Suspense>
      </DataProvider>
    </StrictMode>,
  );
  await screen.findByText('100 todos');
  renderedSince();
}

describe('a component renders only when its own reading changes', () => {
  it('one todo updated: that todo’s row and the list that holds it', async () => {
    const store = createStore();
    await mountAll(store);
    await act(() =>
      store.controller.fetch(TodoResource.partialUpdate, { id: 7 }, { title: 'seven' }),
    );
    expect(screen.getByText('seven')).toBeTruthy();
    expect(renderedSince()).toEqual(['list', 'todo 7']);
  });

  it('an unrelated update (another resource): nothing renders', async () => {
    const store = createStore();
    await mountAll(store);
    await act(() =>
      store.controller.setResponse(MemberResource.get, { id: 2 }, { id: 2, name: 'Alan' }),
    );
    expect(renderedSince()).toEqual([]);
    // One that the member reader reads renders it alone.
    await act(() =>
      store.controller.setResponse(MemberResource.get, { id: 1 }, { id: 1, name: 'Ada L.' }),
    );
    expect(renderedSince()).toEqual(['member 1']);
  });

  it('a push: the list reader (which mounts the new row) and no existing row', async () => {
    const store = createStore();
    await mountAll(store);
    await act(() => store.controller.fetch(TodoResource.getList.push, { title: 'new' }));
    expect(screen.getByText('101 todos')).toBeTruthy();
    expect(screen.getByText('new')).toBeTruthy();
    expect(renderedSince()).toEqual(['list', 'todo 101']);
  });

  it('a delete: the list, which drops the deleted todo’s row; no other row', async () => {
    const store = createStore();
    await mountAll(store);
    await act(() => store.controller.fetch(TodoResource.delete, { id: 3 }));
    expect(renderedSince()).toEqual(['list']);
    expect(screen.getByText('99 todos')).toBeTruthy();
    expect(screen.queryByText('todo 3')).toBeNull();
  });

  it('an optimistic update and its rollback: the affected readers only, twice', async () => {
    const store = createStore();
    await mountAll(store);
    server.setDelay(80);
    server.failNext(500);
    let done: Promise<unknown> = Promise.resolve();
    act(() => {
      done = store.controller
        .fetch(TodoResource.partialUpdate, { id: 9 }, { title: 'nine?' })
        .catch(() => {});
    });
    expect(screen.getByText('nine?')).toBeTruthy();
    expect(renderedSince()).toEqual(['list', 'todo 9']);
    await act(() => done);
    expect(screen.getByText('todo 9')).toBeTruthy();
    expect(renderedSince()).toEqual(['list', 'todo 9']);
  });

  it('components that suspended on mount: one reader each, and a refetch of the same data renders nothing', async () => {
    const store = createStore();
    render(
      <DataProvider store={store}>
        <Suspense fallback="loading">
          <List />
        </Suspense>
      </DataProvider>,
    );
    await screen.findByText('100 todos');
    expect(screen.getByText('todo 100')).toBeTruthy();
    renderedSince();
    // The list and every row suspended once; each must be registered once, as mounted.
    const readers = store.readerDirectory?.namesByKey() ?? new Map<string, string[]>();
    expect(readers.get(TodoResource.getList.key({}))).toHaveLength(1);
    expect(readers.get(TodoResource.get.key({ id: 7 }))).toHaveLength(1);
    expect(readers.size).toBe(101);
    await act(() => store.controller.fetch(TodoResource.getList, {}).then(() => {}));
    await act(() => store.controller.fetch(TodoResource.get, { id: 7 }).then(() => {}));
    expect(renderedSince()).toEqual([]);
  });

  it('a refetch that changes nothing (only how long it stays fresh) renders nothing', async () => {
    const store = createStore();
    await mountAll(store);
    await act(() => store.controller.fetch(TodoResource.getList, {}).then(() => {}));
    await act(() => store.controller.invalidate(MemberResource.get, { id: 2 }));
    expect(renderedSince()).toEqual([]);
  });
});

describe('hooks that a change cannot touch read nothing again', () => {
  it('an unrelated update reads none of the hundred rows; one todo’s update reads its own', async () => {
    const store = createStore();
    await mountAll(store);
    // Every reading goes through the controller's memo: count what it is asked to read.
    const { memo } = store.controller;
    const denormalize = memo.denormalize.bind(memo);
    let reads = 0;
    memo.denormalize = (...args) => {
      reads++;
      return denormalize(...args);
    };
    await act(() =>
      store.controller.setResponse(MemberResource.get, { id: 2 }, { id: 2, name: 'Alan' }),
    );
    expect(reads).toBe(0);
    await act(() =>
      store.controller.fetch(TodoResource.partialUpdate, { id: 5 }, { title: 'five' }),
    );
    // Twice (the optimistic update, then the answer) the row of todo 5 and the list read again
    // (a check, then a render when it changed); no other row does.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(12);
    expect(renderedSince()).toEqual(['list', 'todo 5']);
  });

  it('a re-render with equal arguments does not work out the key again', async () => {
    const store = createStore();
    await act(() => store.controller.fetch(TodoResource.getList, {}));
    let rerender = () => {};
    function Title() {
      const [count, setCount] = useState(0);
      rerender = () => setCount(count + 1);
      // A new `{ id }` at every render, equal to the last.
      return <p>{useSuspense(TodoResource.get, { id: 1 }).title}</p>;
    }
    render(
      <DataProvider store={store}>
        <Suspense fallback="loading">
          <Title />
        </Suspense>
      </DataProvider>,
    );
    await screen.findByText('todo 1');
    let keys = 0;
    const key = TodoResource.get.key.bind(TodoResource.get);
    TodoResource.get.key = (...args) => {
      keys++;
      return key(...args);
    };
    for (let i = 0; i < 3; i++) act(() => rerender());
    expect(keys).toBe(0);
  });
});

describe('the other hooks keep the same rules', () => {
  it('useCache, useDLE and hookifyResource hooks render only for their own reading', async () => {
    const Hooks = hookifyResource(TodoResource, () => ({ headers: { 'x-app': 'test' } }));
    function Cached({ id }: { id: number }) {
      const todo = useCache(TodoResource.get, { id });
      counted(`cached ${id}`);
      return <p>{todo?.title ?? 'none'}</p>;
    }
    function Loaded({ id }: { id: number }) {
      const { data } = useDLE(TodoResource.get, { id });
      counted(`loaded ${id}`);
      return <p>{data?.title ?? 'loading'}?</p>;
    }
    function Hooked({ id }: { id: number }) {
      const todo = useSuspense(Hooks.useGet(), { id });
      counted(`hooked ${id}`);
      return <p>{todo.title}!</p>;
    }
    const store = createStore();
    await act(() => store.controller.fetch(TodoResource.getList, {}));
    render(
      <DataProvider store={store}>
        <Suspense fallback="loading">
          <Cached id={1} />
          <Cached id={2} />
          <Loaded id={1} />
          <Loaded id={2} />
          <Hooked id={1} />
          <Hooked id={2} />
        </Suspense>
      </DataProvider>,
    );
    await screen.findByText('todo 2!');
    renderedSince();
    await act(() =>
      store.controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'two' }),
    );
    expect(renderedSince()).toEqual(['cached 2', 'hooked 2', 'loaded 2']);
    await act(() =>
      store.controller.setResponse(MemberResource.get, { id: 2 }, { id: 2, name: 'Alan' }),
    );
    expect(renderedSince()).toEqual([]);
  });

  it('useController gives the same controller at every render', async () => {
    const seen = new Set<unknown>();
    let rerender = () => {};
    function Probe() {
      const [count, setCount] = useState(0);
      rerender = () => setCount(count + 1);
      seen.add(useController());
      return <p>{count}</p>;
    }
    const store = createStore();
    render(
      <DataProvider store={store}>
        <Probe />
      </DataProvider>,
    );
    for (let i = 0; i < 3; i++) act(() => rerender());
    expect(seen).toEqual(new Set([store.controller]));
  });
});

describe('unchanged entities keep their identity', () => {
  it('an update gives a new object for that entity and the list, the same ones elsewhere', async () => {
    const store = createStore();
    await act(() => store.controller.fetch(TodoResource.getList, {}));
    const read = () =>
      store.controller.getResponse(TodoResource.getList, {}, store.getState()).data!;
    const before = read();
    await store.controller.fetch(TodoResource.partialUpdate, { id: 4 }, { title: 'four' });
    const after = read();
    expect(after).not.toBe(before);
    expect(after[3]).not.toBe(before[3]);
    for (const index of [0, 1, 2, 4, 50, 99]) expect(after[index]).toBe(before[index]);
  });
});

describe('concurrent rendering', () => {
  it('a transition that meets a store change shows one state everywhere (no tearing)', async () => {
    const store = createStore();
    await act(() => store.controller.fetch(TodoResource.getList, {}));
    function Title({ id }: { id: number }) {
      return <span data-testid="title">{useSuspense(TodoResource.get, { id }).title}|</span>;
    }
    function Slow({ id }: { id: number }) {
      // Enough work that the transition's render yields between the two titles.
      const until = performance.now() + 20;
      while (performance.now() < until) {}
      return <Title id={id} />;
    }
    let show = () => {};
    function Page() {
      const [shown, setShown] = useState(false);
      show = () => startTransition(() => setShown(true));
      return shown ? (
        <>
          <Title id={10} />
          <Slow id={10} />
          <Title id={10} />
        </>
      ) : null;
    }
    render(
      <DataProvider store={store}>
        <Suspense fallback="loading">
          <Page />
        </Suspense>
      </DataProvider>,
    );
    await act(async () => {
      show();
      // The store changes while the transition renders.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.controller.setResponse(TodoResource.get, { id: 10 }, { id: 10, title: 'ten' });
    });
    const titles = screen.getAllByTestId('title').map((node) => node.textContent);
    expect(titles).toEqual(['ten|', 'ten|', 'ten|']);
  });
});
