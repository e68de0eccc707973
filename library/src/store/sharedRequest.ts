import { untilAborted } from './untilAborted.js';

/**
 * A read in flight and the callers waiting for it: identical reads made meanwhile join it rather
 * than send the request again. A caller may bring an AbortSignal (its endpoint's `signal`).
 * Aborting it rejects that caller's promise at once, with the signal's reason as fetch would,
 * and leaves the others waiting: one component giving up must not fail another that reads the
 * same data. The request itself is aborted (its connection closed) only when nobody waits for it
 * any more, that is when every caller brought a signal and each of them has aborted; until then
 * its answer is stored as any other.
 */
export class SharedRequest {
  /** Callers with a signal that have not aborted. */
  private waiting = 0;

  constructor(
    /** What the request resolves to once its answer is stored. */
    readonly result: Promise<unknown>,
    /**
     * Aborts the request itself; undefined once a caller without a signal has joined (it waits
     * to the end), or when the caller that started the request brought none.
     */
    private abortRequest: (() => void) | undefined,
  ) {}

  /** The promise of one caller; `signal` (when given) rejects it alone. */
  join(signal: AbortSignal | undefined): Promise<unknown> {
    if (signal === undefined) {
      this.abortRequest = undefined;
      return this.result;
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    this.waiting++;
    return untilAborted(this.result, signal, () => {
      this.waiting--;
      if (this.waiting === 0) this.abortRequest?.();
    });
  }
}
