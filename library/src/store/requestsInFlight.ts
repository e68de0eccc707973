import type { EndpointInterface } from '../endpoint/types.js';
import { canResignal } from './request.js';
import { SharedRequest } from './sharedRequest.js';

/** A read in flight, shared, and the key of the result it stores. */
interface ReadInFlight {
  shared: SharedRequest;
  key: string;
}

/**
 * The reads in flight of one store, by request key: identical reads made meanwhile join them
 * rather than send the request again (see SharedRequest). Mutations are never shared.
 */
export type RequestsInFlight = Map<string, ReadInFlight>;

/**
 * The promise of a read, whose request key is `requestKey` and result key `key`: it joins the
 * identical read in flight, or `run` starts one that identical reads join until it is settled.
 * The endpoint's `signal` aborts this caller's share (see SharedRequest).
 */
export function shareRead(
  reads: RequestsInFlight,
  requestKey: string,
  key: string,
  endpoint: EndpointInterface,
  run: (signal?: AbortSignal) => Promise<unknown>,
): Promise<unknown> {
  const { signal } = endpoint;
  const pending = reads.get(requestKey);
  if (pending) return pending.shared.join(signal);
  // A read's signal is its caller's alone when its endpoint cannot be given another.
  if (signal !== undefined && !canResignal(endpoint)) return run();
  // A shared read runs with a signal of its own, aborted once no caller waits (SharedRequest).
  const own = signal && new AbortController();
  const request = run(own?.signal);
  const forget = () => {
    // After a reset the key may already belong to a newer request: leave that one in place.
    if (reads.get(requestKey)?.shared === shared) reads.delete(requestKey);
  };
  const shared = new SharedRequest(
    request,
    own &&
      (() => {
        // Forgotten at once: a caller coming now starts a new request rather than share this one.
        forget();
        own.abort();
      }),
  );
  reads.set(requestKey, { shared, key });
  request.then(forget, forget);
  return shared.join(signal);
}

/** The keys of the results whose read is in flight. */
export function resultKeysOf(reads: RequestsInFlight): string[] {
  return [...new Set(Array.from(reads.values(), (read) => read.key))];
}
