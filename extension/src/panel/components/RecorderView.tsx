import { useMemo, useRef, useState } from 'preact/hooks';
import { usePanel, usePanelActions } from '../context.js';
import { formatTime } from '../format.js';
import type { EntryFields, RecordedEntry } from '../recorder/entries.js';
import { downloadText, readFileText } from '../recorder/files.js';
import { isActive, type ReplayResult } from '../recorder/replay.js';
import {
  buildSession,
  entriesFromSession,
  parseSession,
  sessionFileName,
  sessionText,
} from '../recorder/session.js';
import { MAX_RECORDED } from '../recorder/slice.js';
import type { ViewProps } from '../views.js';
import { ROW_HEIGHT } from './layout.js';
import { RecordedEntryDetail } from './RecordedEntryDetail.js';
import { RecorderToolbar } from './RecorderToolbar.js';
import { ReplayBar } from './ReplayBar.js';
import { SplitHandle } from './SplitHandle.js';
import { VirtualList } from './VirtualList.js';

/**
 * A message about the list; one that tells what was done with the list as it was (`about`, e.g.
 * an export) is no longer said once the list changes.
 */
type Notice = { tone: 'info' | 'error'; text: string; about?: readonly unknown[] };

const plural = (count: number) => (count === 1 ? '1 mutation' : `${count} mutations`);

/**
 * Records the selected store's mutations; the list can be edited, exported as a session file,
 * replaced by an imported one (picked or dropped on the view), and replayed into the page.
 */
export function RecorderView({ store }: ViewProps) {
  const recorder = usePanel((state) => state.recorder);
  const { replaceRecorded } = usePanelActions();
  const [selectedId, setSelectedId] = useState<number | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | undefined>(undefined);
  const [pendingImport, setPendingImport] = useState<
    { name: string; entries: EntryFields[] } | undefined
  >(undefined);
  const [dropping, setDropping] = useState(false);
  const { entries, replay } = recorder;
  const locked = isActive(replay);
  // Read after a file is read (asynchronously): the list may have changed meanwhile.
  const latest = useRef({ count: entries.length, locked });
  latest.current = { count: entries.length, locked };

  // Results are by position in the replayed list; the rows find theirs by entry id.
  const results = useMemo(
    () => new Map(replay?.entryIds.map((id, index) => [id, replay.results[index]]) ?? []),
    [replay],
  );

  // The selection stays on its entry; once removed, on the entry that took its place.
  const lastIndex = useRef(0);
  let index = entries.findIndex((entry) => entry.id === selectedId);
  if (index < 0 && entries.length > 0)
    index = selectedId === undefined ? 0 : Math.min(lastIndex.current, entries.length - 1);
  lastIndex.current = Math.max(0, index);
  const selected = entries[index];

  const replace = (name: string, fields: EntryFields[]) => {
    replaceRecorded(fields);
    setPendingImport(undefined);
    setSelectedId(undefined);
    setNotice({ tone: 'info', text: `Imported ${plural(fields.length)} from ${name}.` });
  };

  const importFile = async (file: File) => {
    const fail = (why: string) =>
      setNotice({
        tone: 'error',
        text: `Cannot import ${file.name}: ${why}. Nothing was changed.`,
      });
    if (latest.current.locked) return fail('a replay is running');
    let text: string;
    try {
      text = await readFileText(file);
    } catch (error) {
      return fail((error as Error).message);
    }
    const parsed = parseSession(text);
    if (!parsed.ok) return fail(parsed.error);
    const fields = entriesFromSession(parsed.session);
    if (fields.length > MAX_RECORDED)
      return fail(
        `it holds ${fields.length} mutations; the Recorder keeps at most ${MAX_RECORDED}`,
      );
    // What was recorded is not thrown away without asking.
    if (latest.current.count > 0) {
      setNotice(undefined);
      setPendingImport({ name: file.name, entries: fields });
    } else replace(file.name, fields);
  };

  const exportSession = () => {
    const name = sessionFileName();
    downloadText(name, sessionText(buildSession(entries, { source: store.name || undefined })));
    setNotice({
      tone: 'info',
      text: `Exported ${plural(entries.length)} to ${name}.`,
      about: entries,
    });
  };

  const isFileDrag = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');

  return (
    <section
      class={`recorder${dropping ? ' is-dropping' : ''}`}
      aria-label="Recorder"
      onDragOver={(event) => {
        if (!isFileDrag(event)) return;
        event.preventDefault(); // accepts the drop
        setDropping(true);
      }}
      onDragLeave={(event) => {
        const into = event.relatedTarget as Node | null;
        if (!into || !event.currentTarget.contains(into)) setDropping(false);
      }}
      onDrop={(event) => {
        event.preventDefault(); // or the browser opens the file
        setDropping(false);
        const file = event.dataTransfer?.files[0];
        if (file) void importFile(file);
      }}
    >
      <RecorderToolbar
        recording={recorder.recording}
        count={entries.length}
        locked={locked}
        onExport={exportSession}
        onImportFile={(file) => void importFile(file)}
      />
      <ReplayBar count={entries.length} storeName={store.name || store.id} />
      {pendingImport && (
        <p class="notice confirm-import" role="alert">
          Replace the {plural(entries.length)} in the list with the{' '}
          {plural(pendingImport.entries.length)} of {pendingImport.name}?{' '}
          <button
            type="button"
            class="danger"
            onClick={() => replace(pendingImport.name, pendingImport.entries)}
          >
            Replace
          </button>{' '}
          <button type="button" onClick={() => setPendingImport(undefined)}>
            Cancel
          </button>
        </p>
      )}
      {notice && (notice.about === undefined || notice.about === entries) && (
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
          {plural(recorder.dropped)} not recorded: the list holds at most {MAX_RECORDED}.
        </p>
      )}
      {locked && recorder.recording && <p class="notice">What the replay does is not recorded.</p>}
      {dropping && <p class="drop-hint">Drop the session file to import it</p>}
      <div class="split recorder-split">
        <section class="pane pane-list" aria-label="Recorded mutations">
          <VirtualList
            id="recorded-mutations"
            label="Recorded mutations"
            items={entries}
            rowHeight={ROW_HEIGHT}
            rowKey={(entry) => entry.id}
            selectedIndex={selected ? index : undefined}
            onActivate={(entry) => setSelectedId(entry.id)}
            rowClass={(entry) => resultClass(results.get(entry.id))}
            rowTitle={(entry, position) =>
              `${position + 1}. ${entry.endpoint}${entry.method ? ` ${entry.method} ${entry.url}` : ''}`
            }
            empty={
              recorder.recording
                ? 'Recording: mutations of the selected store will show here.'
                : 'Nothing recorded. Press Record, or import a session file (pick it or drop it here).'
            }
            renderRow={(entry, position) => (
              <EntryLine entry={entry} position={position + 1} result={results.get(entry.id)} />
            )}
          />
        </section>
        <SplitHandle />
        <section class="pane pane-detail" aria-label="Recorded mutation">
          {selected && (
            <RecordedEntryDetail
              entry={selected}
              position={index + 1}
              count={entries.length}
              result={results.get(selected.id)}
              locked={locked}
              onEdited={(text) => setNotice({ tone: 'info', text })}
            />
          )}
        </section>
      </div>
    </section>
  );
}

function resultClass(result: ReplayResult | undefined): string | undefined {
  if (!result) return undefined;
  return result.ok ? 'replay-ok' : 'replay-error';
}

function EntryLine(props: { entry: RecordedEntry; position: number; result?: ReplayResult }) {
  const { entry, result } = props;
  return (
    <>
      <span class="index">{props.position}</span>
      {entry.time !== undefined && <span class="time">{formatTime(entry.time)}</span>}
      <span class="endpoint mono">{entry.endpoint}</span>
      {entry.method && (
        <span class="request mono">
          {entry.method} {entry.url}
        </span>
      )}
      {result && (
        <span class={`badge ${result.ok ? 'badge-ok' : 'badge-error'}`}>
          {result.ok ? 'ok' : 'error'}
        </span>
      )}
    </>
  );
}
