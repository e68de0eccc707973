import { act, fireEvent, render } from '@testing-library/preact';
import { vi } from 'vitest';
import type {
  ExtensionCommand,
  PageMessage,
} from '../../../../library/src/devtools/protocol/messages.js';
import { ContentRelay } from '../../../src/content/relay.js';
import { App } from '../../../src/panel/App.js';
import { PanelConnection } from '../../../src/panel/connection.js';
import { PanelContext } from '../../../src/panel/context.js';
import type { Sources } from '../../../src/panel/sources.js';
import { createPanelStore, type PanelStore } from '../../../src/panel/store.js';
import {
  type BackgroundToPanel,
  CONTENT_PORT,
  type ContentToBackground,
  PANEL_PORT,
  type PanelToBackground,
  type PortLike,
} from '../../../src/shared/ports.js';

/**
 * The panel under test, wired to the REAL library in the same jsdom window (this file holds no
 * tests): the app's store greets on `window` and talks on its port; the real content script
 * (ContentRelay, listening from the start, as at document_start) relays to a stand-in for the
 * background, which forwards to the panel's PanelConnection through a fake port, and sends the
 * panel's commands back through the content script into the page.
 */

/**
 * jsdom's own postMessage leaves `source` null (which the page and the content script drop) and
 * transfers no ports: this one delivers, in a later task as jsdom does, a structured clone from
 * `window` with the ports it transfers. (The timer is taken now: a test that fakes timers later
 * still gets its messages.)
 */
const later = setTimeout;
window.postMessage = ((data: unknown, _origin: string, transfer: MessagePort[] = []) => {
  noteGreeting(data, transfer);
  const copy = structuredClone(data);
  later(() => {
    window.dispatchEvent(
      new MessageEvent('message', { data: copy, source: window, ports: transfer }),
    );
  }, 0);
}) as Window['postMessage'];

/**
 * What a script that ran before the library can hold: every channel the page made (it wrapped
 * MessageChannel), and so, by store id, the end each store posts on (see storeEnd).
 */
const channels: MessageChannel[] = [];
const storeEnds = new Map<string, MessagePort>();
const PageMessageChannel = window.MessageChannel;
window.MessageChannel = class extends PageMessageChannel {
  constructor() {
    super();
    channels.push(this);
  }
};

function noteGreeting(data: unknown, transfer: readonly MessagePort[]) {
  const { kind, storeId } = (data ?? {}) as { kind?: unknown; storeId?: unknown };
  const channel = channels.find((made) => made.port2 === transfer[0]);
  if (kind === 'hello' && typeof storeId === 'string' && channel && !storeEnds.has(storeId))
    storeEnds.set(storeId, channel.port1);
}

/**
 * The port a store of the page posts on, as a script that ran before the library holds it; throws
 * if no store of that id greeted.
 */
export function storeEnd(storeId: string): MessagePort {
  const end = storeEnds.get(storeId);
  if (end === undefined) throw new Error(`no store ${storeId} greeted on this page`);
  return end;
}

/** The content script's runtime port, whose other end is the tab of the panel mounted now. */
class ContentPort implements PortLike<unknown, ContentToBackground> {
  readonly name = CONTENT_PORT;
  tab: FakeTab | undefined;
  private readonly listeners: ((message: unknown) => void)[] = [];
  readonly onMessage = {
    addListener: (listener: (message: unknown) => void) => {
      this.listeners.push(listener);
    },
  };
  readonly onDisconnect = { addListener: () => {} };

  postMessage(message: ContentToBackground): void {
    if (message.type === 'page') this.tab?.fromPage(structuredClone(message.message));
  }

  /** The background sends a command to the content script. */
  command(command: ExtensionCommand): void {
    const copy = structuredClone(command);
    queueMicrotask(() => {
      for (const listener of this.listeners) listener(copy);
    });
  }

  disconnect(): void {}
}

const contentPort = new ContentPort();
new ContentRelay({
  window,
  connect: () => contentPort,
  setTimeout: (callback, ms) => later(callback, ms),
  warn: () => {},
});

/** The panel's end of a runtime port. Deliveries are asynchronous, as in a browser. */
export class FakePanelPort implements PortLike<unknown, PanelToBackground> {
  readonly name = PANEL_PORT;
  readonly posted: PanelToBackground[] = [];
  open = true;
  private readonly messageListeners: ((message: unknown) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];
  readonly onMessage = {
    addListener: (listener: (message: unknown) => void) => {
      this.messageListeners.push(listener);
    },
  };
  readonly onDisconnect = {
    addListener: (listener: () => void) => {
      this.disconnectListeners.push(listener);
    },
  };

  constructor(private readonly onPost: (message: PanelToBackground) => void) {}

  postMessage(message: PanelToBackground): void {
    if (!this.open) throw new Error('Attempting to use a disconnected port object');
    this.posted.push(message);
    const copy = structuredClone(message);
    queueMicrotask(() => this.onPost(copy));
  }

  /** The background sends a message to the panel. */
  deliver(message: BackgroundToPanel): void {
    if (!this.open) return;
    const copy = structuredClone(message);
    queueMicrotask(() => {
      if (this.open) for (const listener of this.messageListeners) listener(copy);
    });
  }

  /** The background went away (the browser stopped the service worker). */
  breakFromBackground(): void {
    this.open = false;
    for (const listener of this.disconnectListeners) listener();
  }

  disconnect(): void {
    this.open = false;
  }
}

/**
 * The background for one tab: announces the page once it has spoken, forwards what the content
 * script relays, and sends the panel's commands to the content script.
 */
export class FakeTab {
  /** Every command the panel sent, in order. */
  readonly commands: ExtensionCommand[] = [];
  /** Page messages that reached the panel, in order. */
  readonly forwarded: PageMessage[] = [];
  /** The next `events` messages to lose on the way (to make a gap in seq). */
  dropEvents = 0;
  private port: FakePanelPort | undefined;
  private pageLoad = 1;
  private announced = false;

  constructor() {
    contentPort.tab = this;
  }

  get pageId(): string {
    return `page-${this.pageLoad}`;
  }

  /** A panel port opened (its first, or one after a background restart). */
  attach(port: FakePanelPort): void {
    this.port = port;
    // A restarted background learns about the page again when the content script reconnects.
    if (this.announced) port.deliver({ type: 'content-connected', pageId: this.pageId });
  }

  /** The page is being reloaded: the next page message comes from a new load. */
  reload(): void {
    this.pageLoad++;
    this.announced = false;
  }

  /** The browser stops the background: the panel's port breaks (it reconnects with backoff). */
  restartBackground(): void {
    const port = this.port;
    this.port = undefined;
    port?.breakFromBackground();
  }

  dispose(): void {
    if (contentPort.tab === this) contentPort.tab = undefined;
  }

  onPanelMessage = (message: PanelToBackground): void => {
    if (message.type !== 'command') return;
    this.commands.push(message.command);
    contentPort.command(message.command);
  };

  /** A page message the content script relayed. */
  fromPage(data: PageMessage): void {
    const port = this.port;
    if (!port) return; // the background is down: the page's messages are lost
    if (!this.announced) {
      this.announced = true;
      port.deliver({ type: 'content-connected', pageId: this.pageId });
    }
    if (data.kind === 'events' && this.dropEvents > 0) {
      this.dropEvents--;
      return;
    }
    this.forwarded.push(data);
    port.deliver({ type: 'page', message: data });
  }
}

export interface MountedPanel {
  store: PanelStore;
  connection: PanelConnection;
  tab: FakeTab;
  ports: FakePanelPort[];
  container: Element;
  unmount(): void;
}

/**
 * Renders the whole panel over a fake tab, the way index.tsx wires it in the extension (with
 * `sources`, as inside DevTools).
 */
export function mountPanel({ sources }: { sources?: Sources } = {}): MountedPanel {
  const store = createPanelStore();
  const tab = new FakeTab();
  const ports: FakePanelPort[] = [];
  const connection = new PanelConnection(
    {
      connect: () => {
        const port = new FakePanelPort(tab.onPanelMessage);
        ports.push(port);
        tab.attach(port);
        return port;
      },
      setTimeout: (callback, ms) => setTimeout(callback, ms),
    },
    1,
    store,
  );
  connection.start();
  const view = render(
    <PanelContext.Provider value={{ store, connection, sources }}>
      <App />
    </PanelContext.Provider>,
  );
  return {
    store,
    connection,
    tab,
    ports,
    container: view.container,
    unmount: () => {
      view.unmount();
      tab.dispose();
    },
  };
}

/**
 * Lets every message in flight arrive and the panel render: page batches (setTimeout 0),
 * window messages (a task), the store's port (Node's MessagePort: a turn of the event loop),
 * fake port deliveries (microtasks), Preact's re-render. Twice: a
 * render asks the page for the rows it shows (once `act` has flushed it), and their answer
 * takes another round.
 */
export async function settle(tasks = 6): Promise<void> {
  for (let round = 0; round < 2; round++)
    await act(async () => {
      for (let task = 0; task < tasks; task++)
        await new Promise((resolve) => setTimeout(resolve, 0));
    });
}

/** Waits real time (for the connection's reconnect backoff), then settles. */
export async function waitMs(ms: number): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
  await settle();
}

/** Restores what a test stubbed (fetch). */
export function restoreGlobals(): void {
  vi.unstubAllGlobals();
}

/** Presses a key on an element and lets the panel render. */
export async function press(element: HTMLElement, key: string): Promise<void> {
  await act(() => {
    fireEvent.keyDown(element, { key });
  });
}
