import type { EndpointInterface } from '../../endpoint/types.js';
import type { Controller } from '../../store/Controller.js';
import type { ForcedState, ResultCommand } from '../protocol/messages.js';

/** The call behind a stored read: what a refetch runs again. */
export interface Call {
  endpoint: EndpointInterface;
  args: readonly unknown[];
}

/**
 * The error a result forced to fail shows (to see an error boundary without the server). It has
 * a server error's status, so a `NetworkErrorBoundary` or `AsyncBoundary` shows it as it would a
 * failed request, and shows its children again after the refetch.
 */
export class ForcedError extends Error {
  override name = 'ForcedError';
  readonly status = 500;
}

/** Long enough that a forced error never expires on its own: only a refetch undoes it. */
const FORCED_ERROR_EXPIRY = 10 * 365 * 24 * 60 * 60 * 1000;

/**
 * The inspector's commands on one stored result (the Results view's actions). Forcing is for a
 * developer who wants to see a Suspense fallback or an error boundary without touching the
 * server; a refetch undoes it. Both go through the Controller, so they show in the timeline as
 * what they are: a forced loading as the result's invalidation (its request is held open until
 * the refetch), a forced error as the error stored for the result.
 */
export class ResultCommands {
  /** The results forced now, by key. */
  private readonly forced = new Map<string, ForcedState>();
  /** For each result forced to load: lets its held request go (the refetch). */
  private readonly held = new Map<string, () => void>();

  constructor(
    private readonly controller: Controller,
    /** The call behind a stored read, by key (undefined for a key the page never read). */
    private readonly callOf: (key: string) => Call | undefined,
  ) {}

  /** What is forced now, by key (a plain record: keys are the page's, any string). */
  forcedStates(): Record<string, ForcedState> {
    return Object.fromEntries(this.forced);
  }

  /**
   * Invalidates one stored result by its key (recorded as `invalidate`, like
   * `controller.invalidate`); answers what went wrong, in words, or undefined.
   */
  invalidate(key: string): string | undefined {
    const { meta } = this.controller.getState();
    if (!meta.has(key)) return `invalidate: the store holds no result under ${JSON.stringify(key)}`;
    void this.controller.invalidate(keyOnly(key));
    return undefined;
  }

  /** Runs a command; answers what went wrong, in words, or undefined. */
  run(command: ResultCommand): string | undefined {
    const { key } = command;
    const call = this.callOf(key);
    if (call === undefined)
      return `${command.kind}: no read stored a result under ${JSON.stringify(key)}`;
    switch (command.kind) {
      case 'refetch':
        this.refetch(key, call);
        return undefined;
      case 'expire':
        void this.controller.expireAll((stored) => stored === key);
        return undefined;
      case 'force-loading':
        this.forceLoading(key, call);
        return undefined;
      case 'force-error':
        if (this.held.has(key)) return `force-error: ${key} is forced to load; refetch it first`;
        this.forced.set(key, 'error');
        void this.controller.setError(
          // Hard, unlike a server's 5xx: its readers throw it even while they have data.
          withOptions(call.endpoint, {
            errorExpiryLength: FORCED_ERROR_EXPIRY,
            errorPolicy: () => undefined,
          }),
          ...call.args,
          new ForcedError('forced from the RestLens devtools; a refetch undoes it'),
        );
        return undefined;
    }
  }

  private refetch(key: string, { endpoint, args }: Call) {
    this.forced.delete(key);
    const release = this.held.get(key);
    this.held.delete(key);
    // A held request goes on to the server: whoever suspended on it gets its answer.
    if (release) release();
    else this.controller.fetch(endpoint, ...args).catch(() => {});
  }

  /**
   * Holds a request for the result open (the endpoint is asked only once it is let go), then
   * invalidates the result: its readers suspend on the held request, as on any request in
   * flight, and show their fallback until the refetch lets it go.
   */
  private forceLoading(key: string, { endpoint, args }: Call) {
    if (this.held.has(key)) return;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.held.set(key, release);
    this.forced.set(key, 'loading');
    const held = withOptions(endpoint, {}, (...callArgs) => gate.then(() => endpoint(...callArgs)));
    this.controller.fetch(held, ...args).catch(() => {});
    void this.controller.invalidate(endpoint, ...args);
  }
}

/** An endpoint that only has a key: enough for `controller.invalidate` of a stored key. */
function keyOnly(key: string): EndpointInterface<() => Promise<undefined>, undefined, undefined> {
  return Object.assign(() => Promise.resolve(undefined), { key: () => key });
}

/**
 * The endpoint with some options changed (and, given `run`, another way to run): its key,
 * schema and name stay the endpoint's own, read through the prototype.
 */
function withOptions(
  endpoint: EndpointInterface,
  options: Partial<Pick<EndpointInterface, 'errorExpiryLength' | 'errorPolicy'>>,
  run: (...args: unknown[]) => Promise<unknown> = (...args) => endpoint(...args),
): EndpointInterface {
  const variant = (...args: unknown[]) => run(...args);
  Object.setPrototypeOf(variant, endpoint);
  Object.defineProperty(variant, 'name', { value: endpoint.name });
  return Object.assign(variant, options) as unknown as EndpointInterface;
}
