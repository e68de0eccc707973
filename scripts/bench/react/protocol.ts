/**
 * What the benchmark page offers the runner on `window.__BENCH__`, and what it answers. Shared by
 * the apps (which implement it) and the runner (which drives them through Playwright).
 */

/** One timed action: from the call to the DOM change, and the renders it caused. */
export interface Sample {
  /** Milliseconds from the action to the DOM change a MutationObserver saw. */
  ms: number;
  /** Component renders (mounts included) from the action until the page settled. */
  renders: number;
  /** Requests the in-memory server answered in that time. */
  requests: number;
}

export interface BenchApi {
  /** The library this page runs on. */
  readonly library: string;
  /** Mounts a fresh provider (an empty store) with the list and the project reader. */
  mount(): Promise<Sample>;
  /** Unmounts everything, provider and store included. */
  unmount(): Promise<void>;
  /** A new title for the todo at this position of the list. */
  updateTodo(position: number): Promise<Sample>;
  /** A new name for the author every todo shares. */
  updateAuthor(): Promise<Sample>;
  /** A new todo at the head of the list. */
  unshiftTodo(): Promise<Sample>;
  /** Deletes the todo at this position of the list. */
  deleteTodo(position: number): Promise<Sample>;
  /** A new name for the project: another resource, which no todo reads. */
  updateProject(): Promise<Sample>;
  /** `cycles` times: mount the list, wait for it, unmount it. */
  mountCycles(cycles: number): Promise<void>;
  /** The text the app shows: both libraries must show the same after the same actions. */
  shown(): Promise<string>;
}

/** How many todos the list holds: every scenario runs with this many rows mounted. */
export const LIST_SIZE = 1000;

declare global {
  interface Window {
    __BENCH__?: BenchApi;
  }
}
