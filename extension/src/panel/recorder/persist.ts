import { checkSession } from '../../../../library/src/devtools/protocol.js';
import type { PanelStore } from '../store.js';
import type { RecordedEntry } from './entries.js';
import { entriesFromSession } from './session.js';
import { type RecordingStorage, storedRecording } from './storage.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Keeps the recorded list in `storage` until it is cleared: reads it back when the panel
 * opens, and writes it after every change (one write at a time; the latest list wins). Until
 * the saved list has been read nothing is written, so a panel that could not read it never
 * overwrites it. Returns a function that stops watching the list.
 */
export function persistRecording(store: PanelStore, storage: RecordingStorage): () => void {
  let loaded = false;
  let writing = false;
  /** The list as last written (or as it was when the panel opened). */
  let saved: readonly RecordedEntry[] = store.getState().recorder.entries;

  const write = async () => {
    if (!loaded || writing) return;
    writing = true;
    try {
      for (;;) {
        const { entries, storageError } = store.getState().recorder;
        if (entries === saved) break;
        saved = entries;
        try {
          if (entries.length === 0) await storage.remove();
          else await storage.save(storedRecording(entries));
          if (storageError) store.getState().setStorageError(undefined);
        } catch (error) {
          store.getState().setStorageError(`The recording could not be saved (${message(error)}).`);
        }
      }
    } finally {
      writing = false;
    }
  };

  storage.load().then(
    (value) => {
      if (value !== undefined) {
        const checked = checkSession(value);
        if (checked.ok) store.getState().restoreRecorded(entriesFromSession(checked.session));
        else
          store
            .getState()
            .setStorageError(`The saved recording could not be read (${checked.error}).`);
      }
      loaded = true;
      void write();
    },
    (error: unknown) =>
      store
        .getState()
        .setStorageError(
          `The saved recording could not be read (${message(error)}); changes are not saved.`,
        ),
  );

  return store.subscribe((state) => {
    if (state.recorder.entries !== saved) void write();
  });
}
