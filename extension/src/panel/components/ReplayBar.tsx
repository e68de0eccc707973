import { useConnection, usePanel, usePanelActions } from '../context.js';
import {
  canContinue,
  isActive,
  type ReplayMode,
  type ReplayOptions,
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
  const actions = usePanelActions();
  const active = isActive(run);

  /**
   * A button's handler: moves the replay on with `step`, then sends the command it has due, if
   * any (later ones follow from the connection).
   */
  const thenSendDue = (step: () => void) => () => {
    step();
    const command = actions.takeReplayCommand();
    if (command) connection.send(command);
  };

  return (
    <div class="replay">
      <div class="toolbar replay-toolbar">
        <ReplayOptionsFields
          options={options}
          disabled={active}
          onChange={actions.setReplayOptions}
        />
        <ReplayButtons
          run={run}
          connected={connected}
          count={props.count}
          storeName={props.storeName}
          onStart={thenSendDue(() => actions.startReplay(options))}
          onNextStep={thenSendDue(actions.nextReplayStep)}
          onContinue={thenSendDue(actions.continueReplay)}
          onStop={() => actions.stopReplay()}
        />
      </div>
      {run && <ReplayProgress run={run} />}
    </div>
  );
}

/** How the replay runs: its mode, step by step or not, and whether it stops at an error. */
function ReplayOptionsFields(props: {
  options: ReplayOptions;
  /** A replay is running: its options are not changed under it. */
  disabled: boolean;
  onChange(options: Partial<ReplayOptions>): void;
}) {
  const { options, onChange } = props;
  return (
    <fieldset class="replay-options" disabled={props.disabled}>
      <legend class="visually-hidden">Replay options</legend>
      <label>
        Mode{' '}
        <select
          value={options.mode}
          onChange={(event) => onChange({ mode: event.currentTarget.value as ReplayMode })}
        >
          <option value="apply">apply: write the recorded responses (no network)</option>
          <option value="send">send: run the endpoints again</option>
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={options.stepwise}
          onChange={(event) => onChange({ stepwise: event.currentTarget.checked })}
        />{' '}
        Step by step
      </label>
      <label>
        <input
          type="checkbox"
          checked={options.stopOnError}
          onChange={(event) => onChange({ stopOnError: event.currentTarget.checked })}
        />{' '}
        Stop at the first error
      </label>
    </fieldset>
  );
}

/** Next step and Stop while a replay runs; otherwise Continue (after an error) and Replay. */
function ReplayButtons(props: {
  run: ReplayRun | undefined;
  connected: boolean;
  /** Mutations in the list. */
  count: number;
  storeName: string;
  onStart(): void;
  onNextStep(): void;
  onContinue(): void;
  onStop(): void;
}) {
  const { run, connected } = props;
  if (isActive(run))
    return (
      <>
        {run?.status === 'waiting' && (
          <button type="button" disabled={!connected} onClick={props.onNextStep}>
            Next step
          </button>
        )}
        <button type="button" class="danger" onClick={props.onStop}>
          Stop replay
        </button>
      </>
    );
  return (
    <>
      {canContinue(run) && (
        <button type="button" disabled={!connected} onClick={props.onContinue}>
          Continue after the error
        </button>
      )}
      <button
        type="button"
        disabled={!connected || props.count === 0}
        title={`Replays the list into ${props.storeName}`}
        onClick={props.onStart}
      >
        Replay
      </button>
    </>
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
