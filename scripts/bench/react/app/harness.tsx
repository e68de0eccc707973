/**
 * Puts an app on the page and offers the runner `window.__BENCH__`. Each action is timed from
 * the call to the DOM change a MutationObserver sees (React commits a batch at once, so the
 * first matching change is the final one); its renders and requests are counted until the page
 * settles. The apps differ only in how they ask the server for a change and show its answer
 * (`BenchApp`); what each action must show, and how it is timed, is here once.
 */
import { createRoot, type Root } from 'react-dom/client';
import type { BenchApi, Sample } from '../protocol.js';
import { renders } from './markup.js';
import { AUTHOR_ID, peekNextTodoId, served, todoIds } from './server.js';

/** How one app makes each change: it starts the request, and shows the answer when it comes. */
export interface BenchApp {
  /** Renders a fresh app (with nothing fetched yet) into `root`; `key` differs at every mount. */
  mount(root: Root, key: number): void;
  updateTodo(id: string, title: string): unknown;
  updateAuthor(id: string, name: string): unknown;
  unshiftTodo(title: string): unknown;
  deleteTodo(id: string): unknown;
  updateProject(name: string): unknown;
}

/** An action whose DOM change never comes fails the run instead of hanging it. */
const TIMEOUT_MS = 30_000;
/** Renders have settled when none happened for this long. */
const QUIET_MS = 30;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function startBench(library: string, app: BenchApp): void {
  const container = document.getElementById('root') as HTMLElement;
  const root = createRoot(container);
  let mounts = 0;
  /** Makes every new value differ from all earlier ones, so that each action changes the DOM. */
  let version = 0;

  const list = () => container.querySelector('[data-list]');
  const row = (id: string) => container.querySelector(`[data-id="${id}"]`);
  const text = (element: Element | null | undefined, field: string) =>
    element?.querySelector(`[data-${field}]`)?.textContent;
  const todoAt = (position: number) => {
    const id = todoIds()[position];
    if (id === undefined) throw new Error(`no todo at position ${position}`);
    return id;
  };

  async function measure(action: () => unknown, isDone: () => boolean): Promise<Sample> {
    let fail: (error: unknown) => void = () => {};
    const seen = new Promise<number>((resolve, reject) => {
      fail = reject;
      const observer = new MutationObserver(() => {
        if (!isDone()) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve(performance.now());
      });
      observer.observe(container, { childList: true, subtree: true, characterData: true });
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`no DOM change within ${TIMEOUT_MS / 1000} s`));
      }, TIMEOUT_MS);
    });
    renders.count = 0;
    const requestsBefore = served.count;
    const start = performance.now();
    Promise.resolve()
      .then(action)
      .catch((error: unknown) => fail(error));
    const end = await seen;
    let before: number;
    do {
      before = renders.count;
      await sleep(QUIET_MS);
    } while (renders.count !== before);
    return { ms: end - start, renders: renders.count, requests: served.count - requestsBefore };
  }

  const api: BenchApi = {
    library,
    mount: () =>
      measure(
        () => app.mount(root, ++mounts),
        () =>
          list()?.childElementCount === todoIds().length &&
          text(container, 'project') !== undefined,
      ),
    async unmount() {
      if (!list()) return;
      await measure(
        () => root.render(null),
        () => !list(),
      );
    },
    updateTodo(position) {
      const id = todoAt(position);
      const title = `Todo ${id} v${++version}`;
      return measure(
        () => app.updateTodo(id, title),
        () => text(row(id), 'title') === title,
      );
    },
    updateAuthor() {
      const name = `Ada v${++version}`;
      return measure(
        () => app.updateAuthor(AUTHOR_ID, name),
        () =>
          text(list()?.firstElementChild, 'author') === name &&
          text(list()?.lastElementChild, 'author') === name,
      );
    },
    unshiftTodo() {
      const id = peekNextTodoId();
      return measure(
        () => app.unshiftTodo(`Todo ${id}`),
        () => list()?.firstElementChild?.getAttribute('data-id') === id,
      );
    },
    deleteTodo(position) {
      const id = todoAt(position);
      return measure(
        () => app.deleteTodo(id),
        () => row(id) === null,
      );
    },
    updateProject() {
      const name = `Launch v${++version}`;
      return measure(
        () => app.updateProject(name),
        () => text(container, 'project') === name,
      );
    },
    async mountCycles(cycles) {
      for (let cycle = 0; cycle < cycles; cycle++) {
        await api.mount();
        await api.unmount();
      }
    },
    shown: async () => container.textContent ?? '',
  };
  window.__BENCH__ = api;
}
