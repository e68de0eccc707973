/**
 * React 18's development build dispatches a fake event around each event handler and then puts
 * back `window.event` by assigning it. Under vitest's jsdom globals that assignment sticks, so
 * every later update looks like part of that click (sync priority) and renders on its own.
 * In a browser `window.event` is the event being dispatched, or undefined: keep jsdom's reading
 * and ignore the assignment.
 */
const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'event');
if (descriptor?.get) {
  Object.defineProperty(globalThis, 'event', {
    configurable: true,
    enumerable: descriptor.enumerable ?? false,
    get: descriptor.get,
    set: () => {},
  });
}
