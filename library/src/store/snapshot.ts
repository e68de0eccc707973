import { AbortOptimistic, type SnapshotInterface } from '../endpoint/types.js';
import type { Controller } from './Controller.js';
import type { State } from './state.js';

/** `snapshot.abort`: one instance serves every snapshot, as nothing reads its stack. */
const SKIP_OPTIMISTIC = new AbortOptimistic();

/**
 * A read-only view of `state` at `fetchedAt`, given to optimistic updaters: the controller's own
 * reads, of that state.
 */
export function snapshotOf(
  controller: Pick<Controller, 'getResponse' | 'getError'>,
  state: State,
  fetchedAt: number,
): SnapshotInterface {
  return {
    fetchedAt,
    abort: SKIP_OPTIMISTIC,
    getResponse: (endpoint, ...args) =>
      controller.getResponse(endpoint, ...(args as [...Parameters<typeof endpoint>]), state),
    getError: (endpoint, ...args) =>
      controller.getError(endpoint, ...(args as [...Parameters<typeof endpoint>]), state),
  };
}
