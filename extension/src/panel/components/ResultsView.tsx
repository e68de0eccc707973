import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ResultCommand } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanel, usePanelActions } from '../context.js';
import { formatTime } from '../format.js';
import type { StoreView } from '../model.js';
import {
  formatExpiresIn,
  formatLive,
  RESULT_SORTS,
  type ResultRow,
  type ResultSort,
  resultRows,
  sortAndFilterResults,
} from '../results.js';
import { isConnected } from '../store.js';
import type { ViewProps } from '../views.js';
import { FilterInput } from './FilterInput.js';
import { ROW_HEIGHT } from './layout.js';
import { ResultWhy } from './ReadBy.js';
import { ResultValue } from './ResultValue.js';
import { SplitHandle } from './SplitHandle.js';
import { ValueTree } from './ValueTree.js';
import { VirtualList } from './VirtualList.js';

/** How often the view asks the page who reads each result (components mount and unmount). */
const READERS_POLL_MS = 1000;

const readersText = (count: number) => (count === 1 ? '1 reader' : `${count} readers`);

/**
 * Every stored result with its status, readers, fetch time and expiry; sortable and filterable.
 * The selected one shows its value and meta, and the actions on it.
 */
export function ResultsView({ store }: ViewProps) {
  const now = useReadersPoll(store);
  const [sort, setSort] = useState<ResultSort>('key');
  const [filter, setFilter] = useState('');
  const [selectedKey, setSelectedKey] = useState<string>();
  const rows = useMemo(() => resultRows(store, now), [store, now]);
  const shown = useMemo(() => sortAndFilterResults(rows, sort, filter), [rows, sort, filter]);
  const selected = rows.find((row) => row.key === selectedKey);

  if (rows.length === 0) return <p class="notice">No stored results yet: reads show here.</p>;

  return (
    <div class="split">
      <section class="pane pane-list" aria-label="Stored results">
        <ResultsToolbar filter={filter} sort={sort} onFilter={setFilter} onSort={setSort} />
        <VirtualList
          id="result-rows"
          label="Results"
          items={shown}
          rowHeight={ROW_HEIGHT}
          rowKey={(row) => row.key}
          rowAttributes={(row) => ({ 'data-key': row.key, title: row.key })}
          selectedIndex={selected ? shown.indexOf(selected) : undefined}
          onActivate={(row) => setSelectedKey(row.key)}
          empty="No result matches the filter."
          renderRow={(row) => <ResultLine row={row} now={now} />}
        />
      </section>
      <SplitHandle />
      <section class="pane pane-detail" aria-label="Result">
        {selected ? (
          <ResultDetail store={store} row={selected} now={now} />
        ) : (
          <p class="notice">Pick a result to see its value and act on it.</p>
        )}
      </section>
    </div>
  );
}

/**
 * While the view is shown: asks the page who reads each result, now, every second, and at once
 * after a change in the store (that may end a read in flight, or start one). Returns the time of
 * the last poll: the clock for "expires in".
 */
function useReadersPoll(store: StoreView): number {
  const connection = useConnection();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const ask = () => {
      setNow(Date.now());
      connection.send({ kind: 'readers', storeId: store.id });
    };
    ask();
    const timer = setInterval(ask, READERS_POLL_MS);
    return () => clearInterval(timer);
  }, [connection, store.id]);
  useEffect(() => {
    if (store.lastSeq > 0) connection.send({ kind: 'readers', storeId: store.id });
  }, [connection, store.id, store.lastSeq]);
  return now;
}

/** The results' filter, and the order they are listed in. */
function ResultsToolbar(props: {
  filter: string;
  sort: ResultSort;
  onFilter(text: string): void;
  onSort(sort: ResultSort): void;
}) {
  return (
    <div class="toolbar">
      <FilterInput
        label="Filter results"
        placeholder="Filter results"
        listId="result-rows"
        value={props.filter}
        onChange={props.onFilter}
      />
      <select
        aria-label="Sort by"
        value={props.sort}
        onChange={(event) => props.onSort(event.currentTarget.value as ResultSort)}
      >
        {Object.entries(RESULT_SORTS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A result's row: its status, key, endpoint, readers and when it expires. */
function ResultLine({ row, now }: { row: ResultRow; now: number }) {
  return (
    <>
      <span class={`badge result-status result-${row.status.replace(/\W+/g, '-')}`}>
        {row.status}
      </span>
      {row.pollFrequency !== undefined && (
        <span class="badge result-live">{formatLive(row.pollFrequency)}</span>
      )}
      <span class="result-key mono">{row.key}</span>
      <span class="endpoint">{row.endpoint}</span>
      <span class="readers">{readersText(row.readers)}</span>
      <span class="time">{formatExpiresIn(row.expiresAt, now)}</span>
    </>
  );
}

const ACTIONS: { kind: ResultCommand['kind'] | 'invalidate'; label: string; title: string }[] = [
  { kind: 'refetch', label: 'Refetch', title: 'Fetch it again (undoes a forced state)' },
  { kind: 'invalidate', label: 'Invalidate', title: 'Readers suspend and fetch it again' },
  { kind: 'expire', label: 'Expire', title: 'Stale: shown, and fetched again when read' },
  {
    kind: 'force-loading',
    label: 'Force loading',
    title: 'Readers show their loading state (Suspense fallback) until a refetch',
  },
  {
    kind: 'force-error',
    label: 'Force error',
    title: 'Readers throw an error (error boundary) until a refetch',
  },
];

function ResultDetail({ store, row, now }: { store: StoreView; row: ResultRow; now: number }) {
  const connection = useConnection();
  const { clearCommandError } = usePanelActions();
  const connected = usePanel(isConnected);
  const optimistic = row.status === 'optimistic pending';
  return (
    <article class="result" aria-label={`Result ${row.key}`}>
      <h2 class="detail-title mono">{row.key}</h2>
      <p class="detail-sub">
        {[
          row.endpoint || 'endpoint unknown',
          row.status,
          formatLive(row.pollFrequency),
          readersText(row.readers),
        ]
          .filter((part) => part !== '')
          .join(' · ')}
      </p>
      <dl class="meta">
        <dt>Fetched</dt>
        <dd>{row.fetchedAt === undefined ? '—' : formatTime(row.fetchedAt)}</dd>
        <dt>Expires</dt>
        <dd>
          {row.expiresAt === undefined
            ? '—'
            : `${formatExpiresIn(row.expiresAt, now)} (${formatTime(row.expiresAt)})`}
        </dd>
      </dl>
      <fieldset class="result-actions">
        <legend class="visually-hidden">Actions on this result</legend>
        {ACTIONS.map(({ kind, label, title }) => (
          <button
            key={kind}
            type="button"
            title={title}
            // A past state (time travel) is read-only.
            disabled={!connected || optimistic || store.asOf !== undefined}
            onClick={() => {
              clearCommandError(store.id);
              connection.send({ kind, storeId: store.id, key: row.key });
              // What is forced changed: asked now, not at the next poll.
              connection.send({ kind: 'readers', storeId: store.id });
            }}
          >
            {label}
          </button>
        ))}
      </fieldset>
      {store.commandError && store.commandError.command !== 'edit' && (
        <p class="notice notice-error" role="alert">
          {store.commandError.error}
        </p>
      )}
      <ResultWhy store={store} resultKey={row.key} />
      {row.result !== undefined && (
        <section aria-label="Value">
          <h3>Value (normalized)</h3>
          <ResultValue value={row.result} label="value" />
        </section>
      )}
      {row.meta !== undefined && (
        <section aria-label="Meta">
          <h3>Meta</h3>
          <ValueTree value={row.meta} label="meta" />
        </section>
      )}
    </article>
  );
}
