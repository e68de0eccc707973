import { extensionCommand } from '../../../library/src/devtools/protocol/messages.js';
import {
  isExtensionCommand,
  isPageMessage,
} from '../../../library/src/devtools/protocol/validate.js';
import {
  type BackgroundToPanel,
  CONTENT_PORT,
  type ContentToBackground,
  isObject,
  PANEL_PORT,
  type PortLike,
} from '../shared/ports.js';
import { contentTab, type ExtensionIdentity, isPanelPage } from './senders.js';

type ContentPort = PortLike<unknown, unknown>;
type PanelPort = PortLike<unknown, BackgroundToPanel>;

/**
 * Routes messages by tab: a content script's page messages go to every panel of its tab, and a
 * panel's commands go to its tab's content script. It holds only the live ports, which the
 * content scripts and panels re-open after the browser stops the service worker. Ports are
 * accepted by their sender (see senders.ts): content ports from the top frame of a tab, panel
 * ports from our panel page; any other port is closed.
 */
export class Router {
  private readonly contentByTab = new Map<number, { port: ContentPort; pageId?: string }>();
  private readonly panelsByTab = new Map<number, Set<PanelPort>>();

  constructor(private readonly own: ExtensionIdentity) {}

  accept(port: PortLike<unknown, unknown>): void {
    const tabId = port.name === CONTENT_PORT ? contentTab(port.sender, this.own) : undefined;
    if (tabId !== undefined) this.acceptContent(port, tabId);
    else if (port.name === PANEL_PORT && isPanelPage(port.sender, this.own))
      this.acceptPanel(port as PanelPort);
    else port.disconnect();
  }

  private acceptContent(port: ContentPort, tabId: number) {
    const entry: { port: ContentPort; pageId?: string } = { port };
    this.contentByTab.set(tabId, entry);
    port.onMessage.addListener((raw) => {
      const message = raw as ContentToBackground;
      // After a reload the new page's port replaces this one, but the old page's last messages
      // can still arrive: they must not reach the panels mixed with the new page's.
      if (this.contentByTab.get(tabId) !== entry) return;
      if (!isObject(message)) return;
      if (message.type === 'content-hello' && typeof message.pageId === 'string') {
        entry.pageId = message.pageId;
        this.toPanels(tabId, { type: 'content-connected', pageId: message.pageId });
      } else if (message.type === 'page' && isPageMessage(message.message)) {
        this.toPanels(tabId, { type: 'page', message: message.message });
      }
    });
    port.onDisconnect.addListener(() => {
      if (this.contentByTab.get(tabId) !== entry) return;
      this.contentByTab.delete(tabId);
      this.toPanels(tabId, { type: 'content-disconnected' });
    });
  }

  private acceptPanel(port: PanelPort) {
    let tabId: number | undefined;
    port.onMessage.addListener((message) => {
      if (!isObject(message)) return;
      if (message.type === 'init' && Number.isSafeInteger(message.tabId) && tabId === undefined) {
        tabId = message.tabId as number;
        const panels = this.panelsByTab.get(tabId) ?? new Set();
        panels.add(port);
        this.panelsByTab.set(tabId, panels);
        const content = this.contentByTab.get(tabId);
        if (content?.pageId)
          port.postMessage({ type: 'content-connected', pageId: content.pageId });
      } else if (
        message.type === 'command' &&
        tabId !== undefined &&
        isExtensionCommand(message.command)
      ) {
        this.contentByTab.get(tabId)?.port.postMessage(message.command);
      }
    });
    port.onDisconnect.addListener(() => {
      if (tabId === undefined) return;
      const panels = this.panelsByTab.get(tabId);
      panels?.delete(port);
      // The last panel of a tab going tells the page to stop sending: it then keeps only its
      // ring until a panel connects again, instead of serializing events nobody reads.
      if (panels?.size === 0) {
        this.panelsByTab.delete(tabId);
        this.contentByTab.get(tabId)?.port.postMessage(extensionCommand({ kind: 'disconnect' }));
      }
    });
  }

  private toPanels(tabId: number, message: BackgroundToPanel) {
    for (const panel of this.panelsByTab.get(tabId) ?? []) panel.postMessage(message);
  }
}
