import { TestMessageChannel } from './channel.js';

/**
 * A page for the relay tests (this file holds no tests): a fresh same-origin iframe window, so
 * that every test, and every page load, has its own window and its own listeners. Removing the
 * frame unloads the page: its listeners never run again.
 *
 * jsdom's `postMessage` delivers with `event.source === null` and no transferred ports; a
 * browser gives the posting window and the ports. So `postMessage` on this window is replaced: it
 * records the message and dispatches a structured clone of it, with the ports it transfers, in a
 * later microtask, as coming from this window. jsdom has no MessageChannel either: the window
 * gets TestMessageChannel.
 */
export class TestPage {
  readonly frame: HTMLIFrameElement;
  readonly window: Window;
  /** Everything posted on this window (by the page and by the content script), in order. */
  readonly posted: unknown[] = [];
  /**
   * By store id, the end of the channel a store greeted with the other end of: the store's own,
   * which only a script that ran before the library (wrapping MessageChannel) could hold.
   */
  private readonly storeEnds = new Map<string, MessagePort>();
  private readonly channels: TestMessageChannel[] = [];
  private unloaded = false;

  constructor() {
    this.frame = document.createElement('iframe');
    document.body.append(this.frame);
    const win = this.frame.contentWindow;
    if (!win) throw new Error('the test page has no window');
    this.window = win;
    win.postMessage = ((data: unknown, _origin: string, transfer: MessagePort[] = []) => {
      this.posted.push(data);
      this.noteGreeting(data, transfer);
      const copy = structuredClone(data);
      queueMicrotask(() => {
        if (!this.unloaded) this.dispatch(copy, this.window, transfer);
      });
    }) as Window['postMessage'];
    const channels = this.channels;
    (win as unknown as { MessageChannel: unknown }).MessageChannel = class extends (
      TestMessageChannel
    ) {
      constructor() {
        super();
        channels.push(this);
      }
    };
  }

  /** The port a store posts on (see storeEnds); throws if no store of that id greeted. */
  storeEnd(storeId: string): MessagePort {
    const end = this.storeEnds.get(storeId);
    if (end === undefined) throw new Error(`no store ${storeId} greeted on this page`);
    return end;
  }

  private noteGreeting(data: unknown, transfer: readonly MessagePort[]) {
    const { kind, storeId } = (data ?? {}) as { kind?: unknown; storeId?: unknown };
    const channel = this.channels.find((made) => made.port2 === transfer[0]);
    if (kind === 'hello' && typeof storeId === 'string' && channel && !this.storeEnds.has(storeId))
      this.storeEnds.set(storeId, channel.port1);
  }

  /**
   * Dispatches a `message` event on this window, as coming from `source` (this window by
   * default), with the ports it transfers.
   */
  dispatch(
    data: unknown,
    source: MessageEventSource | null = this.window,
    ports: readonly MessagePort[] = [],
  ): void {
    // The page's own MessageEvent: an event of this window's realm.
    const { MessageEvent } = this.window as unknown as typeof globalThis;
    this.window.dispatchEvent(new MessageEvent('message', { data, source, ports: [...ports] }));
  }

  /**
   * Greets as a store does: `hello` on the window, transferring one end of a new channel.
   * Returns the other end, the store's, on which it posts everything else.
   */
  greet(hello: unknown): MessagePort {
    const { port1, port2 } = new (this.window as unknown as typeof globalThis).MessageChannel();
    this.window.postMessage(hello, '*', [port2]);
    return port1;
  }

  /** Messages posted on this window since `from` that match `filter`. */
  postedSince(from: number, filter: (message: unknown) => boolean = () => true): unknown[] {
    return this.posted.slice(from).filter(filter);
  }

  /** Removes the frame: the page and its listeners are gone. */
  unload(): void {
    this.unloaded = true;
    this.frame.remove();
  }
}
