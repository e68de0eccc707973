/**
 * The `expiresAt` a result's meta takes when an action marks it rather than gives it a time.
 * Defined once: the reducer writes them, and the devtools' copy of a store (the panel's) applies
 * the same marks from the effects it is told (`devtools/protocol/applyEffects.ts`).
 */

/**
 * `controller.invalidate`: the result is gone and its meta says `invalidated`, so its next read
 * fetches and suspends. The earliest time there is: nothing reads it as fresh.
 */
export const INVALIDATED_EXPIRY = 0;

/**
 * `controller.expireAll`: the result stays and is shown, and is fetched again when read. Any past
 * time would do; 1 is data-client's, and keeps it apart from an invalidation's 0.
 */
export const EXPIRED_EXPIRY = 1;
