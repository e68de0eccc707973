import { useRef, useState } from 'preact/hooks';
import { usePanelActions } from '../context.js';

/** Record / pause, clear (after confirming), export and import (file picker). */
export function RecorderToolbar(props: {
  recording: boolean;
  count: number;
  /** A replay is running: the list must not change under it. */
  locked: boolean;
  onExport(): void;
  onImportFile(file: File): void;
}) {
  const { setRecording, clearRecording } = usePanelActions();
  const [confirmingClear, setConfirmingClear] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const { recording, count, locked } = props;

  return (
    <div class="toolbar recorder-toolbar">
      <button
        type="button"
        class={recording ? 'record is-recording' : 'record'}
        aria-pressed={recording}
        onClick={() => setRecording(!recording)}
      >
        <span class="record-dot" aria-hidden="true" />
        {recording ? 'Pause' : 'Record'}
      </button>
      <span class="recorder-state" role="status">
        {recording ? 'Recording mutations' : 'Paused'}
      </span>
      <span class="count">{count === 1 ? '1 mutation' : `${count} mutations`}</span>
      <span class="spacer" />
      {confirmingClear ? (
        <span class="confirm">
          Clear the recorded mutations?{' '}
          <button
            type="button"
            class="danger"
            onClick={() => {
              setConfirmingClear(false);
              clearRecording();
            }}
          >
            Clear
          </button>
          <button type="button" onClick={() => setConfirmingClear(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          disabled={count === 0 || locked}
          onClick={() => setConfirmingClear(true)}
        >
          Clear…
        </button>
      )}
      <button type="button" disabled={count === 0} onClick={props.onExport}>
        Export…
      </button>
      <button type="button" disabled={locked} onClick={() => picker.current?.click()}>
        Import…
      </button>
      <input
        ref={picker}
        type="file"
        accept=".json,application/json"
        aria-label="Session file to import"
        hidden
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          // Cleared, so that picking the same file again is a change too.
          input.value = '';
          if (file) props.onImportFile(file);
        }}
      />
    </div>
  );
}
