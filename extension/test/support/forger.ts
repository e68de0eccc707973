import { hello } from './messages.js';

/** How a script of the page can reach the content script. */
export interface PageAccess {
  /** Posts a window message. */
  post(message: unknown): void;
  /** Greets as a store does (`hello` with one end of a new channel); returns the other end. */
  greet(message: unknown): MessagePort;
}

/**
 * A script of the page posting what it likes, by every way a page gives it (this file holds no
 * tests): under the real store's id, on the store's own port, which a script that ran before the
 * library can hold (it wrapped MessageChannel, say); under any other store id, on a port of its
 * own after greeting as that store; anything else on the window.
 */
export class PageForger {
  private readonly ownPorts = new Map<string, MessagePort>();

  constructor(
    private readonly page: PageAccess,
    private readonly store: { id: string; port: MessagePort },
  ) {}

  post(message: unknown): void {
    const storeId = storeIdOf(message);
    if (storeId === undefined) this.page.post(message);
    else if (storeId === this.store.id) this.store.port.postMessage(message);
    else this.portFor(storeId).postMessage(message);
  }

  private portFor(storeId: string): MessagePort {
    let port = this.ownPorts.get(storeId);
    if (port === undefined) {
      port = this.page.greet(hello(storeId));
      this.ownPorts.set(storeId, port);
    }
    return port;
  }
}

function storeIdOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { storeId } = message as { storeId?: unknown };
  return typeof storeId === 'string' ? storeId : undefined;
}
