import { useConnection, usePanel, usePanelActions } from '../context.js';
import {
  canContinue,
  isActive,
  type ReplayMode,
  type ReplayRun,
  replayProgress,
} from '../recorder/replay.js';
import { isConnected } from '../store.js';

/** The replay options, the buttons that start, step and stop it, and its progress. */
export function ReplayBar(props: { count: number; storeName: string }) {
  const connection = useConnection();
  const run = usePanel((state) => state.recorder.replay);
  const options = usePanel((state) => state.recorder.options);
  const connected = usePanel(isConnected);
  const {
    startReplay,
    nextReplayStep,
    continueReplay,
    stopReplay,
    takeReplayCommand,
    setReplayOptions,
  } = usePanelActions();
  const active = isActive(run);

  /** Sends the command the replay has due, if any (later ones follow from the connection). */
  const sendDue = () => {
    const command = takeReplayCommand();
    if (command) connection.send(command);
  };

  return (
    <div class="replay">
      <div class="toolbar replay-toolbar">
        <fieldset class="replay-options" disabled={active}>
          <legend class="visually-hidden">Replay options</legend>
          <label>
            Mode{' '}
            <select
              value={options.mode}
              onChange={(event) =>
                setReplayOptions({ mode: event.currentTarget.value as ReplayMode })
              }
            >
              <option value="apply">apply: write the recorded responses (no network)</option>
              <option value="send">send: run the endpoints again</option>
            </select>
          </label>
          <label>
            <input
              type="checkbox"
              checked={options.stepwise}
              onChange={(event) => setReplayOptions({ stepwise: event.currentTarget.checked })}
            />{' '}
            Step by step
          </label>
          <label>
            <input
              type="checkbox"
              checked={options.stopOnError}
              onChange={(event) => setReplayOptions({ stopOnError: event.currentTarget.checked })}
            />{' '}
            Stop at the first error
          </label>
        </fieldset>
        {active ? (
          <>
            {run?.status === 'waiting' && (
              <button
                type="button"
                disabled={!connected}
                onClick={() => {
                  nextReplayStep();
                  sendDue();
                }}
              >
                Next step
              </button>
            )}
            <button type="button" class="danger" onClick={() => stopReplay()}>
              Stop replay
            </button>
          </>
        ) : (
          <>
            {canContinue(run) && (
              <button
                type="button"
                disabled={!connected}
                onClick={() => {
                  continueReplay();
                  sendDue();
                }}
              >
                Continue after the error
              </button>
            )}
            <button
              type="button"
              disabled={!connected || props.count === 0}
              title={`Replays the list into ${props.storeName}`}
              onClick={() => {
                startReplay(options);
                sendDue();
              }}
            >
              Replay
            </button>
          </>
        )}
      </div>
      {run && <ReplayProgress run={run} />}
    </div>
  );
}

function statusText(run: ReplayRun, done: number, failed: number, total: number): string {
  const counts = failed > 0 ? `${done - failed} ok, ${failed} failed` : `${done} ok`;
  switch (run.status) {
    case 'running':
      return `Replaying (${run.mode})…`;
    case 'waiting':
      return `Step ${done} of ${total} done (${counts}): Next step sends the next mutation.`;
    case 'done':
      return `Replay (${run.mode}) finished: ${counts}.`;
    case 'stopped':
      return `Replay (${run.mode}) ${run.stopReason ?? 'stopped'}: ${counts}.`;
  }
}

/** n / total, what the run is doing, and every failure with its message. */
function ReplayProgress({ run }: { run: ReplayRun }) {
  const { done, failed, total } = replayProgress(run);
  const failures = run.results.flatMap((result, index) =>
    result && !result.ok ? [{ index, error: result.error ?? '' }] : [],
  );
  return (
    <div class={`replay-progress replay-${run.status}`}>
      <progress max={total} value={done} aria-label="Replay progress" />
      <span class="replay-count">
        {done} / {total}
      </span>
      <span class="replay-status" role="status">
        {statusText(run, done, failed, total)}
      </span>
      {failures.length > 0 && (
        <ul class="plain replay-failures" aria-label="Failed mutations">
          {failures.map(({ index, error }) => (
            <li key={index}>
              #{index + 1} <span class="mono">{run.mutations[index]?.endpoint}</span>: {error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
