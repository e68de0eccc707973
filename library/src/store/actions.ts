import type { EndpointInterface } from '../endpoint/types.js';

/** A key filter for invalidateAll / expireAll. */
export type TestKey = (key: string) => boolean;

interface EndpointAction {
  endpoint: EndpointInterface;
  args: readonly unknown[];
  key: string;
  /** When the request started. */
  fetchedAt: number;
}

/** A request started; optimistic endpoints show their optimistic response from here. */
export interface FetchAction extends EndpointAction {
  type: 'fetch';
}

/** A response (or error) arrived, or was written directly. */
export interface SetResponseAction extends EndpointAction {
  type: 'setResponse';
  response: unknown;
  error: boolean;
  date: number;
  expiresAt: number;
}

/** `controller.invalidate`: one stored result removed. */
export interface InvalidateAction {
  type: 'invalidate';
  key: string;
}
/** `controller.invalidateAll`: every stored result whose key passes `testKey` removed. */
export interface InvalidateAllAction {
  type: 'invalidateAll';
  testKey: TestKey;
}
/** `controller.expireAll`: every stored result whose key passes `testKey` marked stale. */
export interface ExpireAllAction {
  type: 'expireAll';
  testKey: TestKey;
}
/** `controller.resetEntireStore`: the store emptied. */
export interface ResetAction {
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
