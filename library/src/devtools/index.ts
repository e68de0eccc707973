export {
  connectDevtools,
  type DevtoolsConnection,
  type DevtoolsOptions,
  LIBRARY_VERSION,
} from './bridge.js';
export { decode, type EncodeLimits, encode } from './encode.js';
export * from './protocol.js';
export {
  type ReplayMode,
  type ReplayOptions,
  type ReplayOutcome,
  replayMutations,
} from './replay.js';
export { replaySession } from './session.js';
