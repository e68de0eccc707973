/**
 * Where the recording is kept while the panel is closed: extension storage in the browser, an
 * in-memory fake in tests. Values must survive structured cloning (JSON-safe data only).
 */
export interface RecordingStorage {
  /** The saved value, or undefined when there is none. */
  load(): Promise<unknown>;
  save(value: unknown): Promise<void>;
  remove(): Promise<void>;
}

/** The part of `browser.storage.local` that the recording uses. */
export interface StorageAreaLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * One recording for the whole browser profile, not one per site: the panel cannot read the
 * inspected page's origin without the `tabs` permission or `inspectedWindow.eval`, and a
 * recording is often replayed on another origin (staging → localhost) anyway.
 */
export const RECORDING_KEY = 'restlens.recording';

export function extensionStorage(area: StorageAreaLike, key = RECORDING_KEY): RecordingStorage {
  return {
    load: async () => (await area.get(key))[key],
    save: (value) => area.set({ [key]: value }),
    remove: () => area.remove(key),
  };
}
