import { useMemo, useState } from 'preact/hooks';
import { usePanel, usePanelActions, useRequestRows } from '../context.js';
import { type CollectionRow, collectionRows, eventBySeq, latestChangedRow } from '../derive.js';
import {
  describeCollectionChange,
  entityLabel,
  eventNamer,
  formatRowKey,
  insertedMark,
  insertedPks,
  nameWithoutLabel,
  removedReason,
} from '../format.js';
import { isInvalidRow, type LastChange, type Row, type StoreView } from '../model.js';
import { PersistentMap } from '../tables.js';
import type { ViewProps } from '../views.js';
import { FilterInput } from './FilterInput.js';
import { ROW_HEIGHT } from './layout.js';
import { RowLabel } from './RowLabel.js';
import { SplitHandle } from './SplitHandle.js';
import { useRowRange, VirtualList } from './VirtualList.js';

const NO_ROWS = PersistentMap.empty<Row>();

/** Every collection row with its arguments; the selected row's members in order. */
export function CollectionsView({ store }: ViewProps) {
  const selectedId = usePanel((state) => state.selectedCollectionRow);
  const { selectCollectionRow } = usePanelActions();
  const [filter, setFilter] = useState('');
  const rows = useMemo(() => collectionRows(store), [store]);
  const latest = latestChangedRow(rows);
  const text = filter.trim().toLowerCase();
  const shown = text
    ? rows.filter((row) =>
        `${row.collection} ${formatRowKey(row.row)} ${row.row}`.toLowerCase().includes(text),
      )
    : rows;
  // Until the user picks a row, the one that changed last is the one worth looking at.
  const selected = rows.find((row) => row.id === selectedId) ?? latest ?? rows[0];

  if (rows.length === 0)
    return <p class="notice">No collections yet: lists fetched through a Collection show here.</p>;

  return (
    <div class="split">
      <section class="pane pane-list" aria-label="Collection rows">
        <div class="toolbar">
          <FilterInput
            label="Filter collections"
            placeholder="Filter collections"
            listId="collection-rows"
            value={filter}
            onChange={setFilter}
          />
        </div>
        <VirtualList
          id="collection-rows"
          label="Collection rows"
          items={shown}
          rowHeight={ROW_HEIGHT}
          rowKey={(row) => row.id}
          selectedIndex={selected ? shown.indexOf(selected) : undefined}
          onActivate={(row) => selectCollectionRow(row.id)}
          rowClass={(row) => (row === latest ? 'is-latest' : undefined)}
          rowTitle={(row) => `${row.collection} ${formatRowKey(row.row)}: ${row.size} members`}
          empty="No collection row matches the filter."
          renderRow={(row) => (
            <>
              <span class="mono">{row.collection}</span>
              <span class="args">{formatRowKey(row.row)}</span>
              <span class="count">{row.size}</span>
              {row === latest && <span class="badge badge-latest">latest change</span>}
            </>
          )}
        />
      </section>
      <SplitHandle />
      <section class="pane pane-detail" aria-label="Collection row">
        {selected && <RowDetail key={selected.id} row={selected} store={store} />}
      </section>
    </div>
  );
}

/** The selected row: its latest change, and its members in order (those it inserted marked). */
function RowDetail({ row, store }: { row: CollectionRow; store: StoreView }) {
  const { selectEntity } = usePanelActions();
  const change = row.lastChange;
  // A rolled-back change inserted nothing that is still there.
  const mark =
    change && change.rolledBackAt === undefined ? insertedMark(change.effect.kind) : undefined;
  const marked = new Set(change && mark ? insertedPks(change.effect) : []);
  const entities = store.entities[row.entityType] ?? NO_ROWS;
  const label = (pk: string) => entityLabel(entities.get(pk));
  const onRangeChange = useMemberRows(store, row);
  const openMember = (pk: string) => selectEntity(row.entityType, pk);

  return (
    <div class="row-detail">
      <h2 class="detail-title">
        <span class="mono">{row.collection}</span> {formatRowKey(row.row)}
      </h2>
      <p class="detail-sub">
        {row.size} members · row key <code>{row.row}</code>
      </p>
      {row.members.length < row.size && (
        <p class="notice is-loading" role="status">
          Loading members: {row.members.length} of {row.size}…
        </p>
      )}
      {change && (
        <LatestChange store={store} row={row} change={change} label={label} onPick={openMember} />
      )}
      <div class="list-header" aria-hidden="true">
        <span class="index">#</span>
        <span class="pk">pk</span>
        <span class="label">label</span>
      </div>
      <VirtualList
        id="collection-members"
        label={`Members of ${row.collection} ${formatRowKey(row.row)}`}
        items={row.members}
        rowHeight={ROW_HEIGHT}
        revealIndex={firstIndexOf(row.members, marked)}
        rowKey={(pk) => pk}
        rowAttributes={(pk) => ({ 'data-pk': pk })}
        onActivate={openMember}
        rowClass={(pk) => (marked.has(pk) ? `is-changed mark-${mark}` : undefined)}
        rowTitle={(pk, index) => `${index + 1}. ${pk} ${label(pk)}`.trim()}
        empty="This row is empty."
        onRangeChange={onRangeChange}
        renderRow={(pk, index) => (
          <MemberLine
            pk={pk}
            index={index}
            row={entities.get(pk)}
            mark={marked.has(pk) ? mark : undefined}
          />
        )}
      />
    </div>
  );
}

/** The first member in `pks`, by index; undefined when none is. */
function firstIndexOf(members: readonly string[], pks: ReadonlySet<string>): number | undefined {
  const index = members.findIndex((pk) => pks.has(pk));
  return index >= 0 ? index : undefined;
}

/**
 * Asks for the rows of a collection row's members in view, and of the pks its change names (for
 * their labels). Returns the members list's `onRangeChange`.
 */
function useMemberRows(store: StoreView, row: CollectionRow) {
  const change = row.lastChange;
  const [range, onRangeChange] = useRowRange();
  useRequestRows(
    store,
    row.entityType,
    useMemo(() => row.members.slice(range.first, range.last + 1), [row.members, range]),
  );
  useRequestRows(
    store,
    row.entityType,
    useMemo(
      () => (change ? [...change.effect.duplicates, ...change.effect.removed] : []),
      [change],
    ),
  );
  return onRangeChange;
}

/** The row's latest change: what it did, its rollback, and the pks it skipped or removed. */
function LatestChange(props: {
  store: StoreView;
  row: CollectionRow;
  change: LastChange;
  /** A member's label. */
  label(pk: string): string;
  onPick(pk: string): void;
}) {
  const { store, row, change } = props;
  const { effect } = change;
  const changedBy = eventBySeq(store.events, change.seq);
  const endpoint = changedBy?.action.endpoint;
  const name = changedBy
    ? eventNamer(changedBy, (type, pk) => entityLabel(store.entities[type]?.get(pk)))
    : nameWithoutLabel;
  return (
    <div class={`change change-${effect.kind}`} role="note" aria-label="Latest change">
      <p>
        Latest change #{change.seq}
        {endpoint ? ` (${endpoint})` : ''}: {describeCollectionChange(effect, name)}
      </p>
      {change.rolledBackAt !== undefined && (
        <p class="rolled-back">
          Rolled back at #{change.rolledBackAt}: the server refused it, so{' '}
          {insertedPks(effect)
            .map((pk) => name(row.entityType, pk))
            .join(', ')}{' '}
          left again ({effect.lengthAfter} → {effect.lengthBefore}).
        </p>
      )}
      {effect.duplicates.length > 0 && (
        <PkChips
          title="Skipped as duplicates"
          pks={effect.duplicates}
          label={props.label}
          onPick={props.onPick}
        />
      )}
      {effect.removed.length > 0 && (
        <PkChips
          title={removedReason(effect.kind)}
          pks={effect.removed}
          label={props.label}
          onPick={props.onPick}
        />
      )}
    </div>
  );
}

/** A member's row: its position, pk and label, and whether the change inserted it. */
function MemberLine(props: { pk: string; index: number; row: Row | undefined; mark?: string }) {
  const { pk, index, row, mark } = props;
  return (
    <>
      <span class="index" title={`position ${index + 1}`}>
        {index + 1}
      </span>
      <span class="pk mono">{pk}</span>
      <RowLabel row={row} />
      {mark && <span class={`badge badge-${mark}`}>{mark}</span>}
      {isInvalidRow(row) && <span class="badge badge-invalid">INVALID</span>}
    </>
  );
}

/** A few pks named by a change, each a button that opens the entity. */
function PkChips(props: {
  title: string;
  pks: readonly string[];
  label(pk: string): string;
  onPick(pk: string): void;
}) {
  return (
    <p class="chips">
      <span class="chips-title">{props.title}:</span>
      {props.pks.map((pk) => (
        <button key={pk} type="button" class="chip" onClick={() => props.onPick(pk)}>
          <span class="mono">{pk}</span>
          {props.label(pk) ? ` ${props.label(pk)}` : ''}
        </button>
      ))}
    </p>
  );
}
