/**
 * Why each request ran and where the app asked for it: the store notes it on its actions, for
 * tools (the devtools) that answer "why did this fetch?". Development builds only: production
 * code never makes a CallCauses, so none of this is in its bundle.
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
  | { kind: 'devtools'; command: string }
  /** A recorded session replayed (the devtools' Recorder, `replaySession`). */
  | { kind: 'replay' };

/** The reason of an action, and where the app made the call when call sites are recorded. */
export interface Cause {
  reason: FetchReason;
  /** The stack at the app's call (the library's own frames cut off), as the engine writes it. */
  trace?: string;
}

/** An entry point of the library: the frames from it inwards are the library's own. */
// biome-ignore lint/complexity/noBannedTypes: any function can be where the app entered
type EntryPoint = Function;

/** How many of the app's frames a trace keeps. */
export const TRACE_DEPTH = 12;

/**
 * A store's record of why its next action runs. Whoever starts an action on the app's behalf (a
 * hook, a poll, a devtools command) says why with `run`; an action started with no reason given
 * is the app's own call.
 */
export class CallCauses {
  /**
   * Whether actions record the app's call site: on while a devtools panel is connected (or
   * always, when asked), as capturing a stack costs each call.
   */
  tracing = false;
  private next: Cause | undefined = undefined;

  /**
   * Runs `call` with `reason` as the cause of the actions it starts synchronously; the trace,
   * when recorded, ends at the app's call of `entry` (none: the call is not the app's, such as a
   * poll's timer).
   */
  run<T>(reason: FetchReason, entry: EntryPoint | undefined, call: () => T): T {
    const outer = this.next;
    this.next = { reason, ...(entry === undefined ? {} : this.traceFrom(entry)) };
    try {
      return call();
    } finally {
      this.next = outer;
    }
  }

  /** The cause of an action starting now, in the library's `entry`. */
  take(entry: EntryPoint): Cause {
    return this.next ?? { reason: APP_CALL, ...this.traceFrom(entry) };
  }

  private traceFrom(entry: EntryPoint): { trace?: string } {
    if (!this.tracing) return {};
    const trace = stackAbove(entry);
    return trace === undefined ? {} : { trace };
  }
}

const APP_CALL: FetchReason = { kind: 'app' };

/**
 * The stack of the code that called `entry` (its own frames and those it called left out), at
 * most TRACE_DEPTH frames; undefined where the engine cannot cut a stack (no
 * `Error.captureStackTrace`).
 */
function stackAbove(entry: EntryPoint): string | undefined {
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
  return holder.stack;
}
