import { formatTime } from '../format.js';
import type { RecordedEntry } from '../recorder/entries.js';
import type { ReplayResult } from '../recorder/replay.js';
import { ROW_HEIGHT } from './layout.js';
import { RecordedEntryDetail } from './RecordedEntryDetail.js';
import { SplitHandle } from './SplitHandle.js';
import { VirtualList } from './VirtualList.js';

/** The recorded mutations, each with its replay result, beside the selected one in full. */
export function RecordedMutations(props: {
  entries: RecordedEntry[];
  /** The last replay's results, by entry id. */
  results: ReadonlyMap<number, ReplayResult | undefined>;
  /** The selected entry, and its index in `entries`. */
  selected: RecordedEntry | undefined;
  index: number;
  recording: boolean;
  /** A replay is running: the entries are not edited. */
  locked: boolean;
  onSelect(id: number): void;
  /** An entry was edited: `text` says how. */
  onEdited(text: string): void;
}) {
  const { entries, results, selected, index } = props;
  return (
    <div class="split recorder-split">
      <section class="pane pane-list" aria-label="Recorded mutations">
        <VirtualList
          id="recorded-mutations"
          label="Recorded mutations"
          items={entries}
          rowHeight={ROW_HEIGHT}
          rowKey={(entry) => entry.id}
          selectedIndex={selected ? index : undefined}
          onActivate={(entry) => props.onSelect(entry.id)}
          rowClass={(entry) => resultClass(results.get(entry.id))}
          rowTitle={(entry, position) =>
            `${position + 1}. ${entry.endpoint}${entry.method ? ` ${entry.method} ${entry.url}` : ''}`
          }
          empty={
            props.recording
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
            locked={props.locked}
            onEdited={props.onEdited}
          />
        )}
      </section>
    </div>
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
