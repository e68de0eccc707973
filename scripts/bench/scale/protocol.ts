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
}

/** The lists a store holds. */
export const COLLECTIONS = 1000;
/** Members of the largest list. */
export const BIG_COLLECTION = 10_000;

declare global {
  interface Window {
    __SCALE__?: ScaleApi;
  }
}
