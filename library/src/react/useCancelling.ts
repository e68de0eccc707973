import { useRef } from 'react';
import type { EndpointInterface } from '../endpoint/types.js';

/** An endpoint that can be made again with a signal (RestEndpoint). */
type Cancellable = EndpointInterface & { extend(options: { signal: AbortSignal }): unknown };

interface Cancelling<E> {
  given: E;
  key: string;
  aborter: AbortController;
  cancellable: E;
}

/**
 * `endpoint` with a signal that aborts when the arguments change: the request for arguments the
 * component has left (`useSuspense(useCancelling(Search, { q }), { q })` as the user types) is
 * cancelled rather than answered for nothing. A read that another caller shares goes on for
 * them (see Controller.fetch). `null` arguments give an endpoint whose signal aborts once they
 * change.
 */
export function useCancelling<E extends Cancellable>(
  endpoint: E,
  ...args: readonly [...Parameters<E>] | readonly [null]
): E {
  const current = useRef<Cancelling<E> | undefined>(undefined);
  const key = args[0] === null ? '' : endpoint.key(...(args as Parameters<E>));
  // Kept in a ref rather than a memo: a render that suspends is tried again without the memos
  // of the attempt before, and a new signal then would abort the request that attempt started.
  const held = current.current;
  if (held?.key === key && held.given === endpoint) return held.cancellable;
  held?.aborter.abort();
  const aborter = new AbortController();
  const cancellable = endpoint.extend({ signal: aborter.signal }) as E;
  current.current = { given: endpoint, key, aborter, cancellable };
  return cancellable;
}
