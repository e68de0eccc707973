import { useRef, useState } from 'preact/hooks';
import { usePanelActions } from '../context.js';
import type { EntryFields } from '../recorder/entries.js';
import { readFileText } from '../recorder/files.js';
import { entriesFromSession, parseSession } from '../recorder/session.js';
import { MAX_RECORDED } from '../recorder/slice.js';
import { mutationCount, type Notice } from './RecorderNotices.js';

/** A session file read and checked, waiting for the user to confirm that it replaces the list. */
export interface PendingImport {
  name: string;
  entries: EntryFields[];
}

export interface SessionImport {
  /** Reads, checks and imports a session file (after asking, when the list is not empty). */
  importFile(file: File): Promise<void>;
  /** The import waiting to be confirmed. */
  pending: PendingImport | undefined;
  /** Replaces the list with the pending import. */
  confirm(pending: PendingImport): void;
  cancel(): void;
}

/**
 * Imports session files into the Recorder's list. `say` tells the outcome; `onReplaced` runs once
 * the list was replaced.
 */
export function useSessionImport(
  count: number,
  locked: boolean,
  say: (notice: Notice | undefined) => void,
  onReplaced: () => void,
): SessionImport {
  const { replaceRecorded } = usePanelActions();
  const [pending, setPending] = useState<PendingImport | undefined>(undefined);
  // Read after a file is read (asynchronously): the list may have changed meanwhile.
  const latest = useRef({ count, locked });
  latest.current = { count, locked };

  const replace = ({ name, entries }: PendingImport) => {
    replaceRecorded(entries);
    setPending(undefined);
    onReplaced();
    say({ tone: 'info', text: `Imported ${mutationCount(entries.length)} from ${name}.` });
  };

  const importFile = async (file: File) => {
    const fail = (why: string) =>
      say({ tone: 'error', text: `Cannot import ${file.name}: ${why}. Nothing was changed.` });
    if (latest.current.locked) return fail('a replay is running');
    let text: string;
    try {
      text = await readFileText(file);
    } catch (error) {
      return fail((error as Error).message);
    }
    const parsed = parseSession(text);
    if (!parsed.ok) return fail(parsed.error);
    const entries = entriesFromSession(parsed.session);
    if (entries.length > MAX_RECORDED)
      return fail(
        `it holds ${entries.length} mutations; the Recorder keeps at most ${MAX_RECORDED}`,
      );
    // What was recorded is not thrown away without asking.
    if (latest.current.count > 0) {
      say(undefined);
      setPending({ name: file.name, entries });
    } else replace({ name: file.name, entries });
  };

  return { importFile, pending, confirm: replace, cancel: () => setPending(undefined) };
}
