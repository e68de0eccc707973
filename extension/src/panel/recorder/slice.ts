import type { StoreEvent } from '../../../../library/src/devtools/protocol/effects.js';
import type { ExtensionCommandBody } from '../../../../library/src/devtools/protocol/messages.js';
import {
  type EntryFields,
  entryFromEvent,
  isRecordable,
  moveEntry,
  type RecordedEntry,
  removeEntry,
  toMutation,
} from './entries.js';
import {
  continueRun,
  isActive,
  newReplayRun,
  nextStep,
  type ReplayOptions,
  type ReplayRun,
  stopRun,
  takeCommand,
  takeResult,
} from './replay.js';

/** The Recorder's part of the panel store. */
export interface RecorderState {
  /** Whether mutations of the selected store are being kept. */
  recording: boolean;
  entries: RecordedEntry[];
  nextId: number;
  /** Mutations seen while recording but not kept, because the list was full. */
  dropped: number;
  replay?: ReplayRun;
  /** The replay options as last chosen: kept here, so that they outlive the Recorder view. */
  options: ReplayOptions;
  /** Why the recording could not be read from or saved to extension storage. */
  storageError?: string;
  /**
   * Set while the saved recording could not be read: removes it from extension storage (the
   * Recorder offers it), after which the list is saved again.
   */
  clearSaved?: () => void;
}

/** A bound on the list (and on what is saved to extension storage). */
export const MAX_RECORDED = 5000;

type ReplayCommandBody = Extract<ExtensionCommandBody, { kind: 'replay' }>;

export interface RecorderActions {
  setRecording(on: boolean): void;
  clearRecording(): void;
  removeRecorded(id: number): void;
  moveRecorded(id: number, by: number): void;
  /** Replaces the list with an imported session's mutations. */
  replaceRecorded(entries: readonly EntryFields[]): void;
  /** Puts the saved recording back, before what was recorded since the panel opened. */
  restoreRecorded(entries: readonly EntryFields[]): void;
  /** Says why storage failed (`clearSaved`: the saved recording could not be read). */
  setStorageError(error: string | undefined, clearSaved?: () => void): void;
  setReplayOptions(options: Partial<ReplayOptions>): void;
  /** Starts replaying the whole list into the selected store. */
  startReplay(options: ReplayOptions): void;
  nextReplayStep(): void;
  /** Goes on after the failed mutation a replay stopped at. */
  continueReplay(): void;
  stopReplay(reason?: string): void;
  /** The replay command due now, marked as sent: the caller sends it to the page. */
  takeReplayCommand(): ReplayCommandBody | undefined;
}

export function emptyRecorder(): RecorderState {
  return {
    recording: false,
    entries: [],
    nextId: 1,
    dropped: 0,
    options: { mode: 'apply', stepwise: false, stopOnError: false },
  };
}

/** Entries for `fields`, with ids from `nextId` on (at most MAX_RECORDED of them). */
function numbered(
  fields: readonly EntryFields[],
  nextId: number,
): { entries: RecordedEntry[]; nextId: number } {
  const entries = fields.slice(0, MAX_RECORDED).map((entry, index) => ({
    ...entry,
    id: nextId + index,
  }));
  return { entries, nextId: nextId + entries.length };
}

/**
 * Takes the events a store just applied: the mutations are recorded (while recording, and only
 * from the selected store), replay results move the replay on. What a replay did carries its
 * `replayId` and is not recorded.
 */
export function observeEvents(
  state: RecorderState,
  selected: boolean,
  events: readonly StoreEvent[],
): RecorderState {
  let next = state;
  for (const event of events) {
    if (next.recording && selected && event.action.replayId === undefined && isRecordable(event)) {
      next =
        next.entries.length >= MAX_RECORDED
          ? { ...next, dropped: next.dropped + 1 }
          : {
              ...next,
              entries: [...next.entries, { ...entryFromEvent(event), id: next.nextId }],
              nextId: next.nextId + 1,
            };
    }
    for (const effect of event.effects) {
      if (effect.type !== 'replay-result' || !next.replay) continue;
      const replay = takeResult(next.replay, effect);
      if (replay !== next.replay) next = { ...next, replay };
    }
  }
  return next;
}

let replayCount = 0;
/** Unique per run, and across panels: results of another panel's replay never count here. */
const newReplayId = () =>
  `replay-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${++replayCount}`;

interface RecorderHost {
  recorder: RecorderState;
  selectedStoreId?: string;
}

/** The Recorder's actions, for the panel store (`set` and `get` are zustand's). */
export function createRecorderActions(
  set: (update: (state: RecorderHost) => Partial<RecorderHost>) => void,
  get: () => RecorderHost,
): RecorderActions {
  const update = (change: (recorder: RecorderState) => RecorderState) =>
    set((state) => ({ recorder: change(state.recorder) }));
  // The list is not edited under a running replay: its results are shown beside its entries.
  const edit = (change: (recorder: RecorderState) => RecorderState) =>
    update((recorder) => (isActive(recorder.replay) ? recorder : change(recorder)));

  return {
    setRecording: (recording) => update((recorder) => ({ ...recorder, recording })),
    clearRecording: () =>
      edit((recorder) => ({ ...recorder, entries: [], dropped: 0, replay: undefined })),
    removeRecorded: (id) =>
      edit((recorder) => ({ ...recorder, entries: removeEntry(recorder.entries, id) })),
    moveRecorded: (id, by) =>
      edit((recorder) => ({ ...recorder, entries: moveEntry(recorder.entries, id, by) })),
    replaceRecorded: (entries) =>
      edit((recorder) => ({
        ...recorder,
        ...numbered(entries, recorder.nextId),
        dropped: 0,
        replay: undefined,
      })),
    restoreRecorded: (entries) =>
      update((recorder) => {
        const restored = numbered(entries, recorder.nextId);
        return {
          ...recorder,
          nextId: restored.nextId,
          entries: [...restored.entries, ...recorder.entries].slice(0, MAX_RECORDED),
        };
      }),
    setReplayOptions: (options) =>
      update((recorder) => ({ ...recorder, options: { ...recorder.options, ...options } })),
    setStorageError: (storageError, clearSaved) =>
      update((recorder) => ({ ...recorder, storageError, clearSaved })),
    startReplay(options) {
      const storeId = get().selectedStoreId;
      if (storeId === undefined) return;
      edit((recorder) => ({
        ...recorder,
        replay: newReplayRun(
          newReplayId(),
          storeId,
          recorder.entries.map((entry) => ({ id: entry.id, mutation: toMutation(entry) })),
          options,
        ),
      }));
    },
    nextReplayStep: () =>
      update((recorder) =>
        recorder.replay ? { ...recorder, replay: nextStep(recorder.replay) } : recorder,
      ),
    continueReplay: () =>
      update((recorder) =>
        recorder.replay ? { ...recorder, replay: continueRun(recorder.replay) } : recorder,
      ),
    stopReplay: (reason = 'stopped by you') =>
      update((recorder) =>
        recorder.replay ? { ...recorder, replay: stopRun(recorder.replay, reason) } : recorder,
      ),
    takeReplayCommand() {
      const { replay } = get().recorder;
      if (!replay) return undefined;
      const [run, command] = takeCommand(replay);
      if (run !== replay) update((recorder) => ({ ...recorder, replay: run }));
      return command;
    },
  };
}
