/**
 * What the bridge's ring must keep, and nothing else: each change's action, change-set and state
 * (the latest DEFAULT_STATES_KEPT with their state), in a ring of DEFAULT_RING_SIZE (the bridge's
 * defaults), as DESIGN's write path asks. No bridge keeps less and still shows a panel opened
 * later what happened before: a store with this attached costs the least a bridge can cost.
 */
import { DEFAULT_RING_SIZE, DEFAULT_STATES_KEPT } from '../../library/src/devtools/page/bridge.js';
import type { Action, ChangeSet, State, Store } from '../../library/src/index.js';

/** One change as the ring keeps it. */
interface KeptChange {
  action: Action;
  changes: ChangeSet;
  state: State | undefined;
}

/** Keeps `store`'s changes as the bridge's ring does. */
export function keepAsTheRingDoes(store: Store): void {
  const ring: KeptChange[] = [];
  let count = 0;
  store.observe(({ action, changes, view }) => {
    const aged = ring[(count - DEFAULT_STATES_KEPT) % DEFAULT_RING_SIZE];
    if (count >= DEFAULT_STATES_KEPT && aged) aged.state = undefined;
    ring[count % DEFAULT_RING_SIZE] = { action, changes, state: view };
    count++;
  });
}
