import { extensionCommand } from '../../../library/src/devtools/protocol/messages.js';
import {
  isExtensionCommand,
  isPageMessage,
} from '../../../library/src/devtools/protocol/validate.js';
import {
  backoff,
  CONTENT_PORT,
  type ContentToBackground,
  type PortLike,
  STABLE_PORT_MS,
} from '../shared/ports.js';

export interface RelayEnvironment {
  window: Pick<Window, 'addEventListener' | 'postMessage'>;
  /** Opens a runtime port to the background; undefined once the extension is gone. */
  connect(name: string): PortLike<unknown, ContentToBackground> | undefined;
  setTimeout(callback: () => void, ms: number): unknown;
  /** Tells the page's developer about a message that was dropped (the page's console). */
  warn(message: string): void;
}

/** Page messages kept while the port is down (oldest dropped): the panel resyncs anyway. */
const MAX_QUEUED = 500;

/**
 * The content script: relays valid page messages to the background and valid panel commands
 * into the page. A store greets with a window message (`hello`) that brings the port it talks
 * on; from then on only that port speaks for the store (see onWindowMessage). It opens its port
 * to the background only after the first valid greeting (pages without a RestLens store cost
 * nothing) and reconnects with backoff when that port drops (the browser stops idle service
 * workers).
 */
export class ContentRelay {
  private port: PortLike<unknown, ContentToBackground> | undefined;
  private queue: ContentToBackground[] = [];
  private attempts = 0;
  private reconnecting = false;
  /** Identifies this page load: the panel starts a fresh history when it changes. */
  readonly pageId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  private droppedCount = 0;
  /** The ids of the stores that greeted, each bound to the port its greeting brought. */
  private readonly storePorts = new Map<string, MessagePort>();

  constructor(private readonly env: RelayEnvironment) {
    env.window.addEventListener('message', (event: MessageEvent) => this.onWindowMessage(event));
  }

  /**
   * Takes from the window only a store's greeting that brings its port, and only the first one
   * of a store id: this script listens from the start of the document, so it hears a store's
   * greeting before any script can have read the store's id. Anything else posted on the window
   * under a store's id (events, a snapshot, another hello with another port) is a script of the
   * page speaking for the store, and is dropped.
   */
  private onWindowMessage(event: MessageEvent) {
    if (event.source !== this.env.window || !isPageMessage(event.data)) return;
    const message = event.data;
    const port = event.ports[0];
    if (message.kind !== 'hello' || port === undefined || this.storePorts.has(message.storeId))
      return;
    const { storeId } = message;
    this.storePorts.set(storeId, port);
    port.addEventListener('message', (portEvent: MessageEvent) =>
      this.onStoreMessage(storeId, portEvent.data),
    );
    port.start();
    this.send({ type: 'page', message });
  }

  /** What a store posts on its port: valid messages of that store only. */
  private onStoreMessage(storeId: string, data: unknown) {
    if (isPageMessage(data) && data.storeId === storeId) this.send({ type: 'page', message: data });
  }

  private send(message: ContentToBackground) {
    if (!this.port && !this.reconnecting) this.open();
    if (this.port) this.forward(this.port, message);
    else {
      this.queue.push(message);
      if (this.queue.length > MAX_QUEUED) this.queue.shift();
    }
  }

  /**
   * Posts on the port, or drops the message when the port refuses it. The validator checks the
   * fields the protocol defines, and a page may add others the port cannot carry (a cycle or a
   * BigInt, which JSON cannot serialize; more than the 64 MiB a message may hold): the post
   * throws, and uncaught it would escape into the page from our listener.
   */
  private forward(port: PortLike<unknown, ContentToBackground>, message: ContentToBackground) {
    try {
      port.postMessage(message);
    } catch (error) {
      this.droppedCount++;
      this.env.warn(
        `RestLens: a page message could not be forwarded to the panel (${String(error)}); ${this.droppedCount} dropped so far.`,
      );
    }
  }

  /** How many page messages the port could not carry, and were dropped. */
  get dropped(): number {
    return this.droppedCount;
  }

  private open() {
    const port = this.env.connect(CONTENT_PORT);
    if (!port) return; // the extension was reloaded or removed: stay quiet
    this.port = port;
    this.reconnecting = false;
    port.onMessage.addListener((message) => {
      // Commands go into the page only when they are well-formed protocol commands.
      if (isExtensionCommand(message)) this.env.window.postMessage(message, '*');
    });
    port.onDisconnect.addListener(() => {
      this.port = undefined;
      this.reconnecting = true;
      // The page stops sending: the panels it was sending to may be gone by the time the port
      // is back (closed while the background was down), and then nobody would tell it. A panel
      // that is still there asks again (`connect`, with the last seq it holds) once it hears
      // that this page is back, and gets what it missed from the page's ring.
      this.env.window.postMessage(extensionCommand({ kind: 'disconnect' }), '*');
      this.env.setTimeout(() => this.open(), backoff(this.attempts++));
    });
    port.postMessage({ type: 'content-hello', pageId: this.pageId });
    // The backoff starts over only once the port has stayed up: a background that cannot start
    // (its port closes at once) must not be retried every 100 ms forever, from every tab.
    this.env.setTimeout(() => {
      if (this.port === port) this.attempts = 0;
    }, STABLE_PORT_MS);
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.forward(port, message);
  }
}
