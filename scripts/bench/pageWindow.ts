/**
 * Windows the devtools bridge can talk through in Node, for the suites that connect it
 * (devtools.ts, stores/). The bridge greets on its window, transferring one end of a channel the
 * window's MessageChannel makes, talks on the other end, and listens on the window for the panel.
 */

type Listener = (event: { data: unknown; source: unknown }) => void;

/** One end of a BenchChannel: what it posts reaches the other end's listeners at once. */
export class BenchPort {
  other: BenchPort | undefined;
  private readonly listeners = new Set<(event: { data: unknown }) => void>();
  postMessage(data: unknown): void {
    for (const listener of this.other?.listeners ?? []) listener({ data });
  }
  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
    this.listeners.add(listener);
  }
  start() {}
  close() {
    this.listeners.clear();
  }
}

/** A MessageChannel whose messages arrive at once (timed with the sender). */
class BenchChannel {
  readonly port1 = new BenchPort();
  readonly port2 = new BenchPort();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}

/** A window the bridge can talk through, in Node; messages arrive at once (timed with the sender). */
export class BenchWindow {
  readonly document = { title: 'bench' };
  readonly MessageChannel = BenchChannel;
  /** The end of its channel the store's greeting handed over (the content script's). */
  greetingPort: BenchPort | undefined;
  private readonly listeners = new Set<Listener>();
  postMessage(data: unknown, _origin?: string, transfer: BenchPort[] = []): void {
    this.greetingPort = transfer[0] ?? this.greetingPort;
    for (const listener of this.listeners) listener({ data, source: this });
  }
  addEventListener(_type: 'message', listener: Listener) {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'message', listener: Listener) {
    this.listeners.delete(listener);
  }
}

/** A port nobody reads: what a store posts on while no content script listens. */
const unreadPort = { postMessage() {}, close() {} };

/**
 * The page's window while no panel is connected: one for every store, as a page has one, and no
 * one listening. (A window of the bench's own for each store would be the bench's objects, which
 * the collector then moves as part of the bridge's cost.)
 */
export const pageWithoutPanel = {
  document: { title: 'bench' },
  MessageChannel: class {
    readonly port1 = unreadPort;
    readonly port2 = unreadPort;
  },
  postMessage() {},
  addEventListener() {},
  removeEventListener() {},
} as unknown as Window;
