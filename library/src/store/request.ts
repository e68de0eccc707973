import { plainBody } from '../endpoint/plainBody.js';
import type { EndpointInterface } from '../endpoint/types.js';
import type { AnswerChange } from '../normalize/changes.js';
import { readResponse } from '../normalize/denormalize.js';
import type { StoreAccess } from './Controller.js';
import { ResetError } from './resetError.js';
import { untilAborted } from './untilAborted.js';

const DEFAULT_DATA_EXPIRY = 60_000;

/** A stored response or error, with the arguments of its call (see Controller.resolve). */
export type Outcome = { args: readonly unknown[]; fetchedAt?: number } & (
  | { response: unknown; error?: undefined }
  | { error: unknown; response?: undefined }
);

/** When a request started, by the clock and in its store's sequence. */
export interface Started {
  fetchedAt: number;
  requestId: number;
}

/** An endpoint that can be made again with another signal (RestEndpoint's `extend`). */
interface Resignalable {
  extend(options: { signal: AbortSignal }): EndpointInterface;
}

export function canResignal(endpoint: EndpointInterface): boolean {
  return typeof (endpoint as Partial<Resignalable>).extend === 'function';
}

/**
 * Runs `endpoint(...args)` and stores its outcome with `store`, unless the store was reset since
 * the request started (`reset` has aborted); `signal` replaces the endpoint's own when given.
 * Resolves to the response as the endpoint's schema reads it.
 */
export async function request(
  endpoint: EndpointInterface,
  args: readonly unknown[],
  reset: AbortSignal,
  store: (outcome: Outcome) => AnswerChange | undefined,
  signal?: AbortSignal,
): Promise<unknown> {
  let response: unknown;
  const run = signal ? (endpoint as EndpointInterface & Resignalable).extend({ signal }) : endpoint;
  try {
    // A read is abandoned at a reset (mutations run to their end: the server may have done them).
    response = await (endpoint.sideEffect ? run(...args) : untilAborted(run(...args), reset));
  } catch (error) {
    // Nothing of a request started before a reset is stored (see below).
    if (!reset.aborted) store({ args, error });
    throw error;
  }
  // A request keeps the signal of the resets to come rather than compare clocks:
  // `fetchedAt < lastReset` misses a reset in the same millisecond as the request.
  if (reset.aborted) throw new ResetError();
  throwIfRefused(store({ args, response }));
  return readResponse(endpoint.schema, response, args);
}

/**
 * Stores a response or an error for `endpoint(...args)`, whose key is `key`, as the store's write
 * numbered `sequence`, answering the request `started` (without it, one made as it is stored, or
 * at the outcome's own `fetchedAt`); returns how the store took it.
 */
export function storeAnswer(
  store: StoreAccess,
  sequence: number,
  endpoint: EndpointInterface,
  { args, fetchedAt: requestedAt, ...outcome }: Outcome,
  key: string,
  started?: Started,
): AnswerChange | undefined {
  const date = Date.now();
  // An answer given its own time is placed by that time alone (see EntityMeta.requestId).
  const { fetchedAt, requestId } =
    started ??
    (requestedAt === undefined
      ? { fetchedAt: date, requestId: sequence }
      : { fetchedAt: requestedAt, requestId: undefined });
  const failed = 'error' in outcome && outcome.error !== undefined;
  return store.dispatch({
    type: 'setResponse',
    endpoint,
    args: args.map(plainBody),
    key,
    fetchedAt,
    requestId,
    sequence,
    date,
    error: failed,
    response: failed ? outcome.error : outcome.response,
    expiresAt: date + (endpoint.dataExpiryLength ?? DEFAULT_DATA_EXPIRY),
  });
}

/**
 * Throws the error a response was stored as: the reducer turns a response that does not fit its
 * schema (or whose schema threw) into an error for its key.
 */
export function throwIfRefused(answer: AnswerChange | undefined): void {
  if (answer?.type === 'result-error') throw answer.error;
}
