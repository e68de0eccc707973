import { afterEach, beforeEach } from 'vitest';
import { type ServerOptions, startServer, type TestServer } from './server.js';

/**
 * A value made afresh before each test (and disposed of after it), for a module-level `const`
 * instead of `let x; beforeEach(...); afterEach(...)`. Returns a stand-in that reads (and writes)
 * through to the current test's value, so `x.member` always means this test's value.
 *
 * Only for plain objects whose members do not depend on `this` being the object (closures,
 * arrays, data): the stand-in is never the value itself (`toBe`, `instanceof`, WeakMap keys).
 * Hooks run in the order they were registered (after-hooks in reverse), like the hand-written
 * `beforeEach` / `afterEach` they replace.
 */
export function perTest<T extends object>(
  create: () => T | Promise<T>,
  dispose?: (value: T) => unknown,
): T {
  let current: T | undefined;
  const value = (): T => {
    if (current === undefined) throw new Error('perTest: read outside a test');
    return current;
  };
  beforeEach(async () => {
    current = await create();
  });
  if (dispose) afterEach(() => dispose(value()));
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(value(), key),
    set: (_target, key, next) => Reflect.set(value(), key, next),
    has: (_target, key) => Reflect.has(value(), key),
  });
}

/** The test server (see `startServer`), started before each test and closed after it. */
export function serverPerTest(options?: ServerOptions): TestServer {
  return perTest(
    () => startServer(options),
    (server) => server.close(),
  );
}
