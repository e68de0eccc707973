// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../../src/index.js';
import { useDLE, useLive, useSubscription, useSuspense } from '../../src/react/index.js';
import type { Store } from '../../src/store/createStore.js';
import { serverPerTest } from '../helpers/perTest.js';
import { renderInApp, requestLines, todoResource } from './support.js';

const server = serverPerTest();
let TodoResource: ReturnType<typeof todoResource>;
let store: Store;

beforeEach(() => {
  TodoResource = todoResource(server.url);
  store = createStore();
});
afterEach(cleanup);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('useLive: useSuspense that polls at pollFrequency while mounted', () => {
  it('shows the todo, then what each poll brings, and stops polling when unmounted', async () => {
    const Polled = TodoResource.get.extend({ pollFrequency: 40 });
    function Title() {
      return <p>title: {useLive(Polled, { id: 1 }).title}</p>;
    }
    renderInApp(<Title />, { store });
    await screen.findByText('title: write tests');
    server.todos[0]!.title = 'polled';
    expect(await screen.findByText('title: polled')).toBeTruthy();
    cleanup();
    await sleep(10);
    const made = server.requests.length;
    await sleep(150);
    expect(server.requests.length).toBe(made);
    expect(new Set(requestLines(server.requests))).toEqual(new Set(['GET /todos/1']));
  });

  it('many components live on one call share one poll per period', async () => {
    const Polled = TodoResource.get.extend({ pollFrequency: 50 });
    function Title({ name }: { name: string }) {
      return (
        <p>
          {name}: {useLive(Polled, { id: 1 }).title}
        </p>
      );
    }
    const names = Array.from({ length: 20 }, (_, index) => `reader ${index}`);
    const started = Date.now();
    renderInApp(
      names.map((name) => <Title key={name} name={name} />),
      { store },
    );
    await screen.findByText('reader 19: write tests');
    await sleep(300);
    const elapsed = Date.now() - started;
    // The first fetch, then at most one each 50 ms; twenty timers would make ~120.
    expect(server.requests.length).toBeLessThanOrEqual(1 + Math.floor(elapsed / 50));
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
  });

  it('a poll that brings the same data renders nothing; one that brings a change renders once', async () => {
    const Polled = TodoResource.get.extend({ pollFrequency: 30 });
    let renders = 0;
    function Title() {
      renders++;
      return <p>title: {useLive(Polled, { id: 1 }).title}</p>;
    }
    renderInApp(<Title />, { store });
    await screen.findByText('title: write tests');
    const afterFirst = renders;
    // Each poll's answer (the same data) has landed before the next is awaited.
    for (let i = 1; i <= 4; i++) {
      await server.waitForRequest(i);
      await sleep(5);
    }
    expect(renders).toBe(afterFirst);
    server.todos[0]!.title = 'changed';
    await screen.findByText('title: changed');
    await server.waitForRequest(server.requests.length + 2);
    expect(renders).toBe(afterFirst + 1);
  });

  it('an endpoint without pollFrequency is read as useSuspense reads it, and not polled', async () => {
    function Title() {
      return <p>title: {useLive(TodoResource.get, { id: 1 }).title}</p>;
    }
    const log = renderInApp(<Title />, { store });
    await screen.findByText('title: write tests');
    await sleep(100);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
    expect(log.caught).toEqual([]);
  });
});

describe('useSubscription: polling without reading', () => {
  it('warns in development when the endpoint has no pollFrequency, and polls nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      function Subscribed() {
        useSubscription(TodoResource.get, { id: 1 });
        return <p>subscribed</p>;
      }
      renderInApp(<Subscribed />, { store });
      await screen.findByText('subscribed');
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/^useSubscription: .*get has no pollFrequency, so it is not polled/),
      );
      await sleep(50);
      expect(server.requests).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('keeps what another component reads fresh; null arguments poll nothing', async () => {
    const Polled = TodoResource.get.extend({ pollFrequency: 40 });
    function Title() {
      return <p>title: {useSuspense(TodoResource.get, { id: 1 }).title}</p>;
    }
    function Poller({ id }: { id: number | null }) {
      useSubscription(Polled, id === null ? null : { id });
      return null;
    }
    renderInApp(
      <>
        <Title />
        <Poller id={1} />
        <Poller id={null} />
      </>,
      { store },
    );
    await screen.findByText('title: write tests');
    server.todos[0]!.title = 'kept fresh';
    expect(await screen.findByText('title: kept fresh')).toBeTruthy();
    expect(new Set(requestLines(server.requests))).toEqual(new Set(['GET /todos/1']));
  });

  it('moves to the new call when the arguments change, and stops polling the old one', async () => {
    const Polled = TodoResource.get.extend({ pollFrequency: 40 });
    let show: (id: number) => void = () => {};
    function Poller() {
      const [id, setId] = useState(1);
      show = setId;
      useSubscription(Polled, { id });
      return <p>polling {id}</p>;
    }
    renderInApp(<Poller />, { store });
    await server.waitForRequest(2);
    show(2);
    await screen.findByText('polling 2');
    await sleep(20);
    const before = requestLines(server.requests).filter((line) => line === 'GET /todos/1').length;
    await sleep(150);
    const lines = requestLines(server.requests);
    expect(lines.filter((line) => line === 'GET /todos/1').length).toBe(before);
    expect(lines.filter((line) => line === 'GET /todos/2').length).toBeGreaterThanOrEqual(2);
  });

  it('a pollFrequency that is not a positive number is the component error, naming the endpoint', async () => {
    const Broken = TodoResource.get.extend({ pollFrequency: -1 });
    function Poller() {
      useSubscription(Broken, { id: 1 });
      return <p>polling</p>;
    }
    const log = renderInApp(<Poller />, { store, onCaughtError: () => {} });
    expect(
      (await screen.findByRole('alert')).textContent?.includes(
        'pollFrequency must be a positive number of ms, not -1',
      ),
    ).toBe(true);
    expect(log.caught).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });
});

describe('useSuspense and useDLE do not poll (as in data-client: polling is a subscription)', () => {
  it('an endpoint with pollFrequency is fetched once by its readers', async () => {
    const Polled = TodoResource.get.extend({ pollFrequency: 30 });
    function Both() {
      const { data } = useDLE(Polled, { id: 1 });
      const todo = useSuspense(Polled, { id: 1 });
      return (
        <p>
          {data?.title} / {todo.title}
        </p>
      );
    }
    renderInApp(<Both />, { store });
    await screen.findByText('write tests / write tests');
    await sleep(150);
    expect(requestLines(server.requests)).toEqual(['GET /todos/1']);
  });
});
