import type { PortLike } from '../shared/ports.js';

type Sender = PortLike['sender'];

/** Who the background is: what it compares a port's sender with. */
export interface ExtensionIdentity {
  /** `runtime.id`. */
  extensionId: string;
  /** The panel page's URL, `runtime.getURL('panel.html')`. */
  panelUrl: string;
}

/**
 * The tab of a content port, or undefined when the port is not our content script in the top
 * frame of a tab. The tab id comes from the browser (the sender), never from a message: a page
 * cannot make its content script speak for another tab.
 */
export function contentTab(sender: Sender, own: ExtensionIdentity): number | undefined {
  const tabId = sender?.tab?.id;
  if (sender?.id !== own.extensionId || sender.frameId !== 0) return undefined;
  return Number.isSafeInteger(tabId) ? tabId : undefined;
}

/**
 * Whether a port comes from our panel page: in DevTools (no tab), or opened as a tab with
 * `?tabId=`. The browser sets `sender.url` from the frame that connected; a web page's content
 * script reports the page's URL, and no web page can load ours (it is not web-accessible). Only
 * then is the tab id the port names in its `init` trusted.
 */
export function isPanelPage(sender: Sender, own: ExtensionIdentity): boolean {
  if (sender?.id !== own.extensionId || typeof sender.url !== 'string') return false;
  return sender.url.split(/[?#]/, 1)[0] === own.panelUrl;
}
