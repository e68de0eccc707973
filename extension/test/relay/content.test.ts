// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  extensionCommand,
  type PageMessage,
} from '../../../library/src/devtools/protocol/messages.js';
import { ContentRelay } from '../../src/content/relay.js';
import { backoff, CONTENT_PORT, type ContentToBackground } from '../../src/shared/ports.js';
import { TestMessageChannel } from '../support/channel.js';
import {
  events,
  everyCommand,
  hello,
  invalidCommands,
  invalidPageMessages,
  snapshot,
} from '../support/messages.js';
import { TestPage } from '../support/page.js';
import { FakeClock, FakePort, FakeRuntime, settle, untilNextConnect } from '../support/ports.js';

const TAB = { tab: { id: 7 }, frameId: 0 };

let page: TestPage;
let runtime: FakeRuntime;
let clock: FakeClock;
/** The background's ends of the content ports, in the order they were accepted. */
let accepted: FakePort<ContentToBackground, unknown>[];
/** When (on the fake clock) each `runtime.connect` was called. */
let connectTimes: number[];
let extensionGone: boolean;
/** What the relay warned about, in order. */
let warnings: string[];
/** Exceptions that escaped into the page (uncaught in a listener). */
let pageErrors: unknown[];

/** Runs the fake clock's timers until the relay calls `runtime.connect` again. */
const nextConnect = () => untilNextConnect(clock, connectTimes);

function startRelay(): ContentRelay {
  return new ContentRelay({
    window: page.window,
    connect(name) {
      if (extensionGone) return undefined;
      connectTimes.push(clock.now);
      return runtime.connect(name, TAB);
    },
    setTimeout: clock.setTimeout,
    warn: (message) => warnings.push(message),
  });
}

/**
 * A store greeting as the library does: `message` (a hello) on the window, with one end of a new
 * channel; returns the other end, the store's, on which it posts everything else.
 */
function greet(message: unknown = hello()): MessagePort {
  const { port1, port2 } = new TestMessageChannel();
  page.dispatch(message, page.window, [port2]);
  return port1;
}

/** What the background received on one port, page messages unwrapped. */
function pageMessagesOn(port: FakePort<ContentToBackground, unknown> | undefined): PageMessage[] {
  return (port?.received ?? []).flatMap((message) =>
    message.type === 'page' ? [message.message] : [],
  );
}

beforeEach(() => {
  page = new TestPage();
  runtime = new FakeRuntime();
  clock = new FakeClock();
  accepted = [];
  connectTimes = [];
  extensionGone = false;
  warnings = [];
  pageErrors = [];
  page.window.addEventListener('error', (event) => pageErrors.push(event.error));
  runtime.serve((port) => accepted.push(port as FakePort<ContentToBackground, unknown>));
});
afterEach(() => {
  page.unload();
});

describe('content script: page → background', () => {
  it('opens no port when it starts, nor for any invalid message', async () => {
    startRelay();
    for (const [, message] of invalidPageMessages()) page.dispatch(message);
    await settle();
    expect(connectTimes).toEqual([]);
    expect(runtime.connections).toEqual([]);
  });

  it('opens its port on the first store greeting: hello with its pageId, then the greeting', async () => {
    const relay = startRelay();
    greet(hello('store-1'));
    await settle();
    expect(runtime.connections.map((c) => c.client.name)).toEqual([CONTENT_PORT]);
    expect(accepted[0]?.received).toEqual([
      { type: 'content-hello', pageId: relay.pageId },
      { type: 'page', message: hello('store-1') },
    ]);
    expect(relay.pageId).toMatch(/^[a-z0-9]+-[a-z0-9]+$/);
  });

  it('drops every invalid message, on the window and on a store’s port', async () => {
    startRelay();
    for (const [, message] of invalidPageMessages()) page.dispatch(message);
    const store = greet();
    for (const [, message] of invalidPageMessages()) {
      page.dispatch(message);
      store.postMessage(message);
    }
    store.postMessage(events('store-1', 1, 2));
    store.postMessage(snapshot('store-1', 2));
    await settle();
    expect(runtime.connections).toHaveLength(1);
    expect(pageMessagesOn(accepted[0])).toEqual([
      hello(),
      events('store-1', 1, 2),
      snapshot('store-1', 2),
    ]);
  });

  it.each(invalidPageMessages())('drops %s (and opens no port for it)', async (_why, message) => {
    startRelay();
    page.dispatch(message);
    await settle();
    expect(runtime.connections).toEqual([]);
  });

  it('drops greetings that do not come from its own window', async () => {
    startRelay();
    const other = new TestPage();
    const port = () => new TestMessageChannel().port2;
    page.dispatch(hello(), null, [port()]); // what jsdom's own postMessage gives, and opaque senders
    page.dispatch(hello(), window, [port()]); // the embedding page
    page.dispatch(hello(), other.window, [port()]); // another frame
    other.greet(hello()); // another frame's own greeting, on that frame's window
    await settle();
    expect(runtime.connections).toEqual([]);
    other.unload();
  });

  it('relays what stores greet with postMessage and post on their ports, in order', async () => {
    startRelay();
    const one = page.greet(hello('store-1'));
    const two = page.greet(hello('store-2'));
    one.postMessage(events('store-1', 1));
    two.postMessage(events('store-2', 1));
    one.postMessage(events('store-1', 2, 3));
    await settle();
    expect(pageMessagesOn(accepted[0])).toEqual([
      hello('store-1'),
      hello('store-2'),
      events('store-1', 1),
      events('store-2', 1),
      events('store-1', 2, 3),
    ]);
  });
});

describe('content script: what speaks for a store', () => {
  it('takes no greeting without a port, nor any other message from the window', async () => {
    startRelay();
    page.window.postMessage(hello(), '*');
    page.window.postMessage(events('store-1', 1), '*');
    page.window.postMessage(snapshot('store-1', 1), '*');
    await settle();
    expect(runtime.connections).toEqual([]);
  });

  it('drops what the window says under a store’s id, while the store’s port goes on', async () => {
    startRelay();
    const store = greet();
    page.window.postMessage(events('store-1', 1), '*');
    page.window.postMessage(snapshot('store-1', 1), '*');
    page.window.postMessage(hello('store-1', 1), '*');
    store.postMessage(events('store-1', 1));
    await settle();
    expect(pageMessagesOn(accepted[0])).toEqual([hello(), events('store-1', 1)]);
  });

  it('binds a store id to the port of its first greeting: a later greeting with another port is dropped', async () => {
    startRelay();
    const store = greet();
    const forger = greet(hello('store-1', 5));
    forger.postMessage(events('store-1', 1));
    store.postMessage(events('store-1', 1));
    await settle();
    expect(pageMessagesOn(accepted[0])).toEqual([hello(), events('store-1', 1)]);
  });

  it('takes on a store’s port only that store’s messages', async () => {
    startRelay();
    const one = greet(hello('store-1'));
    greet(hello('store-2'));
    one.postMessage(events('store-2', 1));
    one.postMessage(hello('store-3'));
    one.postMessage(events('store-1', 1));
    await settle();
    expect(pageMessagesOn(accepted[0])).toEqual([
      hello('store-1'),
      hello('store-2'),
      events('store-1', 1),
    ]);
  });
});

describe('content script: page messages it cannot forward', () => {
  /** A hello with one more field, which the protocol does not know (the relay forwards it too). */
  const helloWith = (storeId: string, field: unknown) => ({ ...hello(storeId), extra: field });

  /** The ports refuse a message whose extra field is `'refused'`, as a port may (it is gone). */
  function portsRefuseMarked() {
    const post = FakePort.prototype.postMessage;
    vi.spyOn(FakePort.prototype, 'postMessage').mockImplementation(function (
      this: FakePort<ContentToBackground, unknown>,
      message: ContentToBackground,
    ) {
      if (message.type === 'page' && (message.message as { extra?: unknown }).extra === 'refused')
        throw new Error('refused');
      post.call(this, message);
    });
  }
  afterEach(() => vi.restoreAllMocks());

  it('refuses what the port could not write as JSON (a cycle, a BigInt, over 64 MiB) before trying', async () => {
    const relay = startRelay();
    const store = greet();
    await settle();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    greet(helloWith('store-cyclic', cyclic));
    greet(helloWith('store-bigint', 10n));
    greet(helloWith('store-huge', 'x'.repeat(64 * 1024 * 1024)));
    store.postMessage(events('store-1', 1));
    await settle();
    expect(pageErrors).toEqual([]);
    expect(pageMessagesOn(accepted[0])).toEqual([hello(), events('store-1', 1)]);
    expect(relay.dropped).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('drops and counts what the port refuses, and goes on', async () => {
    portsRefuseMarked();
    const relay = startRelay();
    const store = greet();
    await settle();
    greet(helloWith('store-2', 'refused'));
    store.postMessage(events('store-1', 1));
    await settle();
    expect(pageErrors).toEqual([]);
    expect(pageMessagesOn(accepted[0])).toEqual([hello(), events('store-1', 1)]);
    expect(relay.dropped).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^RestLens: a page message could not be forwarded .*; 1 dropped so far/s,
    );
    expect(accepted[0]?.connected).toBe(true);
  });

  it('drops what it cannot forward from its queue too, and sends the rest', async () => {
    portsRefuseMarked();
    const relay = startRelay();
    const store = greet();
    await settle();
    accepted[0]!.disconnect();
    await settle();
    greet(helloWith('store-2', 'refused'));
    store.postMessage(events('store-1', 1));
    clock.advance(backoff(0));
    await settle();
    expect(pageErrors).toEqual([]);
    expect(pageMessagesOn(accepted[1])).toEqual([events('store-1', 1)]);
    expect(relay.dropped).toBe(1);
  });
});

describe('content script: background → page', () => {
  it('posts every valid command into the page, in order', async () => {
    startRelay();
    greet();
    await settle();
    const background = accepted[0]!;
    for (const command of everyCommand()) background.postMessage(command);
    await settle();
    expect(page.posted).toEqual(everyCommand());
  });

  it.each(invalidCommands())('never posts %s into the page', async (_why, message) => {
    startRelay();
    greet();
    await settle();
    accepted[0]!.postMessage(message);
    await settle();
    expect(page.posted).toEqual([]);
  });

  it('does not send its own commands back to the background when the page echoes them', async () => {
    const relay = startRelay();
    greet();
    await settle();
    accepted[0]!.postMessage(extensionCommand({ kind: 'connect', lastSeq: 0 }));
    await settle();
    // The command reached the window (where the relay listens too)...
    expect(page.posted).toEqual([extensionCommand({ kind: 'connect', lastSeq: 0 })]);
    // ...and only the page's own messages went to the background.
    expect(accepted[0]!.received).toEqual([
      { type: 'content-hello', pageId: relay.pageId },
      { type: 'page', message: hello() },
    ]);
  });
});

describe('content script: reconnection', () => {
  it('tells the page to stop sending when its port drops (a panel still there resyncs)', async () => {
    startRelay();
    greet();
    await settle();
    expect(page.posted).toEqual([]);
    accepted[0]!.disconnect(); // the browser stopped the background
    await settle();
    expect(page.posted).toEqual([extensionCommand({ kind: 'disconnect' })]);
    clock.advance(backoff(0));
    await settle();
    // Reconnecting tells the page nothing: the panel, if one is there, sends `connect`.
    expect(page.posted).toEqual([extensionCommand({ kind: 'disconnect' })]);
    expect(runtime.live(CONTENT_PORT)).toHaveLength(1);
  });

  it('queues while the port is down and sends the queue after hello when it reconnects', async () => {
    const relay = startRelay();
    const store = greet();
    await settle();
    accepted[0]!.disconnect(); // the browser stopped the background
    await settle();
    store.postMessage(events('store-1', 1));
    store.postMessage(events('store-1', 2));
    await settle();
    expect(runtime.connections).toHaveLength(1); // waits for its backoff

    clock.advance(backoff(0) - 1);
    await settle();
    expect(runtime.connections).toHaveLength(1);
    clock.advance(1);
    await settle();
    expect(runtime.connections).toHaveLength(2);
    expect(accepted[1]!.received).toEqual([
      { type: 'content-hello', pageId: relay.pageId },
      { type: 'page', message: events('store-1', 1) },
      { type: 'page', message: events('store-1', 2) },
    ]);

    store.postMessage(events('store-1', 3));
    await settle();
    expect(pageMessagesOn(accepted[1]).at(-1)).toEqual(events('store-1', 3));
  });

  it('backs off while the background cannot be reached: 100 ms doubling up to 5 s', async () => {
    startRelay();
    greet();
    await settle();
    runtime.kill(); // closes the port; every connect fails until the background is back
    for (let attempt = 0; attempt < 9; attempt++) await nextConnect();
    const gaps = connectTimes.slice(1).map((time, index) => time - connectTimes[index]!);
    // The first gap is from the first connect to the first retry (the port was closed at 0).
    expect(gaps).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
  });

  it('starts its backoff over once a connection has stayed up', async () => {
    startRelay();
    greet();
    await settle();
    runtime.kill();
    for (let attempt = 0; attempt < 4; attempt++) await nextConnect();
    runtime.serve((port) => accepted.push(port as FakePort<ContentToBackground, unknown>));
    await nextConnect(); // 1600 ms later: this connect succeeds
    const connected = connectTimes.at(-1)!;
    expect(runtime.live(CONTENT_PORT)).toHaveLength(1);

    clock.advance(10_000); // the connection stays up
    await settle();
    accepted.at(-1)!.disconnect();
    const dropped = clock.now;
    await settle();
    clock.advance(100);
    await settle();
    expect(connectTimes.at(-1)).toBe(dropped + 100);
    expect(connected).toBeLessThan(dropped);
    expect(runtime.live(CONTENT_PORT)).toHaveLength(1);
  });

  it('keeps only the newest 500 messages while down: the panel resyncs the rest', async () => {
    startRelay();
    const store = greet();
    await settle();
    accepted[0]!.disconnect();
    await settle();
    for (let seq = 1; seq <= 600; seq++) store.postMessage(events('store-1', seq));
    await settle();
    clock.advance(backoff(0));
    await settle();
    const relayed = pageMessagesOn(accepted[1]);
    expect(relayed).toHaveLength(500);
    expect(relayed[0]).toEqual(events('store-1', 101));
    expect(relayed.at(-1)).toEqual(events('store-1', 600));
  });

  it('stays quiet once the extension is gone (reloaded or removed)', async () => {
    startRelay();
    const store = greet();
    await settle();
    extensionGone = true;
    accepted[0]!.disconnect();
    await settle();
    clock.advance(60_000);
    store.postMessage(events('store-1', 1));
    await settle();
    clock.advance(60_000);
    expect(clock.pending).toBe(0); // no more retries
    expect(runtime.connections).toHaveLength(1);
    // Told once, when the port dropped, to stop sending: nobody can read it any more.
    expect(page.posted).toEqual([extensionCommand({ kind: 'disconnect' })]);
  });

  it('opens nothing and schedules nothing when the extension is already gone', async () => {
    extensionGone = true;
    startRelay();
    greet();
    await settle();
    expect(runtime.connections).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});
