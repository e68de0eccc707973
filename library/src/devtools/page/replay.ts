import type { EndpointInterface } from '../../endpoint/types.js';
import { normalize } from '../../normalize/normalize.js';
import type { Controller } from '../../store/Controller.js';
import type { ReplayOutcome } from '../protocol/effects.js';
import type { Encoded } from '../protocol/messages.js';
import { checkSession } from '../protocol/session.js';
import { isRecordedMutation } from '../protocol/validate.js';
import { decode } from './encode.js';
import { EndpointNames, type Found } from './endpointNames.js';

/**
 * How a session is replayed: `apply` writes the recorded answers into the store without the
 * network, `send` runs each endpoint again and stores the server's new answer.
 */
export type ReplayMode = 'apply' | 'send';
export type { ReplayOutcome };

/** Options of `replaySession`. */
export interface ReplayOptions {
  /** Called after each mutation, e.g. to show progress. */
  onOutcome?: (outcome: ReplayOutcome<unknown>) => void;
  /** Stop at the first mutation that fails. */
  stopOnError?: boolean;
  /**
   * Where endpoints are found by name. By default: among those the store knows (see
   * `controller.endpoints`: those that ran in it, the other endpoints of their resources, and
   * the resources given to `createStore({ resources })`), by the names they are recorded by.
   */
  findEndpoint?: (name: string) => EndpointInterface | undefined;
}

/**
 * Runs recorded mutations in order. `apply` writes each recorded response into the store (no
 * network); `send` runs the endpoint again with the recorded arguments. A malformed mutation or
 * an unknown endpoint fails by itself and nothing of it is applied.
 */
export async function replayMutations(
  controller: Controller,
  mutations: readonly unknown[],
  mode: ReplayMode,
  options: ReplayOptions = {},
): Promise<ReplayOutcome<unknown>[]> {
  const outcomes: ReplayOutcome<unknown>[] = [];
  const { findEndpoint } = options;
  const names = new EndpointNames(controller);
  const find = findEndpoint
    ? (name: string): Found => {
        const endpoint = findEndpoint(name);
        return endpoint ? { endpoint } : { problem: `unknown endpoint "${name}"` };
      }
    : (name: string) => names.find(name);
  for (const [index, mutation] of mutations.entries()) {
    const outcome = await replayOne(controller, mutation, index, mode, find);
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
    if (!outcome.ok && options.stopOnError) break;
  }
  return outcomes;
}

async function replayOne(
  controller: Controller,
  mutation: unknown,
  index: number,
  mode: ReplayMode,
  find: (name: string) => Found,
): Promise<ReplayOutcome<unknown>> {
  if (!isRecordedMutation(mutation)) {
    return {
      index,
      endpoint: '',
      ok: false,
      error: `mutation ${index} is malformed: it needs an endpoint name and args`,
    };
  }
  const name = mutation.endpoint;
  const fail = (error: string): ReplayOutcome<unknown> => ({
    index,
    endpoint: name,
    ok: false,
    error,
  });
  const found = find(name);
  if ('problem' in found) return fail(found.problem);
  const { endpoint } = found;
  // A file can hold any `@t` object: what its encoding does not read names the part it is.
  const unreadable = (what: string, error: unknown) =>
    fail(
      `mutation ${index} (${name}) has ${what} that cannot be read: ${(error as Error).message}`,
    );
  let args: unknown[];
  try {
    args = mutation.args.map((arg) => decode(arg));
  } catch (error) {
    return unreadable('arguments', error);
  }
  let response: unknown;
  if (mode === 'apply') {
    if (!('response' in mutation)) return fail('no recorded response to apply');
    try {
      response = decode(mutation.response as Encoded);
    } catch (error) {
      return unreadable('a recorded response', error);
    }
  }
  try {
    if (mode === 'apply') {
      applyRecorded(controller, endpoint, args, response);
      return { index, endpoint: name, ok: true };
    }
    // The server's answer this time, to compare with the recorded one.
    const answer = await controller.fetch(endpoint, ...(args as Parameters<typeof endpoint>));
    return { index, endpoint: name, ok: true, response: answer };
  } catch (error) {
    // The outcome names the endpoint: the message does not say it again.
    return fail((error as Error).message);
  }
}

function applyRecorded(
  controller: Controller,
  endpoint: EndpointInterface,
  args: unknown[],
  response: unknown,
) {
  // A response that does not fit the schema would be stored as an error for the endpoint's key
  // (which its readers would then show): normalizing it first, result thrown away, makes such a
  // mutation fail with nothing of it applied.
  normalize(endpoint.schema, response, args, controller.getState());
  controller.setResponse(
    endpoint,
    ...([...args, response] as [...Parameters<typeof endpoint>, unknown]),
  );
}

/**
 * Replays a recorded session (the parsed JSON of a file the Recorder exported) into a store:
 * a session becomes a test fixture. `apply` writes the recorded responses (no network); `send`
 * runs each endpoint again. Throws when the session itself is invalid, before anything runs.
 */
export async function replaySession(
  controller: Controller,
  session: unknown,
  options: ReplayOptions & { mode?: ReplayMode } = {},
): Promise<ReplayOutcome<unknown>[]> {
  const checked = checkSession(session);
  if (!checked.ok) throw new Error(`replaySession: ${checked.error}`);
  return replayMutations(controller, checked.session.mutations, options.mode ?? 'apply', options);
}
