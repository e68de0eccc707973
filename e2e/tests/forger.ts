// A hostile script of the page under test, for the specs that check what it cannot do (this file
// holds no tests). Both functions run in the page: they are serialized, so they use nothing from
// this module but what they are given.

interface Greeting {
  /** The protocol version the store speaks. */
  v: unknown;
  storeId: string;
  port: MessagePort | undefined;
}

/**
 * Run before the page's scripts (an init script): keeps the first RestLens greeting the page
 * hears, its store id and the port it hands over (the content script's end), on `window`.
 */
export function keepGreeting(): void {
  const page = window as unknown as { restlensGreeting?: Greeting };
  window.addEventListener('message', (event) => {
    const data = event.data as { tag?: unknown; v?: unknown; kind?: unknown; storeId?: unknown };
    if (page.restlensGreeting || data?.tag !== 'restlens' || data.kind !== 'hello') return;
    page.restlensGreeting = { v: data.v, storeId: String(data.storeId), port: event.ports[0] };
  });
}

/**
 * Posts, in the greeted store's name, an event with `seq` adding a todo `forged` (endpoint
 * `Forged.create`): as a window message, and on the port the greeting handed over. Says where it
 * could post.
 */
export function forgedEvent(seq: number): { onWindow: boolean; onGreetingPort: boolean } {
  const greeting = (window as unknown as { restlensGreeting?: Greeting }).restlensGreeting;
  if (!greeting) throw new Error('the page heard no RestLens greeting');
  const event = {
    seq,
    time: Date.now(),
    action: { type: 'setResponse', endpoint: 'Forged.create', key: 'Forged.create' },
    effects: [{ type: 'entities-added', entity: 'Todo', pks: ['forged'] }],
  };
  const message = {
    tag: 'restlens',
    v: greeting.v,
    source: 'page',
    kind: 'events',
    storeId: greeting.storeId,
    data: JSON.stringify([event]),
  };
  window.postMessage(message, '*');
  greeting.port?.postMessage(message);
  return { onWindow: true, onGreetingPort: greeting.port !== undefined };
}
