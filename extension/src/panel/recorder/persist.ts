import { checkSession } from '../../../../library/src/devtools/protocol/session.js';
import type { PanelStore } from '../store.js';
import type { RecordedEntry } from './entries.js';
import { buildSession, entriesFromSession } from './session.js';
import type { RecordingStorage } from './storage.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Keeps the recorded list in `storage` (as a session file's content, checked when it is read
 * back) until it is cleared: reads it back when the panel opens, and writes it after every
 * change (one write at a time; the latest list wins). Until the saved list has been read nothing
 * is written, so a panel that could not read it never overwrites it. Returns a function that
 * stops watching the list.
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
          else await storage.save(buildSession(entries));
          // Saved over whatever could not be read: nothing is left to clear.
          if (storageError) store.getState().setStorageError(undefined);
        } catch (error) {
          store.getState().setStorageError(`The recording could not be saved (${message(error)}).`);
        }
      }
    } finally {
      writing = false;
    }
  };

  /**
   * The saved recording cannot be read: said, and offered to be cleared. Until it is (or a save
   * replaces it) it stays as it is: it may be read by a later version, or after a storage error.
   */
  const unreadable = (error: string) =>
    store.getState().setStorageError(error, () => {
      store.getState().setStorageError(undefined);
      storage.remove().then(
        () => {
          loaded = true;
          // Storage holds no list now: a list recorded meanwhile is written.
          const { entries } = store.getState().recorder;
          saved = entries.length === 0 ? entries : [];
          void write();
        },
        (removeError: unknown) =>
          store
            .getState()
            .setStorageError(`The saved recording could not be cleared (${message(removeError)}).`),
      );
    });

  storage.load().then(
    (value) => {
      if (value !== undefined) {
        const checked = checkSession(value);
        if (checked.ok) store.getState().restoreRecorded(entriesFromSession(checked.session));
        else unreadable(`The saved recording could not be read (${checked.error}).`);
      }
      loaded = true;
      void write();
    },
    (error: unknown) =>
      unreadable(
        `The saved recording could not be read (${message(error)}); changes are not saved.`,
      ),
  );

  return store.subscribe((state) => {
    if (state.recorder.entries !== saved) void write();
  });
}
