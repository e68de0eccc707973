import type { Effect } from '../../../../library/src/devtools/protocol/effects.js';
import {
  type Encoded,
  type ExtensionCommandBody,
  MAX_MESSAGE_LENGTH,
  type RecordedMutation,
} from '../../../../library/src/devtools/protocol/messages.js';

export type ReplayMode = 'apply' | 'send';
type ReplayCommandBody = Extract<ExtensionCommandBody, { kind: 'replay' }>;
type ReplayResultEffect = Extract<Effect, { type: 'replay-result' }>;

export interface ReplayOptions {
  mode: ReplayMode;
  /** One mutation per command; the next is sent when the user asks for it. */
  stepwise: boolean;
  /** Stop once a mutation fails (all at once then sends them one by one, to stop in time). */
  stopOnError: boolean;
}

export interface ReplayResult {
  ok: boolean;
  error?: string;
  /** A `send` replay: what the server answered this time. */
  response?: Encoded;
}

/**
 * A replay in progress, as a state machine driven by the page's `replay-result` effects:
 * `running` (a command is due or in flight), `waiting` (step by step: for "Next step"),
 * `done`, or `stopped` (at an error, by the user, or because the page went away).
 */
export interface ReplayRun extends ReplayOptions {
  /** Every command's replayId starts with it, so stale results from another run never count. */
  id: string;
  storeId: string;
  /** The list as it was when the replay started (it may be edited meanwhile). */
  entryIds: number[];
  mutations: RecordedMutation[];
  /** By index in `mutations`; unset until its result came. */
  results: (ReplayResult | undefined)[];
  /** The first mutation not sent yet. */
  next: number;
  /** The command sent and not fully answered: mutations `from` … `from + count - 1`. */
  inFlight?: { replayId: string; from: number; count: number; received: number };
  status: 'running' | 'waiting' | 'done' | 'stopped';
  /** Why a stopped replay stopped. */
  stopReason?: string;
}

/**
 * The page refuses commands larger than MAX_MESSAGE_LENGTH (as JSON); the envelope and the
 * other fields get this much of it.
 */
const ENVELOPE_ALLOWANCE = 4096;
const COMMAND_BUDGET = MAX_MESSAGE_LENGTH - ENVELOPE_ALLOWANCE;

export function newReplayRun(
  id: string,
  storeId: string,
  entries: readonly { id: number; mutation: RecordedMutation }[],
  options: ReplayOptions,
): ReplayRun {
  return {
    ...options,
    id,
    storeId,
    entryIds: entries.map((entry) => entry.id),
    mutations: entries.map((entry) => entry.mutation),
    results: entries.map(() => undefined),
    next: 0,
    status: entries.length === 0 ? 'done' : 'running',
  };
}

/** One mutation per command, so that the run can pause or stop between two of them. */
const oneByOne = (run: ReplayRun) => run.stepwise || run.stopOnError;

const commandReplayId = (run: ReplayRun, from: number) => `${run.id}.${from}`;

/** Where a run goes once it has every result it waited for. */
function settle(run: ReplayRun, failed: boolean): ReplayRun {
  if (failed && run.stopOnError) return { ...run, status: 'stopped', stopReason: STOPPED_AT_ERROR };
  if (run.next >= run.mutations.length) return { ...run, status: 'done' };
  return { ...run, status: run.stepwise ? 'waiting' : 'running' };
}

/**
 * The command to send now, if one is due, and the run with it in flight. A mutation too large
 * for one command fails here, without being sent (the page would refuse the whole command).
 */
export function takeCommand(run: ReplayRun): [ReplayRun, ReplayCommandBody | undefined] {
  let current = run;
  while (
    current.status === 'running' &&
    !current.inFlight &&
    current.next < current.mutations.length
  ) {
    const from = current.next;
    let length = 0;
    let count = 0;
    for (const mutation of current.mutations.slice(from)) {
      const size = JSON.stringify(mutation).length + 1;
      if (length + size > COMMAND_BUDGET || (count > 0 && oneByOne(current))) break;
      length += size;
      count++;
    }
    if (count === 0) {
      const results = current.results.slice();
      results[from] = {
        ok: false,
        error: `too large to send to the page: a command carries at most ${MAX_MESSAGE_LENGTH / 1024 / 1024} MB of JSON`,
      };
      current = settle({ ...current, results, next: from + 1 }, true);
      continue;
    }
    const replayId = commandReplayId(current, from);
    const command: ReplayCommandBody = {
      kind: 'replay',
      storeId: current.storeId,
      replayId,
      mode: current.mode,
      mutations: current.mutations.slice(from, from + count),
    };
    return [
      { ...current, next: from + count, inFlight: { replayId, from, count, received: 0 } },
      command,
    ];
  }
  return [current, undefined];
}

/** Takes one `replay-result` effect into the run (ignored unless it answers the command in flight). */
export function takeResult(run: ReplayRun, effect: ReplayResultEffect): ReplayRun {
  const flight = run.inFlight;
  if (!flight || effect.replayId !== flight.replayId) return run;
  if (!Number.isInteger(effect.index) || effect.index < 0 || effect.index >= flight.count)
    return run;
  const index = flight.from + effect.index;
  if (run.results[index] !== undefined) return run; // the same result twice
  const results = run.results.slice();
  results[index] = effect.ok
    ? { ok: true, ...('response' in effect ? { response: effect.response } : {}) }
    : { ok: false, error: effect.error || 'failed (no message)' };
  const received = flight.received + 1;
  if (received < flight.count) return { ...run, results, inFlight: { ...flight, received } };
  const failed = results
    .slice(flight.from, flight.from + flight.count)
    .some((result) => result?.ok === false);
  return settle({ ...run, results, inFlight: undefined }, failed);
}

/** Step by step: lets the next mutation go. */
export function nextStep(run: ReplayRun): ReplayRun {
  return run.status === 'waiting' ? { ...run, status: 'running' } : run;
}

/** The reason a run gives when it stopped at a failed mutation (it can go on from there). */
const STOPPED_AT_ERROR = 'stopped at the first error';

/** Whether a run stopped at an error with mutations left, so it can go on after it. */
export function canContinue(run: ReplayRun | undefined): boolean {
  return (
    run?.status === 'stopped' &&
    run.stopReason === STOPPED_AT_ERROR &&
    run.next < run.mutations.length
  );
}

/** Goes on after the failed mutation a run stopped at (the failure stays in its results). */
export function continueRun(run: ReplayRun): ReplayRun {
  if (!canContinue(run)) return run;
  return { ...run, status: run.stepwise ? 'waiting' : 'running', stopReason: undefined };
}

/** Ends the run; results still on their way are ignored. */
export function stopRun(run: ReplayRun, reason: string): ReplayRun {
  if (run.status === 'done' || run.status === 'stopped') return run;
  return { ...run, status: 'stopped', stopReason: reason, inFlight: undefined };
}

export function isActive(run: ReplayRun | undefined): boolean {
  return run !== undefined && (run.status === 'running' || run.status === 'waiting');
}

/** How far the run is: results received, failures among them, and the total. */
export function replayProgress(run: ReplayRun): { done: number; failed: number; total: number } {
  let done = 0;
  let failed = 0;
  for (const result of run.results) {
    if (!result) continue;
    done++;
    if (!result.ok) failed++;
  }
  return { done, failed, total: run.mutations.length };
}
