import type { Schema } from '../schema/denormalizeTypes.js';
import { describeValue } from '../schema/describe.js';
import type { EndpointInterface, ErrorPolicy, FetchFunction, SnapshotInterface } from './types.js';

/** Options of an `Endpoint`: its schema, name, key, expiry and error policy. */
export interface EndpointOptions<
  S extends Schema | undefined = Schema | undefined,
  M extends true | undefined = true | undefined,
> {
  /** Identifies the endpoint in the devtools and in recorded sessions. */
  name?: string;
  schema?: S;
  sideEffect?: M;
  /** The store key of a call; by default the name and the JSON of the arguments. */
  key?: (...args: any[]) => string;
  dataExpiryLength?: number;
  errorExpiryLength?: number;
  invalidIfStale?: boolean;
  pollFrequency?: number;
  errorPolicy?: (error: unknown) => ErrorPolicy;
  getOptimisticResponse?: (snapshot: SnapshotInterface, ...args: any[]) => unknown;
}

/** The options an endpoint was made with, for `extend`. */
export const ENDPOINT_OPTIONS = Symbol('endpoint options');

/**
 * An endpoint from any async function: `new Endpoint(fetchTodo, { schema: Todo })` can be run
 * with `controller.fetch(endpoint, ...args)`. Instances are functions: calling one calls its
 * `fetch` member, which subclasses such as RestEndpoint define as a method.
 */
export interface Endpoint<
  F extends FetchFunction,
  S extends Schema | undefined,
  M extends true | undefined = undefined,
> extends EndpointInterface<F, S, M> {
  fetch(...args: Parameters<F>): ReturnType<F>;
  /** The schema it was made with: `undefined` only when it has none (`S` says which). */
  readonly schema: S;
  readonly pollFrequency?: number;
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface makes instances callable
export class Endpoint<
  F extends FetchFunction,
  S extends Schema | undefined = undefined,
  M extends true | undefined = undefined,
> {
  constructor(fetch: F | undefined, options: EndpointOptions<S, M> = {}) {
    const { name, key, ...rest } = options;
    // Options are written with the endpoint, so a development build meets every mistake in them
    // that a production build could: only development builds check them (see docs/guide.md,
    // Production builds). A RestEndpoint (no fetch of its own) is named by its path here: its urlPrefix comes
    // later.
    if (process.env.NODE_ENV !== 'production')
      checkOptions(name ?? fetch?.name ?? String((options as { path?: unknown }).path), options);
    const self = function (this: unknown, ...args: Parameters<F>) {
      return self.fetch(...args);
    } as unknown as Endpoint<F, S, M>;
    Object.setPrototypeOf(self, new.target.prototype);
    if (fetch)
      Object.defineProperty(self, 'fetch', { value: fetch, configurable: true, writable: true });
    Object.defineProperty(self, 'name', {
      value: name ?? fetch?.name ?? 'anonymous',
      configurable: true,
    });
    Object.assign(self, rest);
    if (key) Object.defineProperty(self, 'key', { value: key, configurable: true, writable: true });
    Object.defineProperty(self, ENDPOINT_OPTIONS, { value: options });
    // biome-ignore lint/correctness/noConstructorReturn: an endpoint is a function with this prototype
    return self;
  }

  declare readonly [ENDPOINT_OPTIONS]: EndpointOptions<S>;

  key(...args: Parameters<F>): string {
    return `${this.name} ${JSON.stringify(args)}`;
  }

  /**
   * Whether a stored key was made by this endpoint's default `key`, for
   * `controller.invalidateAll(endpoint)` / `expireAll(endpoint)` (without it the controller
   * would take the endpoint itself for the test). The name and a space: `getTodo` does not match
   * `getTodos`'s keys (data-client matches any key starting with the name).
   */
  testKey(key: string): boolean {
    return key.startsWith(`${this.name} `);
  }

  /**
   * A new endpoint of the same class with the same fetch, these options replacing this one's
   * (e.g. `endpoint.extend({ dataExpiryLength: 1000 })`).
   */
  extend(options: EndpointOptions<any, any>): Endpoint<(...args: any) => Promise<any>, any, any> {
    const Class = this.constructor as new (
      fetch: unknown,
      options: EndpointOptions<any, any>,
    ) => Endpoint<(...args: any) => Promise<any>, any, any>;
    return new Class(this.fetch, { ...this[ENDPOINT_OPTIONS], ...options });
  }
}

/**
 * Refuses option values the store would misread, naming the endpoint: an expiry that is text
 * (`now + '60000'` is text, never a time) or NaN, an errorPolicy that is not a function (found
 * only when a request fails, as "errorPolicy is not a function"). Warns of an `update` it
 * ignores. Infinity never expires.
 */
function checkOptions(name: string, options: EndpointOptions<any, any>): void {
  for (const option of ['dataExpiryLength', 'errorExpiryLength'] as const) {
    const value = options[option];
    if (value === undefined || (typeof value === 'number' && !Number.isNaN(value))) continue;
    throw new TypeError(
      `${name}: ${option} must be a number of milliseconds (Infinity: never expires), not ${describeValue(value)}`,
    );
  }
  const { errorPolicy } = options;
  if (errorPolicy !== undefined && typeof errorPolicy !== 'function') {
    throw new TypeError(
      `${name}: errorPolicy must be a function of the error returning 'soft' or undefined, not ${describeValue(errorPolicy)}`,
    );
  }
  // data-client 0.9's `update` rewrote other endpoints' stored results after a response. Nothing
  // here calls it, so the lists it kept would go stale with no sign why: say so where it is
  // given. A warning, not an error: code written for data-client still runs.
  if ((options as { update?: unknown }).update !== undefined) {
    console.warn(
      `${name}: the update option (data-client's updaters of other results) is ignored; a schema.Collection list takes new members through getList.push, getList.unshift or addWith`,
    );
  }
}
