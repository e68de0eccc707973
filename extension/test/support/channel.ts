/**
 * A MessageChannel for the test pages (this file holds no tests): jsdom has none. As in a
 * browser, a port receives a structured clone of what its other end posts, once it is started
 * (`start()`, or setting `onmessage`), in order, and keeps what came before that; a closed port
 * neither sends nor receives. Delivery is in a later microtask, as TestPage's window messages.
 */
export class TestMessageChannel {
  readonly port1: MessagePort;
  readonly port2: MessagePort;

  constructor() {
    const one = new TestMessagePort();
    const two = new TestMessagePort();
    one.other = two;
    two.other = one;
    this.port1 = one as unknown as MessagePort;
    this.port2 = two as unknown as MessagePort;
  }
}

type Listener = (event: MessageEvent) => void;

/**
 * One end. Not a jsdom EventTarget: jsdom would unwrap one put in an event's `ports` into its
 * internal object. It keeps its own `message` listeners.
 */
class TestMessagePort {
  other: TestMessagePort | undefined;
  private readonly listeners = new Set<Listener>();
  private started = false;
  private closed = false;
  private waiting: unknown[] = [];
  private handler: ((event: MessageEvent) => void) | null = null;

  postMessage(data: unknown): void {
    const other = this.other;
    if (this.closed || other === undefined) return;
    const copy = structuredClone(data);
    queueMicrotask(() => other.receive(copy));
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const data of this.waiting.splice(0)) this.deliver(data);
  }

  close(): void {
    this.closed = true;
    this.waiting = [];
  }

  addEventListener(type: string, listener: Listener): void {
    if (type === 'message') this.listeners.add(listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    if (type === 'message') this.listeners.delete(listener);
  }

  get onmessage(): Listener | null {
    return this.handler;
  }

  set onmessage(handler: Listener | null) {
    if (this.handler) this.listeners.delete(this.handler);
    this.handler = handler;
    if (handler) this.listeners.add(handler);
    this.start();
  }

  private receive(data: unknown) {
    if (this.closed) return;
    if (this.started) this.deliver(data);
    else this.waiting.push(data);
  }

  private deliver(data: unknown) {
    const event = new MessageEvent('message', { data });
    for (const listener of [...this.listeners]) listener(event);
  }
}
