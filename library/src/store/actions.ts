import type { EndpointInterface } from '../endpoint/types.js';
import type { Cause } from './cause.js';

/** A key filter for invalidateAll / expireAll. */
export type TestKey = (key: string) => boolean;

/** What every action may carry: why it ran (development builds; see cause.ts). */
interface Caused {
  cause?: Cause | undefined;
}

interface EndpointAction extends Caused {
  endpoint: EndpointInterface;
  args: readonly unknown[];
  key: string;
  /** When the request started. */
  fetchedAt: number;
  /**
   * The request's number in its store's sequence, drawn when it started: unique to the request
   * (its optimistic response is settled by it), and larger for a request started later, in the
   * same millisecond too. Undefined for an answer written with a `fetchedAt` of its own.
   */
  requestId: number | undefined;
}

/** A request started; optimistic endpoints show their optimistic response from here. */
export interface FetchAction extends EndpointAction {
  type: 'fetch';
  requestId: number;
}

/** A response (or error) arrived, or was written directly. */
export interface SetResponseAction extends EndpointAction {
  type: 'setResponse';
  response: unknown;
  error: boolean;
  date: number;
  expiresAt: number;
  /**
   * The write's number in the same sequence, drawn when it is stored: larger than the requestId
   * of every request started before (a delete it stores is newer than their answers).
   */
  sequence: number;
}

/** `controller.invalidate`: one stored result removed. */
export interface InvalidateAction extends Caused {
  type: 'invalidate';
  key: string;
}
/** `controller.invalidateAll`: every stored result whose key passes `testKey` removed. */
export interface InvalidateAllAction extends Caused {
  type: 'invalidateAll';
  testKey: TestKey;
}
/** `controller.expireAll`: every stored result whose key passes `testKey` marked stale. */
export interface ExpireAllAction extends Caused {
  type: 'expireAll';
  testKey: TestKey;
}
/** `controller.resetEntireStore`: the store emptied. */
export interface ResetAction extends Caused {
  type: 'reset';
  date: number;
}

/** Everything the store's reducer is given: each changes the state in one step. */
export type Action =
  | FetchAction
  | SetResponseAction
  | InvalidateAction
  | InvalidateAllAction
  | ExpireAllAction
  | ResetAction;
