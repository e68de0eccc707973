import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../library/src/devtools/protocol/effects.js';
import {
  extensionCommand,
  MAX_MESSAGE_LENGTH,
  type RecordedMutation,
} from '../../../library/src/devtools/protocol/messages.js';
import { isExtensionCommand } from '../../../library/src/devtools/protocol/validate.js';
import {
  isActive,
  newReplayRun,
  nextStep,
  type ReplayOptions,
  type ReplayRun,
  replayProgress,
  stopRun,
  takeCommand,
  takeResult,
} from '../../src/panel/recorder/replay.js';

const mutations: RecordedMutation[] = ['a', 'b', 'c'].map((endpoint) => ({
  endpoint,
  args: [{ id: endpoint }],
  response: { id: endpoint },
}));

function start(options: Partial<ReplayOptions> = {}, list = mutations): ReplayRun {
  return newReplayRun(
    'run-1',
    'store-1',
    list.map((mutation, index) => ({ id: index + 10, mutation })),
    { mode: 'apply', stepwise: false, stopOnError: false, ...options },
  );
}

const result = (replayId: string, index: number, ok = true, error?: string) =>
  ({
    type: 'replay-result',
    replayId,
    index,
    endpoint: 'x',
    ok,
    ...(error ? { error } : {}),
  }) as Extract<Effect, { type: 'replay-result' }>;

/** Takes the due command and answers each of its mutations with `outcomes` (true = ok). */
function answer(run: ReplayRun, ...outcomes: boolean[]): ReplayRun {
  const [sent, command] = takeCommand(run);
  if (!command) throw new Error('no command was due');
  return outcomes.reduce(
    (current, ok, index) =>
      takeResult(current, result(command.replayId, index, ok, ok ? undefined : `boom ${index}`)),
    sent,
  );
}

describe('replay all at once', () => {
  it('sends every mutation in one valid command and is done with every result', () => {
    const [sent, command] = takeCommand(start({ mode: 'send' }));
    expect(command).toEqual({
      kind: 'replay',
      storeId: 'store-1',
      replayId: 'run-1.0',
      mode: 'send',
      mutations,
    });
    expect(isExtensionCommand(extensionCommand(command!))).toBe(true);
    expect(takeCommand(sent)[1]).toBeUndefined(); // nothing more while it is in flight
    let run = takeResult(sent, result('run-1.0', 0));
    run = takeResult(run, result('run-1.0', 1, false, 'unknown endpoint "b"'));
    expect(run.status).toBe('running');
    expect(replayProgress(run)).toEqual({ done: 2, failed: 1, total: 3 });
    run = takeResult(run, result('run-1.0', 2));
    expect(run.status).toBe('done');
    expect(run.results).toEqual([
      { ok: true },
      { ok: false, error: 'unknown endpoint "b"' },
      { ok: true },
    ]);
    expect(isActive(run)).toBe(false);
  });

  it('ignores results of other replays, out-of-range and repeated ones', () => {
    const [sent] = takeCommand(start());
    let run = takeResult(sent, result('run-0.0', 0));
    run = takeResult(run, result('run-1.0', 3));
    run = takeResult(run, result('run-1.0', -1));
    expect(run).toBe(sent);
    run = takeResult(run, result('run-1.0', 0));
    const again = takeResult(run, result('run-1.0', 0, false, 'late'));
    expect(again).toBe(run);
    expect(replayProgress(run).done).toBe(1);
  });

  it('splits a list too large for one command, and fails a mutation too large to send at all', () => {
    const big = (endpoint: string, size: number): RecordedMutation => ({
      endpoint,
      args: [],
      response: 'x'.repeat(size),
    });
    const third = Math.floor(MAX_MESSAGE_LENGTH / 3);
    let run = start({}, [
      big('a', third),
      big('b', third),
      big('c', third),
      big('huge', MAX_MESSAGE_LENGTH),
      big('d', 10),
    ]);
    const [first, command1] = takeCommand(run);
    expect(command1?.mutations.map((mutation) => mutation.endpoint)).toEqual(['a', 'b']);
    expect(isExtensionCommand(extensionCommand(command1!))).toBe(true);
    run = takeResult(takeResult(first, result('run-1.0', 0)), result('run-1.0', 1));
    const [second, command2] = takeCommand(run);
    expect(command2?.replayId).toBe('run-1.2');
    expect(command2?.mutations.map((mutation) => mutation.endpoint)).toEqual(['c']);
    run = takeResult(second, result('run-1.2', 0));
    const [third2, command3] = takeCommand(run);
    // `huge` failed without being sent; `d` went on.
    expect(command3?.replayId).toBe('run-1.4');
    expect(third2.results[3]).toEqual({
      ok: false,
      error: expect.stringMatching(/too large to send/),
    });
  });
});

describe('replay one by one', () => {
  it('step by step: one mutation per command, the next only after Next step', () => {
    let run = answer(start({ stepwise: true }), true);
    expect(run.status).toBe('waiting');
    expect(takeCommand(run)[1]).toBeUndefined();
    run = nextStep(run);
    const [sent, command] = takeCommand(run);
    expect(command).toMatchObject({ replayId: 'run-1.1', mutations: [mutations[1]] });
    run = takeResult(sent, result('run-1.1', 0, false, 'nope'));
    expect(run.status).toBe('waiting'); // an error does not end it unless asked
    run = answer(nextStep(run), true);
    expect(run.status).toBe('done');
    expect(replayProgress(run)).toEqual({ done: 3, failed: 1, total: 3 });
  });

  it('stop at the first error: sends them one by one and stops after the one that failed', () => {
    let run = answer(start({ stopOnError: true }), true);
    expect(run.status).toBe('running');
    const [sent, command] = takeCommand(run);
    expect(command?.mutations).toEqual([mutations[1]]);
    run = takeResult(sent, result(command!.replayId, 0, false, 'unknown endpoint "b"'));
    expect(run).toMatchObject({ status: 'stopped', stopReason: 'stopped at the first error' });
    expect(takeCommand(run)[1]).toBeUndefined();
    expect(replayProgress(run)).toEqual({ done: 2, failed: 1, total: 3 });
  });

  it('stops when told, and ignores results still on their way', () => {
    const [sent, command] = takeCommand(start({ stepwise: true }));
    const stopped = stopRun(sent, 'stopped by you');
    expect(stopped).toMatchObject({ status: 'stopped', stopReason: 'stopped by you' });
    expect(takeResult(stopped, result(command!.replayId, 0))).toBe(stopped);
    expect(stopRun(stopped, 'again')).toBe(stopped);
  });

  it('an empty list is done at once', () => {
    const run = start({}, []);
    expect(run.status).toBe('done');
    expect(takeCommand(run)[1]).toBeUndefined();
  });
});
