import { useMemo, useRef, useState } from 'preact/hooks';
import { usePanel } from '../context.js';
import type { RecordedEntry } from '../recorder/entries.js';
import { downloadText } from '../recorder/files.js';
import { isActive } from '../recorder/replay.js';
import { buildSession, sessionFileName, sessionText } from '../recorder/session.js';
import type { ViewProps } from '../views.js';
import { useFileDrop } from './fileDrop.js';
import { RecordedMutations } from './RecordedMutations.js';
import { ImportConfirm, mutationCount, type Notice, RecorderNotices } from './RecorderNotices.js';
import { RecorderToolbar } from './RecorderToolbar.js';
import { ReplayBar } from './ReplayBar.js';
import { useSessionImport } from './sessionImport.js';

/**
 * Records the selected store's mutations; the list can be edited, exported as a session file,
 * replaced by an imported one (picked or dropped on the view), and replayed into the page.
 */
export function RecorderView({ store }: ViewProps) {
  const recorder = usePanel((state) => state.recorder);
  const { entries, replay } = recorder;
  const locked = isActive(replay);
  const [notice, setNotice] = useState<Notice | undefined>(undefined);
  const selection = useEntrySelection(entries);
  const sessionImport = useSessionImport(entries.length, locked, setNotice, () =>
    selection.select(undefined),
  );
  const importFile = (file: File) => void sessionImport.importFile(file);
  const drop = useFileDrop(importFile);
  const { pending } = sessionImport;

  // Results are by position in the replayed list; the rows find theirs by entry id.
  const results = useMemo(
    () => new Map(replay?.entryIds.map((id, index) => [id, replay.results[index]]) ?? []),
    [replay],
  );

  const exportSession = () => {
    const name = sessionFileName();
    downloadText(name, sessionText(buildSession(entries, { source: store.name || undefined })));
    setNotice({
      tone: 'info',
      text: `Exported ${mutationCount(entries.length)} to ${name}.`,
      about: entries,
    });
  };

  return (
    <section
      class={`recorder${drop.dropping ? ' is-dropping' : ''}`}
      aria-label="Recorder"
      {...drop.handlers}
    >
      <RecorderToolbar
        recording={recorder.recording}
        count={entries.length}
        locked={locked}
        onExport={exportSession}
        onImportFile={importFile}
      />
      <ReplayBar count={entries.length} storeName={store.name || store.id} />
      {pending && (
        <ImportConfirm
          count={entries.length}
          fileName={pending.name}
          importing={pending.entries.length}
          onReplace={() => sessionImport.confirm(pending)}
          onCancel={sessionImport.cancel}
        />
      )}
      <RecorderNotices
        notice={notice}
        recorder={recorder}
        locked={locked}
        dropping={drop.dropping}
      />
      <RecordedMutations
        entries={entries}
        results={results}
        selected={selection.selected}
        index={selection.index}
        recording={recorder.recording}
        locked={locked}
        onSelect={selection.select}
        onEdited={(text) => setNotice({ tone: 'info', text })}
      />
    </section>
  );
}

/**
 * The selected entry (the first until one is picked). The selection stays on its entry; once
 * that is removed, on the entry that took its place.
 */
function useEntrySelection(entries: readonly RecordedEntry[]) {
  const [selectedId, select] = useState<number | undefined>(undefined);
  const lastIndex = useRef(0);
  let index = entries.findIndex((entry) => entry.id === selectedId);
  if (index < 0 && entries.length > 0)
    index = selectedId === undefined ? 0 : Math.min(lastIndex.current, entries.length - 1);
  lastIndex.current = Math.max(0, index);
  return { index, selected: entries[index], select };
}
