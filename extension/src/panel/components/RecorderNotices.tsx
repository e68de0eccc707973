import { MAX_RECORDED, type RecorderState } from '../recorder/slice.js';

/**
 * A message about the list; one that tells what was done with the list as it was (`about`, e.g.
 * an export) is no longer said once the list changes.
 */
export type Notice = { tone: 'info' | 'error'; text: string; about?: readonly unknown[] };

/** "1 mutation", "3 mutations". */
export const mutationCount = (count: number) => (count === 1 ? '1 mutation' : `${count} mutations`);

/** Asks before an imported session replaces what was recorded. */
export function ImportConfirm(props: {
  /** Mutations in the list now. */
  count: number;
  fileName: string;
  /** Mutations in the imported session. */
  importing: number;
  onReplace(): void;
  onCancel(): void;
}) {
  return (
    <p class="notice confirm-import" role="alert">
      Replace the {mutationCount(props.count)} in the list with the {mutationCount(props.importing)}{' '}
      of {props.fileName}?{' '}
      <button type="button" class="danger" onClick={props.onReplace}>
        Replace
      </button>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </p>
  );
}

/**
 * What the Recorder says about its list: the last notice, why storage failed, what was not
 * recorded, and what a running replay or a dragged file means for it.
 */
export function RecorderNotices(props: {
  notice: Notice | undefined;
  recorder: RecorderState;
  /** A replay is running. */
  locked: boolean;
  /** A file is dragged over the view. */
  dropping: boolean;
}) {
  const { notice, recorder } = props;
  return (
    <>
      {notice && (notice.about === undefined || notice.about === recorder.entries) && (
        <p
          class={`notice notice-${notice.tone}`}
          role={notice.tone === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </p>
      )}
      {recorder.storageError && (
        <p class="notice notice-error" role="alert">
          {recorder.storageError}
          {recorder.clearSaved && (
            <>
              {' '}
              <button type="button" class="danger" onClick={recorder.clearSaved}>
                Clear the saved recording
              </button>
            </>
          )}
        </p>
      )}
      {recorder.dropped > 0 && (
        <p class="notice notice-error">
          {mutationCount(recorder.dropped)} not recorded: the list holds at most {MAX_RECORDED}.
        </p>
      )}
      {props.locked && recorder.recording && (
        <p class="notice">What the replay does is not recorded.</p>
      )}
      {props.dropping && <p class="drop-hint">Drop the session file to import it</p>}
    </>
  );
}
