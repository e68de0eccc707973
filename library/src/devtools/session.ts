import type { Controller } from '../store/Controller.js';
import { checkSession } from './protocol.js';
import {
  type ReplayMode,
  type ReplayOptions,
  type ReplayOutcome,
  replayMutations,
} from './replay.js';

/**
 * Replays a recorded session (the parsed JSON of a file the Recorder exported) into a store:
 * a session becomes a test fixture. `apply` writes the recorded responses (no network); `send`
 * runs each endpoint again. Throws when the session itself is invalid, before anything runs.
 */
export async function replaySession(
  controller: Controller,
  session: unknown,
  options: ReplayOptions & { mode?: ReplayMode } = {},
): Promise<ReplayOutcome[]> {
  const checked = checkSession(session);
  if (!checked.ok) throw new Error(`replaySession: ${checked.error}`);
  return replayMutations(controller, checked.session.mutations, options.mode ?? 'apply', options);
}
