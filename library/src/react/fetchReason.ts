import type { Controller } from '../store/Controller.js';
import type { FetchReason } from '../store/cause.js';
import { renderingComponent } from './componentName.js';

/** Why a hook fetches, and the hook the component called (where its trace ends). */
export interface HookFetch {
  reason: FetchReason;
  entry: Function | undefined;
}

/**
 * Why a reader fetches, from what it showed before: nothing yet (its first render), another call
 * (its arguments changed), the same call, now missing or INVALID, or (`stale`) shown while it is
 * fetched again. Read during its render, when React can name the component.
 */
export function readerReason(
  committedKey: string | null | undefined,
  key: string | null,
  stale: boolean,
): FetchReason {
  const component = renderingComponent();
  const named = component === undefined ? {} : { component };
  if (stale) return { kind: 'stale', ...named };
  if (committedKey === undefined) return { kind: 'mount', ...named };
  if (committedKey !== key) return { kind: 'args-changed', ...named };
  return { kind: 'invalid', ...named };
}

/** Runs a hook's fetch with its reason as the cause (see cause.ts). */
export function fetchBecause<T>(controller: Controller, why: HookFetch, run: () => T): T {
  const causes = controller.causes;
  return causes ? causes.run(why.reason, why.entry, run) : run();
}
