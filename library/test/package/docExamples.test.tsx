// @vitest-environment jsdom
/**
 * The docs' examples marked `run=<name>` (```tsx example run=todo-list) run here against the
 * demo's REST server (e2e/app/server.ts, the one `npm start` serves), in a page of that server's
 * origin: they fetch `/todos` as an app served from it does. The check of each example's name
 * compares what it shows (a component's rendering, what a script logs) with what the server
 * answers, so an example that stops doing what its page says fails `npm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import type { Todo } from '../../../e2e/app/data.js';
import { type DemoServer, startDemoServer } from '../../../e2e/app/server.js';
import { type DocExample, docExamples } from '../../../scripts/docs/examples.mjs';

/** Where the examples are written as modules, to be imported as an app would import them. */
const OUT = resolve('dist/doc-examples-run');

/** An example as it ran: what its module exports and what it logged, beside the server. */
interface ExampleRun {
  exports: Record<string, unknown>;
  /** The arguments of each `console.log` the example made, in order. */
  logged: unknown[][];
  server: DemoServer;
}

/** What the server answers to a GET of `path`. */
async function answer<T>(server: DemoServer, path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`);
  return (await response.json()) as T;
}

/** The titles of user 1's first page, and of the last todo the server holds for user 1. */
async function userOnesTodos(server: DemoServer) {
  const firstPage = await answer<Todo[]>(server, '/todos?userId=1');
  const all = await answer<Todo[]>(server, '/todos?userId=1&all=1');
  return { firstPage: firstPage.map((todo) => todo.title), newest: all.at(-1)?.title };
}

const listedTitles = () => screen.queryAllByRole('listitem').map((item) => item.textContent);

/** What each example must show, by its name in the docs. */
const checks: Record<string, (run: ExampleRun) => Promise<void>> = {
  // README.md: the list of user 1's todos as the server pages them; a click on it pushes one,
  // which the server stores and the list shows at its end.
  'todo-list': async ({ exports, server }) => {
    const App = exports.App as ComponentType;
    const before = await userOnesTodos(server);
    render(<App />);
    await waitFor(() => expect(listedTitles()).toEqual(before.firstPage));
    fireEvent.click(screen.getByRole('list'));
    await waitFor(() => expect(listedTitles()).toHaveLength(before.firstPage.length + 1));
    const after = await userOnesTodos(server);
    expect(listedTitles()).toEqual([...before.firstPage, after.newest]);
  },
  // docs/guide.md, "Without React": the stored list is the page fetched plus the todo pushed.
  'without-react': async ({ logged, server }) => {
    const stored = await userOnesTodos(server);
    expect(logged).toEqual([[[...stored.firstPage, stored.newest]]]);
  },
};

/**
 * Runs one example in a page served by a demo server of its own (fresh data): the page's address
 * is the server's, and `fetch` resolves a relative URL against it as a browser's does (Node's
 * fetch takes absolute URLs only).
 */
async function runExample(example: DocExample, server: DemoServer): Promise<ExampleRun> {
  const { jsdom } = globalThis as unknown as {
    jsdom: { reconfigure(options: { url: string }): void };
  };
  jsdom.reconfigure({ url: `${server.url}/` });
  const nodeFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    nodeFetch(typeof input === 'string' ? new URL(input, location.href).href : input, init),
  );
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  mkdirSync(OUT, { recursive: true });
  const file = resolve(OUT, `${example.run}.${example.extension}`);
  writeFileSync(file, `// ${example.doc}, line ${example.line}\n${example.code}`);
  const exports = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
  return { exports, logged: log.mock.calls, server };
}

const runnable = docExamples().filter((example) => example.run !== undefined);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

it('has a check for each example the docs mark to run, and an example for each check', () => {
  expect(runnable.map((example) => example.run).sort()).toEqual(Object.keys(checks).sort());
});

for (const example of runnable) {
  it(`${example.doc}, line ${example.line}: "${example.run}" shows what the demo server answers`, async () => {
    const check = checks[example.run as string];
    if (!check) throw new Error(`No check is named "${example.run}"`);
    const server = await startDemoServer();
    try {
      await check(await runExample(example, server));
    } finally {
      await server.close();
    }
  });
}
