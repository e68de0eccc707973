// What an app calls: connect a store to the panel, and replay a recorded session (a test fixture).
// The extension imports the protocol by path (`devtools/protocol/`), not from here.
export {
  connectDevtools,
  type DevtoolsConnection,
  type DevtoolsOptions,
} from './page/bridge.js';
export {
  type ReplayMode,
  type ReplayOptions,
  type ReplayOutcome,
  replayMutations,
  replaySession,
} from './page/replay.js';
export type { Session } from './protocol/session.js';
