/**
 * Windows the devtools bridge can talk through in Node, for the suites that connect it
 * (devtools.ts, stores/). The bridge posts to its window and listens on it for the panel.
 */

type Listener = (event: { data: unknown; source: unknown }) => void;

/** A window the bridge can talk through, in Node; messages arrive at once (timed with the sender). */
export class BenchWindow {
  readonly document = { title: 'bench' };
  private readonly listeners = new Set<Listener>();
  postMessage(data: unknown): void {
    for (const listener of this.listeners) listener({ data, source: this });
  }
  addEventListener(_type: 'message', listener: Listener) {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'message', listener: Listener) {
    this.listeners.delete(listener);
  }
}

/**
 * The page's window while no panel is connected: one for every store, as a page has one, and no
 * one listening. (A window of the bench's own for each store would be the bench's objects, which
 * the collector then moves as part of the bridge's cost.)
 */
export const pageWithoutPanel = {
  document: { title: 'bench' },
  postMessage() {},
  addEventListener() {},
  removeEventListener() {},
} as unknown as Window;
