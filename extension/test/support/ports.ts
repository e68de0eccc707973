import type { PortLike } from '../../src/shared/ports.js';

/**
 * In-memory stand-ins for `runtime.Port` and `runtime.connect`/`onConnect` (this file holds no
 * tests). They behave like the browser's ports where our code can tell the difference:
 * - messages are delivered asynchronously (one microtask each, in order) as JSON copies, as
 *   Chrome serializes runtime messages;
 * - `disconnect()` fires `onDisconnect` on the OTHER end only, asynchronously, after the
 *   messages posted before it; messages in flight towards the closed end, and anything the
 *   other end posts before its own `onDisconnect` has fired, are lost;
 * - posting on a port that was disconnected (by itself, or after its `onDisconnect` fired)
 *   throws, like Chrome's "Attempting to use a disconnected port object";
 * - posting what JSON cannot carry (a cycle, a BigInt) or a message over 64 MiB throws, as
 *   Chrome's serialization does.
 */

/** Chrome refuses runtime messages larger than this (as JSON). */
export const MAX_PORT_MESSAGE_LENGTH = 64 * 1024 * 1024;

export interface PortSender {
  tab?: { id?: number };
  frameId?: number;
  url?: string;
  /** The id of the extension whose page or content script opened the port. */
  id?: string;
}

/** The extension under test, as the background knows itself. */
export const OWN_EXTENSION = {
  extensionId: 'restlensextensionid',
  panelUrl: 'chrome-extension://restlensextensionid/panel.html',
};

/** A panel page inside DevTools: an extension page with no tab of its own. */
export const PANEL_SENDER: PortSender = {
  id: OWN_EXTENSION.extensionId,
  url: OWN_EXTENSION.panelUrl,
};

/** The content script in the top frame of tab `tabId`. */
export function contentSender(tabId: number, frameId = 0): PortSender {
  return { id: OWN_EXTENSION.extensionId, tab: { id: tabId }, frameId, url: 'https://app.test/' };
}

export class FakePort<In = unknown, Out = unknown> implements PortLike<In, Out> {
  /** What this end posted (before serialization), in order, including messages that were lost. */
  readonly posted: Out[] = [];
  /** What was delivered to this end, in order. */
  readonly received: In[] = [];
  /** False once this end called `disconnect()` or its `onDisconnect` fired. */
  open = true;
  /** Set on the end whose peer closed first, until its `onDisconnect` has fired. */
  private peerClosed = false;
  /** Whether `disconnect()` was called on this end. */
  disconnectedHere = false;
  /** Whether this end's `onDisconnect` fired. */
  disconnectFired = false;
  peer!: FakePort<Out, In>;
  private readonly messageListeners: ((message: In) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];

  constructor(
    readonly name: string,
    readonly sender?: PortSender,
  ) {}

  readonly onMessage = {
    addListener: (listener: (message: In) => void) => {
      this.messageListeners.push(listener);
    },
  };
  readonly onDisconnect = {
    addListener: (listener: () => void) => {
      this.disconnectListeners.push(listener);
    },
  };

  postMessage(message: Out): void {
    if (!this.open) throw new Error('Attempting to use a disconnected port object');
    const text = JSON.stringify(message);
    if (text.length > MAX_PORT_MESSAGE_LENGTH)
      throw new Error('Message length exceeded maximum allowed length.');
    this.posted.push(message);
    if (this.peerClosed) return; // the other end is gone: lost
    const copy = JSON.parse(text) as Out;
    const peer = this.peer;
    queueMicrotask(() => peer.deliver(copy));
  }

  disconnect(): void {
    if (!this.open) return;
    this.open = false;
    this.disconnectedHere = true;
    const peer = this.peer;
    if (!peer.open) return;
    peer.peerClosed = true;
    queueMicrotask(() => peer.fireDisconnect());
  }

  /** Whether both ends are still up (nothing has closed this connection). */
  get connected(): boolean {
    return this.open && !this.peerClosed;
  }

  private deliver(message: In) {
    // Messages the peer posted before closing still arrive (they were sent first).
    if (!this.open) return;
    this.received.push(message);
    for (const listener of this.messageListeners) listener(message);
  }

  private fireDisconnect() {
    if (!this.open) return;
    this.open = false;
    this.disconnectFired = true;
    for (const listener of this.disconnectListeners) listener();
  }
}

/** Two connected ends: what one posts the other receives. */
export function portPair<A = unknown, B = unknown>(
  name: string,
  sender?: PortSender,
): { client: FakePort<B, A>; server: FakePort<A, B> } {
  const client = new FakePort<B, A>(name);
  const server = new FakePort<A, B>(name, sender);
  client.peer = server;
  server.peer = client;
  return { client, server };
}

export interface Connection {
  client: FakePort;
  server: FakePort;
}

/**
 * The runtime between the extension's parts: `connect()` is `runtime.connect` for a content
 * script or panel, `serve()` installs the background's `runtime.onConnect` listener, and
 * `kill()` stops the background (every port it holds closes; connects fail until `serve()`).
 */
export class FakeRuntime {
  private listener: ((port: FakePort) => void) | undefined;
  /** Every connection ever made, oldest first. */
  readonly connections: Connection[] = [];
  /** Connections this returns true for fail as if the background were not there. */
  refuse: (name: string, sender: PortSender | undefined) => boolean = () => false;

  serve(listener: (port: PortLike<unknown, unknown>) => void): void {
    this.listener = listener;
  }

  /** Stops the background: its ports close (the other ends see `onDisconnect`). */
  kill(): void {
    this.listener = undefined;
    for (const { server } of this.connections) server.disconnect();
  }

  /** `runtime.connect`: the background sees the port in a later microtask, or it closes. */
  connect<In = unknown, Out = unknown>(name: string, sender?: PortSender): FakePort<In, Out> {
    const pair = portPair(name, sender);
    this.connections.push(pair);
    queueMicrotask(() => {
      if (!pair.client.open) return;
      // No background listening: the connection fails, as "Receiving end does not exist".
      if (this.listener && !this.refuse(name, sender)) this.listener(pair.server);
      else pair.server.disconnect();
    });
    return pair.client as FakePort<In, Out>;
  }

  /** The connections whose port has the given name, oldest first. */
  named(name: string): Connection[] {
    return this.connections.filter((connection) => connection.client.name === name);
  }

  /** The connections that are still up. */
  live(name?: string): Connection[] {
    return this.connections.filter(
      (connection) =>
        connection.client.connected &&
        connection.server.connected &&
        (name === undefined || connection.client.name === name),
    );
  }
}

/**
 * A manual clock for the `setTimeout` that the relay and the panel connection take: nothing runs
 * until the test advances it; every requested delay is recorded.
 */
export class FakeClock {
  now = 0;
  /** Every delay asked for, in order. */
  readonly delays: number[] = [];
  private timers: { at: number; order: number; callback: () => void }[] = [];
  private order = 0;

  readonly setTimeout = (callback: () => void, ms: number): unknown => {
    this.delays.push(ms);
    const timer = { at: this.now + ms, order: this.order++, callback };
    this.timers.push(timer);
    return timer;
  };

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** The delay until the next timer, or undefined when none is waiting. */
  get nextIn(): number | undefined {
    const next = this.sorted()[0];
    return next === undefined ? undefined : next.at - this.now;
  }

  /** Runs every timer due within `ms` (including timers they schedule), in time order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const next = this.sorted()[0];
      if (next === undefined || next.at > end) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.now = next.at;
      next.callback();
    }
    this.now = end;
  }

  /** Runs the next timer, whatever its delay; returns that delay. */
  runNext(): number {
    const next = this.sorted()[0];
    if (next === undefined) throw new Error('no timer is waiting');
    const delay = next.at - this.now;
    this.advance(delay);
    return delay;
  }

  private sorted() {
    return [...this.timers].sort((a, b) => a.at - b.at || a.order - b.order);
  }
}

/**
 * Runs the clock's timers until `connectTimes` grows (the test records there when the code under
 * test calls `runtime.connect`), then settles.
 */
export async function untilNextConnect(
  clock: FakeClock,
  connectTimes: readonly number[],
): Promise<void> {
  const before = connectTimes.length;
  while (connectTimes.length === before) {
    await settle();
    clock.runNext();
  }
  await settle();
}

/** Resolves once every pending microtask (and those they queue) has run: ports have delivered. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
