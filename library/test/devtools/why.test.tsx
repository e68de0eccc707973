// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import type { StoreEvent } from '../../src/devtools/protocol/effects.js';
import type { ReadersMessage, SearchMessage } from '../../src/devtools/protocol/messages.js';
import { createStore, type Store } from '../../src/index.js';
import { useLive, useSuspense } from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { renderInApp, todoResource } from '../react/support.js';
import { nextTask, PanelStandIn } from './support.js';

// What the page tells the panel about "why": each action's reason and call site, who reads each
// result by component name, and which entities hold a text.

const server = serverPerTest();
let Todos: ReturnType<typeof todoResource>;
let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;

beforeEach(() => {
  Todos = todoResource(server.url);
  store = createStore();
  panel = new PanelStandIn();
  connection = connectDevtools(store, { batchInterval: 1 });
});
afterEach(() => {
  cleanup();
  connection.disconnect();
  panel.restore();
});

/** The stored answers the panel was told of, for one key, oldest first. */
async function answersOf(key: string): Promise<StoreEvent[]> {
  await nextTask(5);
  connection.flush();
  return panel
    .events(connection.storeId)
    .filter((event) => event.action.type === 'setResponse' && event.action.key === key);
}

function TodoTitle({ id }: { id: number }) {
  return (
    <p>
      title {id}: {useSuspense(Todos.get, { id }).title}
    </p>
  );
}

describe('why a request ran', () => {
  it('a mount names its component, and its trace starts in the component', async () => {
    panel.connect(0, connection.storeId);
    renderInApp(<TodoTitle id={1} />, { store });
    await screen.findByText('title 1: write tests');
    const [answer] = await answersOf(Todos.get.key({ id: 1 }));
    expect(answer?.action.cause?.reason).toEqual({ kind: 'mount', component: 'TodoTitle' });
    expect(answer?.action.cause?.trace?.[0]).toMatchObject({
      function: 'TodoTitle',
      url: expect.stringContaining('why.test.tsx'),
    });
  });

  it('new arguments are "args changed"; a refetch after an invalidate names the invalidate', async () => {
    panel.connect(0, connection.storeId);
    let show = (_id: number) => {};
    function Switching() {
      const [id, setId] = useState(1);
      show = setId;
      return <TodoTitle id={id} />;
    }
    renderInApp(<Switching />, { store });
    await screen.findByText('title 1: write tests');
    act(() => show(2));
    await screen.findByText(/^title 2: /);
    const [second] = await answersOf(Todos.get.key({ id: 2 }));
    expect(second?.action.cause?.reason).toEqual({ kind: 'args-changed', component: 'TodoTitle' });

    await act(() => store.controller.invalidate(Todos.get, { id: 2 }));
    await screen.findByText(/^title 2: /);
    const answers = await answersOf(Todos.get.key({ id: 2 }));
    const invalidation = panel
      .events(connection.storeId)
      .find((event) => event.action.type === 'invalidate');
    expect(answers.at(-1)?.action.cause).toMatchObject({
      reason: { kind: 'invalid', component: 'TodoTitle' },
      by: { seq: invalidation?.seq, label: 'invalidate' },
    });
  });

  it('an app call is "app" with the line that called controller.fetch; a poll says its frequency', async () => {
    panel.connect(0, connection.storeId);
    await store.controller.fetch(Todos.get, { id: 3 });
    const [answer] = await answersOf(Todos.get.key({ id: 3 }));
    expect(answer?.action.cause?.reason).toEqual({ kind: 'app' });
    expect(answer?.action.cause?.trace?.[0]?.url).toContain('why.test.tsx');

    const Polled = Todos.get.extend({ pollFrequency: 30 });
    function Live() {
      return <p>live: {useLive(Polled, { id: 1 }).title}</p>;
    }
    renderInApp(<Live />, { store });
    await screen.findByText('live: write tests');
    await new Promise((resolve) => setTimeout(resolve, 80));
    const reasons = (await answersOf(Polled.key({ id: 1 }))).map(
      (event) => event.action.cause?.reason,
    );
    expect(reasons[0]).toEqual({ kind: 'mount', component: 'Live' });
    expect(reasons.slice(1)).toContainEqual({ kind: 'poll', frequency: 30 });
  });

  it('records no call site while no panel is connected (unless traceAlways), only the reason', async () => {
    await store.controller.fetch(Todos.get, { id: 1 });
    panel.connect(0, connection.storeId);
    const [untraced] = await answersOf(Todos.get.key({ id: 1 }));
    expect(untraced?.action.cause).toEqual({ reason: { kind: 'app' } });

    const always = createStore();
    const traced = connectDevtools(always, { traceAlways: true });
    try {
      expect(always.controller.causes?.tracing).toBe(true);
      traced.disconnect();
      expect(always.controller.causes?.tracing).toBe(false);
    } finally {
      traced.disconnect();
    }
  });
});

describe('who reads a result, and what holds a text', () => {
  function ask<K extends 'readers' | 'search'>(
    kind: K,
    body: Record<string, unknown>,
  ): K extends 'readers' ? ReadersMessage : SearchMessage {
    const mark = panel.mark;
    panel.send({ kind, storeId: connection.storeId, ...body } as never);
    const answer = panel.since(mark, connection.storeId).find((message) => message.kind === kind);
    if (answer === undefined) throw new Error(`no ${kind} answer`);
    return answer as never;
  }

  it('names the mounted readers of each result and of an entity row', async () => {
    panel.connect(0, connection.storeId);
    function Header() {
      return <h1>header: {useSuspense(Todos.get, { id: 1 }).title}</h1>;
    }
    renderInApp(
      <>
        <TodoTitle id={1} />
        <Header />
      </>,
      { store },
    );
    await screen.findByText('header: write tests');
    const answer = ask('readers', { row: { table: 'Todo', pk: '1' } });
    expect(answer.names?.[Todos.get.key({ id: 1 })]?.sort()).toEqual(['Header', 'TodoTitle']);
    expect(answer.readers[Todos.get.key({ id: 1 })]).toBe(2);
    expect(answer.rowReaders).toEqual({
      table: 'Todo',
      pk: '1',
      names: expect.arrayContaining(['Header', 'TodoTitle']),
    });
    expect(ask('readers', { row: { table: 'Todo', pk: '__proto__' } }).rowReaders?.names).toEqual(
      [],
    );
  });

  it('finds the entities whose fields contain a text, naming the field, ignoring case', async () => {
    panel.connect(0, connection.storeId);
    await store.controller.fetch(Todos.getList);
    const found = ask('search', { text: 'WRITE' });
    expect(found.matches).toContainEqual({
      entity: 'Todo',
      pk: '1',
      field: 'title',
      value: 'write tests',
    });
    expect(found.matches.every((match) => match.value.toLowerCase().includes('write'))).toBe(true);
    expect(ask('search', { text: '__proto__' }).matches).toEqual([]);
  });
});
