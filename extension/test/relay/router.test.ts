// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import {
  extensionCommand,
  type PageMessage,
} from '../../../library/src/devtools/protocol/messages.js';
import { Router } from '../../src/background/router.js';
import {
  type BackgroundToPanel,
  CONTENT_PORT,
  type ContentToBackground,
  PANEL_PORT,
  type PanelToBackground,
} from '../../src/shared/ports.js';
import {
  events,
  everyCommand,
  hello,
  invalidCommands,
  invalidPageMessages,
} from '../support/messages.js';
import {
  contentSender,
  type FakePort,
  FakeRuntime,
  OWN_EXTENSION,
  PANEL_SENDER,
  type PortSender,
  settle,
} from '../support/ports.js';

type ContentEnd = FakePort<unknown, ContentToBackground>;
type PanelEnd = FakePort<BackgroundToPanel, PanelToBackground>;

let runtime: FakeRuntime;

beforeEach(() => {
  runtime = new FakeRuntime();
  const router = new Router(OWN_EXTENSION);
  runtime.serve((port) => router.accept(port));
});

/** A content script of `tabId` that has said hello (as the relay does on connect). */
function content(tabId: number, pageId = `page-${tabId}`, frameId = 0): ContentEnd {
  const port = runtime.connect<unknown, ContentToBackground>(
    CONTENT_PORT,
    contentSender(tabId, frameId),
  );
  port.postMessage({ type: 'content-hello', pageId });
  return port;
}

/** A panel watching `tabId`; devtools pages have no tab of their own. */
function panel(tabId: number, sender: PortSender = PANEL_SENDER): PanelEnd {
  const port = runtime.connect<BackgroundToPanel, PanelToBackground>(PANEL_PORT, sender);
  port.postMessage({ type: 'init', tabId });
  return port;
}

function relay(port: ContentEnd, message: PageMessage): void {
  port.postMessage({ type: 'page', message });
}

/** The page messages a panel received. */
function pageMessages(port: PanelEnd): PageMessage[] {
  return port.received.flatMap((message) => (message.type === 'page' ? [message.message] : []));
}

/** What a panel received other than page messages. */
function notices(port: PanelEnd): BackgroundToPanel[] {
  return port.received.filter((message) => message.type !== 'page');
}

describe('background: routing by tab', () => {
  it('gives each tab its own events and sends each panel’s commands to its own tab', async () => {
    const tab1 = content(1);
    const tab2 = content(2);
    const panel1 = panel(1);
    const panel2 = panel(2);
    await settle();
    relay(tab1, events('store-a', 1));
    relay(tab2, events('store-b', 1));
    relay(tab1, events('store-a', 2));
    panel1.postMessage({
      type: 'command',
      command: extensionCommand({ kind: 'connect', lastSeq: 0 }),
    });
    panel2.postMessage({
      type: 'command',
      command: extensionCommand({ kind: 'reset', storeId: 'store-b' }),
    });
    await settle();
    expect(pageMessages(panel1)).toEqual([events('store-a', 1), events('store-a', 2)]);
    expect(pageMessages(panel2)).toEqual([events('store-b', 1)]);
    expect(tab1.received).toEqual([extensionCommand({ kind: 'connect', lastSeq: 0 })]);
    expect(tab2.received).toEqual([extensionCommand({ kind: 'reset', storeId: 'store-b' })]);
  });

  it('never gives one tab’s events to another tab’s panel, with or without a page there', async () => {
    const tab1 = content(1);
    const panelOfEmptyTab = panel(3);
    const panel2 = panel(2);
    await settle();
    relay(tab1, hello('store-a'));
    relay(tab1, events('store-a', 1, 2, 3));
    await settle();
    const late = panel(4); // a panel that arrives later, for another tab
    relay(tab1, events('store-a', 4));
    await settle();
    for (const other of [panelOfEmptyTab, panel2, late]) expect(other.received).toEqual([]);
  });

  it('lets several panels watch one tab; closing one leaves the others', async () => {
    const tab = content(1);
    const first = panel(1);
    const second = panel(1);
    await settle();
    relay(tab, events('store-a', 1));
    await settle();
    first.disconnect();
    await settle();
    relay(tab, events('store-a', 2));
    second.postMessage({
      type: 'command',
      command: extensionCommand({ kind: 'expireAll', storeId: 'store-a' }),
    });
    await settle();
    expect(pageMessages(first)).toEqual([events('store-a', 1)]);
    expect(pageMessages(second)).toEqual([events('store-a', 1), events('store-a', 2)]);
    expect(tab.received).toEqual([extensionCommand({ kind: 'expireAll', storeId: 'store-a' })]);
    expect(tab.connected).toBe(true);
  });

  it('relays every valid command unwrapped, and drops invalid ones', async () => {
    const tab = content(1);
    const watcher = panel(1);
    await settle();
    for (const [, command] of invalidCommands())
      watcher.postMessage({ type: 'command', command } as PanelToBackground);
    for (const command of everyCommand()) watcher.postMessage({ type: 'command', command });
    watcher.postMessage({ type: 'eval', code: '1' } as unknown as PanelToBackground);
    watcher.postMessage('command' as unknown as PanelToBackground);
    await settle();
    expect(tab.received).toEqual(everyCommand());
  });

  it('drops invalid page messages from a content script', async () => {
    const tab = content(1);
    const watcher = panel(1);
    await settle();
    for (const [, message] of invalidPageMessages())
      tab.postMessage({ type: 'page', message } as ContentToBackground);
    tab.postMessage(events('store-a', 1) as unknown as ContentToBackground); // not wrapped
    tab.postMessage(null as unknown as ContentToBackground);
    relay(tab, events('store-a', 1));
    await settle();
    expect(pageMessages(watcher)).toEqual([events('store-a', 1)]);
  });

  it('ignores commands sent before init, and a second init for another tab', async () => {
    const tab1 = content(1);
    const tab2 = content(2);
    await settle();
    const watcher = runtime.connect<BackgroundToPanel, PanelToBackground>(PANEL_PORT, PANEL_SENDER);
    watcher.postMessage({ type: 'command', command: extensionCommand({ kind: 'disconnect' }) });
    watcher.postMessage({ type: 'init', tabId: 1 });
    watcher.postMessage({ type: 'init', tabId: 2 });
    watcher.postMessage({
      type: 'command',
      command: extensionCommand({ kind: 'snapshot', storeId: 's' }),
    });
    await settle();
    relay(tab2, events('store-b', 1));
    relay(tab1, events('store-a', 1));
    await settle();
    expect(tab1.received).toEqual([extensionCommand({ kind: 'snapshot', storeId: 's' })]);
    expect(tab2.received).toEqual([]);
    expect(pageMessages(watcher)).toEqual([events('store-a', 1)]);
  });

  it('ignores an init whose tab id is not an integer', async () => {
    const tab = content(1);
    await settle();
    const watcher = runtime.connect<BackgroundToPanel, PanelToBackground>(PANEL_PORT, PANEL_SENDER);
    for (const tabId of ['1', 1.5, Number.NaN, null])
      watcher.postMessage({ type: 'init', tabId } as unknown as PanelToBackground);
    watcher.postMessage({ type: 'command', command: extensionCommand({ kind: 'disconnect' }) });
    relay(tab, events('store-a', 1));
    await settle();
    expect(watcher.received).toEqual([]);
    expect(tab.received).toEqual([]);
  });
});

describe('background: which ports it accepts', () => {
  it('ignores content ports from sub-frames: closes them and routes nothing from them', async () => {
    const top = content(1, 'top');
    const watcher = panel(1);
    await settle();
    const frame = content(1, 'frame', 5);
    relay(frame, hello('store-in-frame'));
    await settle();
    expect(frame.disconnectFired).toBe(true);
    expect(notices(watcher)).toEqual([{ type: 'content-connected', pageId: 'top' }]);
    expect(pageMessages(watcher)).toEqual([]);
    // The top frame still owns the tab.
    watcher.postMessage({ type: 'command', command: extensionCommand({ kind: 'disconnect' }) });
    relay(top, hello('store-a'));
    await settle();
    expect(top.received).toEqual([extensionCommand({ kind: 'disconnect' })]);
    expect(pageMessages(watcher)).toEqual([hello('store-a')]);
  });

  it('closes content ports without a tab, and ports with an unknown name', async () => {
    const noTab = runtime.connect<unknown, ContentToBackground>(CONTENT_PORT, {});
    const unknown = runtime.connect('restlens-debugger', contentSender(1));
    await settle();
    expect(noTab.disconnectFired).toBe(true);
    expect(unknown.disconnectFired).toBe(true);
  });

  it('closes content ports that do not name their frame, or come from another extension', async () => {
    const watcher = panel(1);
    await settle();
    const { frameId: _, ...noFrame } = contentSender(1);
    const senders: PortSender[] = [noFrame, { ...contentSender(1), id: 'another-extension' }];
    const ports = senders.map((sender) => {
      const port = runtime.connect<unknown, ContentToBackground>(CONTENT_PORT, sender);
      port.postMessage({ type: 'content-hello', pageId: 'forged' });
      port.postMessage({ type: 'page', message: hello('store-forged') });
      return port;
    });
    await settle();
    for (const port of ports) expect(port.disconnectFired).toBe(true);
    expect(watcher.received).toEqual([]);
  });

  it('accepts the panel page in DevTools (no tab) and opened as a tab with ?tabId=', async () => {
    const tab = content(1);
    const inDevtools = panel(1);
    const asTab = panel(1, {
      id: OWN_EXTENSION.extensionId,
      url: `${OWN_EXTENSION.panelUrl}?tabId=1`,
      tab: { id: 42 },
      frameId: 0,
    });
    await settle();
    relay(tab, hello('store-a'));
    asTab.postMessage({ type: 'command', command: extensionCommand({ kind: 'disconnect' }) });
    await settle();
    for (const watcher of [inDevtools, asTab]) {
      expect(watcher.connected).toBe(true);
      expect(pageMessages(watcher)).toEqual([hello('store-a')]);
    }
    expect(tab.received).toEqual([extensionCommand({ kind: 'disconnect' })]);
  });

  it.each<[string, PortSender]>([
    ['a page’s content script', contentSender(2)],
    ['a content script’s sub-frame', contentSender(2, 3)],
    [
      'another page of the extension',
      { id: OWN_EXTENSION.extensionId, url: OWN_EXTENSION.panelUrl.replace('panel', 'devtools') },
    ],
    ['another extension’s panel page', { id: 'another-extension', url: OWN_EXTENSION.panelUrl }],
    [
      'a web page named like the panel',
      { id: OWN_EXTENSION.extensionId, url: 'https://evil.test/panel.html' },
    ],
    ['a sender with no URL', { id: OWN_EXTENSION.extensionId }],
  ])('refuses a panel port from %s, whatever tab it names', async (_from, sender) => {
    const tab = content(1);
    await settle();
    const forged = panel(1, sender);
    forged.postMessage({
      type: 'command',
      command: extensionCommand({ kind: 'reset', storeId: 's' }),
    });
    await settle();
    relay(tab, hello('store-a'));
    await settle();
    expect(forged.disconnectFired).toBe(true);
    expect(forged.received).toEqual([]);
    expect(tab.received).toEqual([]);
  });
});

describe('background: telling panels about the page', () => {
  it('tells a panel content-connected with the pageId when the content script connects', async () => {
    const watcher = panel(1);
    await settle();
    expect(watcher.received).toEqual([]);
    content(1, 'load-1');
    await settle();
    expect(watcher.received).toEqual([{ type: 'content-connected', pageId: 'load-1' }]);
  });

  it('tells a panel content-connected on init when the content script is already there', async () => {
    content(1, 'load-1');
    await settle();
    const watcher = panel(1);
    const other = panel(2);
    await settle();
    expect(watcher.received).toEqual([{ type: 'content-connected', pageId: 'load-1' }]);
    expect(other.received).toEqual([]);
  });

  it('waits for the content script’s hello before telling a panel it is there', async () => {
    const port = runtime.connect<unknown, ContentToBackground>(CONTENT_PORT, contentSender(1));
    await settle();
    const watcher = panel(1);
    await settle();
    expect(watcher.received).toEqual([]);
    port.postMessage({ type: 'content-hello', pageId: 'late' });
    await settle();
    expect(watcher.received).toEqual([{ type: 'content-connected', pageId: 'late' }]);
  });

  it('tells panels content-disconnected when the page goes', async () => {
    const tab = content(1);
    const watcher = panel(1);
    await settle();
    tab.disconnect();
    await settle();
    expect(notices(watcher)).toEqual([
      { type: 'content-connected', pageId: 'page-1' },
      { type: 'content-disconnected' },
    ]);
  });

  it('after a reload, ignores the old page: its late disconnect and its late messages', async () => {
    const watcher = panel(1);
    const old = content(1, 'load-1');
    await settle();
    const reloaded = content(1, 'load-2'); // the new page's port arrives before the old one closes
    await settle();
    relay(old, events('store-old', 7)); // the old page's last batch
    relay(reloaded, hello('store-new'));
    await settle();
    old.disconnect();
    await settle();
    expect(notices(watcher)).toEqual([
      { type: 'content-connected', pageId: 'load-1' },
      { type: 'content-connected', pageId: 'load-2' },
    ]);
    expect(pageMessages(watcher)).toEqual([hello('store-new')]);
    watcher.postMessage({
      type: 'command',
      command: extensionCommand({ kind: 'connect', lastSeq: 0 }),
    });
    await settle();
    expect(reloaded.received).toEqual([extensionCommand({ kind: 'connect', lastSeq: 0 })]);
    expect(old.received).toEqual([]);
  });

  it('tells the page to stop sending once the last panel of its tab has closed', async () => {
    const tab = content(1);
    const other = content(2);
    const first = panel(1);
    const second = panel(1);
    const watcher2 = panel(2);
    await settle();
    first.disconnect();
    await settle();
    expect(tab.received).toEqual([]); // one panel still watches
    second.disconnect();
    await settle();
    expect(tab.received).toEqual([extensionCommand({ kind: 'disconnect' })]);
    expect(other.received).toEqual([]);
    expect(watcher2.connected).toBe(true);
  });

  it('tells no page anything when a panel closes before it said which tab it watches', async () => {
    const tab = content(1);
    const early = runtime.connect<BackgroundToPanel, PanelToBackground>(PANEL_PORT, PANEL_SENDER);
    await settle();
    early.disconnect();
    await settle();
    expect(tab.received).toEqual([]);
  });
});
