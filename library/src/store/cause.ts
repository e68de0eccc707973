import type { Action } from './actions.js';
import type { Controller } from './Controller.js';

/**
 * Why each request ran and where the app asked for it: the store notes it on its actions, for
 * tools (the devtools) that answer "why did this fetch?". Development builds only: production
 * code never makes a CallCauses (createStore), so none of this is in its bundle.
 */

/** Why a request ran (or a write was made). */
export type FetchReason =
  /** A reader's first render needed data it did not have. */
  | { kind: 'mount'; component?: string }
  /** A mounted reader's arguments changed to a call whose data it did not have. */
  | { kind: 'args-changed'; component?: string }
  /** A mounted reader's data was removed or became INVALID (an invalidate, a delete, an error). */
  | { kind: 'invalid'; component?: string }
  /** A reader's data was stale (expired, or `expireAll`): fetched again while it is shown. */
  | { kind: 'stale'; component?: string }
  /** A subscription (`useLive`, `useSubscription`, `controller.subscribe`) polled it. */
  | { kind: 'poll'; frequency: number }
  /** The app called the Controller itself (`controller.fetch`, `setResponse`, …). */
  | { kind: 'app' }
  /** A devtools command (refetch, invalidate, edit, …): `command` names it. */
  | { kind: 'devtools'; command: string };

/** The reason of an action, and where the app made the call when call sites are recorded. */
export interface Cause {
  reason: FetchReason;
  /**
   * The stack at the app's call (the library's own frames cut off): the engine writes its text
   * (`stack`) when it is first read, which costs more than capturing it, so that waits until a
   * panel is sent the action.
   */
  trace?: { readonly stack?: string };
}

/** An entry point of the library: the frames from it inwards are the library's own. */
type EntryPoint = Function;

/** How many of the app's frames a trace keeps. */
export const TRACE_DEPTH = 12;
/** How many requests in flight keep their cause until answered (an aborted one never is). */
const REQUESTS_KEPT = 1000;

/** The Controller methods the app calls that start actions: where an app call's trace ends. */
const ENTRY_METHODS = [
  'fetch',
  'fetchIfStale',
  'setResponse',
  'setError',
  'resolve',
  'invalidate',
  'invalidateAll',
  'expireAll',
  'resetEntireStore',
] as const;

/**
 * A store's record of why each action runs (development builds: createStore makes one). Whoever
 * starts an action on the app's behalf (a hook, a poll, a devtools command) says why with `run`;
 * an action the app starts itself, through a Controller method, is an app call. The store
 * attaches the cause to each action it is dispatched (`attach`); a request's answer gets its
 * request's cause.
 */
export class CallCauses {
  /**
   * Whether actions record the app's call site: on while a devtools panel is connected (or
   * always, when asked), as capturing a stack costs each call.
   */
  tracing = false;
  /** The cause of the actions starting now. */
  private current: Cause | undefined = undefined;
  /** The cause of each request in flight, by its requestId, for its answer. */
  private readonly requests = new Map<number, Cause>();

  /**
   * Runs `call` with `reason` as the cause of the actions it starts synchronously; the trace,
   * when recorded, ends at the app's call of `entry` (none: the call is not the app's, such as a
   * poll's timer).
   */
  run<T>(reason: FetchReason, entry: EntryPoint | undefined, call: () => T): T {
    const outer = this.current;
    this.current = { reason, ...(entry === undefined ? {} : this.traceFrom(entry)) };
    try {
      return call();
    } finally {
      this.current = outer;
    }
  }

  /**
   * Makes the controller's action methods say that the app called them (with the app's call site
   * while tracing), unless a `run` around them gave another reason.
   */
  wrap(controller: Controller): void {
    const methods = controller as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of ENTRY_METHODS) {
      const method = methods[name] as (...args: unknown[]) => unknown;
      const call = (args: unknown[]) => method.apply(controller, args);
      const entry = (...args: unknown[]): unknown =>
        this.current === undefined ? this.run(APP_CALL, entry, () => call(args)) : call(args);
      methods[name] = entry;
    }
  }

  /** Notes on an action being dispatched why it runs. */
  attach(action: Action): void {
    if (action.type === 'reset') this.requests.clear();
    if (action.type === 'setResponse' && action.requestId !== undefined) {
      const started = this.requests.get(action.requestId);
      if (started !== undefined) {
        this.requests.delete(action.requestId);
        action.cause = started;
        return;
      }
    }
    if (this.current === undefined) return;
    action.cause = this.current;
    if (action.type !== 'fetch') return;
    this.requests.set(action.requestId, this.current);
    if (this.requests.size > REQUESTS_KEPT)
      this.requests.delete(this.requests.keys().next().value as number);
  }

  private traceFrom(entry: EntryPoint): Pick<Cause, 'trace'> {
    if (!this.tracing) return {};
    const trace = stackAbove(entry);
    return trace === undefined ? {} : { trace };
  }
}

const APP_CALL: FetchReason = { kind: 'app' };

/**
 * The stack of the code that called `entry` (its own frames and those it called left out), at
 * most TRACE_DEPTH frames, its text not written yet; undefined where the engine cannot cut a
 * stack (no `Error.captureStackTrace`).
 */
function stackAbove(entry: EntryPoint): Cause['trace'] {
  const capture = (Error as { captureStackTrace?: (target: object, cut: EntryPoint) => void })
    .captureStackTrace;
  if (typeof capture !== 'function') return undefined;
  const limited = Error as { stackTraceLimit?: number };
  const limit = limited.stackTraceLimit;
  limited.stackTraceLimit = TRACE_DEPTH;
  const holder: { stack?: string } = {};
  try {
    capture(holder, entry);
  } finally {
    limited.stackTraceLimit = limit;
  }
  return holder;
}
