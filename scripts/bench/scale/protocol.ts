/**
 * What the scale benchmark's page offers the runner on `window.__SCALE__` (see app.ts), shared by
 * the page and the runner.
 */

/** What the page saw of the devtools' work since `watch()`. */
export interface PageWatch {
  /** The longest task of the page's thread (ms); 0 when none took 50 ms or more. */
  longestTaskMs: number;
  /** Characters of snapshot text posted (the sum of its chunks' lengths). */
  snapshotChars: number;
  /** Characters of the lists posted after it (`members` messages). */
  listChars: number;
  /** Messages posted to the panel, by kind. */
  posted: Record<string, number>;
  /** How long ago the last message was posted (ms), or -1 when none was. */
  quietMs: number;
}

/** What the page did in one round of mixed writes (`mixedWrites`). */
export interface MixedWrites {
  /** Wall time of the writes, back to back in one task (ms). */
  wallMs: number;
  /** When the last write returned, as `performance.timeOrigin + performance.now()` (ms). */
  endedAt: number;
  /** The seq of the last write's event (the store's changes since the bridge connected). */
  lastSeq: number;
}

export interface ScaleApi {
  /**
   * A store of `size` todos (uuid pks) in COLLECTIONS lists, one of BIG_COLLECTION members, and
   * the devtools bridge with a ring of `ringSize`; answers the ms it took.
   */
  seed(size: number, ringSize: number): number;
  /** `count` updates of stored todos, one write each: events for the ring; answers the ms. */
  updates(count: number): number;
  /**
   * `count` writes (updates and pushes) spread over `spreadMs`, in rounds every few ms as
   * responses arrive; resolves with the ms from the first write to the last, once the devtools
   * posted what followed.
   */
  burst(count: number, spreadMs: number): Promise<number>;
  /** `count` writes to a small table (20 users), one after the other; answers the ms. */
  smallWrites(count: number): number;
  /** Starts watching long tasks and posted messages afresh. */
  watch(): void;
  watched(): PageWatch;
  /** A pk of the big collection, for lookups. */
  somePk(): string;
  /**
   * A store shaped like an app's: `size` todos (uuid pks, nested author) in `lists` lists of
   * `R.getList({ userId })` of `R = createResource({ path: '/users/:userId/todos/:id', ... })`,
   * one of a tenth of them and the others sharing the rest evenly; the devtools bridge connected
   * with its default options, as `DataProvider` does. Answers the ms it took and the seq of its
   * last change.
   */
  seedApp(size: number, lists: number): { ms: number; lastSeq: number };
  /**
   * Makes (untimed) the next `count` mixed writes, shuffled with a random seeded by `seed`: 40%
   * `R.getList.push` of a new todo to a stored user's list, 40% `R.partialUpdate` of a stored
   * todo, 20% `R.delete` of one. Answers how many of each and the seq their last will have.
   */
  planMixed(
    count: number,
    seed: number,
  ): { pushes: number; updates: number; deletes: number; lastSeq: number };
  /** The planned writes, back to back in one task, each one `controller.setResponse`. */
  mixedWrites(): MixedWrites;
  /**
   * Resolves once the page has been quiet for a while after the last writes: the devtools posted
   * nothing for QUIET_MS (their batch timer included). Answers when the last `events` message
   * since the writes was posted (as `now()` reads it), if one was.
   */
  settle(): Promise<{ eventsPostedAt?: number }>;
  /** `performance.timeOrigin + performance.now()` (ms), to compare with the panel's clock. */
  now(): number;
}

/** How long the page must have posted nothing before `settle` resolves (ms). */
export const QUIET_MS = 150;

/** The lists a store holds. */
export const COLLECTIONS = 1000;
/** Members of the largest list. */
export const BIG_COLLECTION = 10_000;

declare global {
  interface Window {
    __SCALE__?: ScaleApi;
  }
}
