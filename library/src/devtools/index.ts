export {
  connectDevtools,
  type DevtoolsConnection,
  type DevtoolsOptions,
  LIBRARY_VERSION,
} from './page/bridge.js';
export { decode, type EncodeLimits, encode } from './page/encode.js';
export {
  type ReplayMode,
  type ReplayOptions,
  type ReplayOutcome,
  replayMutations,
  replaySession,
} from './page/replay.js';
export * from './protocol/effects.js';
export * from './protocol/messages.js';
export * from './protocol/session.js';
export * from './protocol/validate.js';
