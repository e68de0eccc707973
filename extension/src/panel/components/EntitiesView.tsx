import { useEffect, useMemo, useState } from 'preact/hooks';
import { usePanel, usePanelActions, useRequestRows } from '../context.js';
import { entityTypes } from '../derive.js';
import { entityLabel } from '../format.js';
import { isInvalidRow, pksComing, type Row, type StoreView, UNLOADED } from '../model.js';
import { PersistentMap } from '../tables.js';
import type { ViewProps } from '../views.js';
import { EntityDetail } from './EntityDetail.js';
import { FilterInput } from './FilterInput.js';
import { ROW_HEIGHT } from './layout.js';
import { RowLabel } from './RowLabel.js';
import { SplitHandle } from './SplitHandle.js';
import { useRowRange, VirtualList } from './VirtualList.js';

const NO_ROWS = PersistentMap.empty<Row>();
const NO_PKS: string[] = [];
/** Rows a label filter asks for at once. */
const ROWS_AT_ONCE = 4000;

/** The type → pk browser with its lookup box, and the selected entity. */
export function EntitiesView({ store }: ViewProps) {
  const selected = usePanel((state) => state.selectedEntity);
  const { selectEntity, clearSelectedEntity } = usePanelActions();
  const types = useMemo(() => entityTypes(store), [store]);
  const [browsedType, setBrowsedType] = useState(selected?.entity);
  const [query, setQuery] = useState('');
  const [miss, setMiss] = useState('');
  // Selecting an entity elsewhere (a collection member) browses its type.
  useEffect(() => {
    if (selected) setBrowsedType(selected.entity);
  }, [selected]);
  const type = browsedType !== undefined && types.includes(browsedType) ? browsedType : types[0];
  const { rows, pks, coming, shown, unloaded, onRangeChange } = useBrowsedPks(store, type, query);

  const lookUp = (event: Event) => {
    event.preventDefault();
    const pk = query.trim();
    if (!type || pk === '') return;
    if (store.entities[type]?.has(pk) !== true) {
      setMiss(lookupMiss(type, pk, pks.length, coming));
      // The entity shown before is not what was asked for: it is not left beside the answer.
      clearSelectedEntity();
      return;
    }
    setMiss('');
    selectEntity(type, pk);
  };

  if (types.length === 0) return <p class="notice">No entities in the store yet.</p>;

  return (
    <div class="split">
      <section class="pane pane-list" aria-label="Entity browser">
        <EntityLookup
          store={store}
          types={types}
          type={type}
          query={query}
          onType={(picked) => {
            setBrowsedType(picked);
            setMiss('');
          }}
          onQuery={(text) => {
            setQuery(text);
            setMiss('');
          }}
          onSubmit={lookUp}
        />
        <BrowserNotices
          type={type}
          miss={miss}
          loaded={pks.length}
          coming={coming}
          unloaded={unloaded.length}
        />
        <EntityPkList
          type={type}
          rows={rows}
          shown={shown}
          selectedPk={selected && selected.entity === type ? selected.pk : undefined}
          // A failed lookup has said it already, above the list.
          empty={miss ? '' : `No ${type} matches "${query}".`}
          onRangeChange={onRangeChange}
          onPick={(pk) => type && selectEntity(type, pk)}
        />
      </section>
      <SplitHandle />
      <section class="pane pane-detail" aria-label="Entity">
        {selected ? (
          <EntityDetail store={store} type={selected.entity} pk={selected.pk} />
        ) : (
          !miss && <p class="notice">Pick an entity, or look one up by type and pk.</p>
        )}
      </section>
    </div>
  );
}

/** What a lookup says when the type holds no entity with the pk (yet: `coming` pks are not here). */
function lookupMiss(type: string, pk: string, loaded: number, coming: number): string {
  return coming > 0
    ? `No ${type} with pk "${pk}" among the ${loaded} pks loaded so far (${coming} more are coming).`
    : `No ${type} with pk "${pk}" in the store.`;
}

/**
 * The browsed type's pks, and those the filter lets through (a pk matches at once, a label only
 * once its row has come), with the rows of those in view asked for. The list is of pks, their
 * rows read when shown: a type can hold 100k entities.
 */
function useBrowsedPks(store: StoreView, type: string | undefined, query: string) {
  // A table keeps its identity while it does not change, so its pks are listed again only when
  // it did (a pk or a row came).
  const rows = (type === undefined ? undefined : store.entities[type]) ?? NO_ROWS;
  const pks = useMemo(() => [...rows.keys()], [rows]);
  // Right after a snapshot, a large table's pks are still coming.
  const coming = type === undefined ? 0 : pksComing(store, type);
  const text = query.trim().toLowerCase();
  const filtering = text !== '';
  const shown = useMemo(
    () =>
      filtering
        ? pks.filter(
            (pk) =>
              pk.toLowerCase().includes(text) ||
              entityLabel(rows.get(pk)).toLowerCase().includes(text),
          )
        : pks,
    [pks, rows, text, filtering],
  );
  const [range, onRangeChange] = useRowRange();
  useRequestRows(
    store,
    type,
    useMemo(() => shown.slice(range.first, range.last + 1), [shown, range]),
  );
  // Filtering by label needs every row of the type: those not here yet are asked for, a few
  // thousand at a time (the next ones once they came), so that the panel takes them in pieces
  // and stays responsive.
  const unloaded = useMemo(
    () => (filtering ? pks.filter((pk) => rows.get(pk) === UNLOADED) : NO_PKS),
    [pks, rows, filtering],
  );
  useRequestRows(
    store,
    type,
    useMemo(() => unloaded.slice(0, ROWS_AT_ONCE), [unloaded]),
  );
  return { rows, pks, coming, shown, unloaded, onRangeChange };
}

/** The type to browse (with how many entities each holds), and a pk to filter by or look up. */
function EntityLookup(props: {
  store: StoreView;
  types: string[];
  type: string | undefined;
  query: string;
  onType(type: string): void;
  onQuery(text: string): void;
  onSubmit(event: Event): void;
}) {
  const { types } = props;
  const { entities, loading } = props.store;
  const counts = useMemo(
    () => types.map((option) => (entities[option]?.size ?? 0) + pksComing({ loading }, option)),
    [types, entities, loading],
  );
  return (
    <form class="toolbar lookup" aria-label="Look up an entity" onSubmit={props.onSubmit}>
      <select
        aria-label="Entity type"
        value={props.type}
        onChange={(event) => props.onType(event.currentTarget.value)}
      >
        {types.map((option, index) => (
          <option key={option} value={option}>
            {option} ({counts[index]})
          </option>
        ))}
      </select>
      <FilterInput
        label="pk"
        placeholder="pk"
        listId="entity-pks"
        value={props.query}
        onChange={props.onQuery}
      />
      <button type="submit">Show</button>
    </form>
  );
}

/** Above the pks: a lookup that found nothing, and the pks and rows still coming. */
function BrowserNotices(props: {
  type: string | undefined;
  miss: string;
  /** Pks here so far. */
  loaded: number;
  /** Pks still coming after a snapshot. */
  coming: number;
  /** Rows a label filter still waits for. */
  unloaded: number;
}) {
  const { type, coming, unloaded } = props;
  return (
    <>
      {props.miss && (
        <p class="notice notice-miss" role="status">
          {props.miss}
        </p>
      )}
      {coming > 0 && (
        <p class="notice is-loading" role="status">
          Loading {type} pks: {props.loaded} of {props.loaded + coming}…
        </p>
      )}
      {unloaded > 0 && (
        <p class="notice is-loading" role="status">
          Loading {unloaded} {type} rows to match their labels…
        </p>
      )}
    </>
  );
}

/** The pks shown, each with its label. */
function EntityPkList(props: {
  type: string | undefined;
  rows: PersistentMap<Row>;
  shown: string[];
  selectedPk: string | undefined;
  empty: string;
  onRangeChange(first: number, last: number): void;
  onPick(pk: string): void;
}) {
  const { type, rows, shown, selectedPk } = props;
  return (
    <VirtualList
      id="entity-pks"
      label={`${type} entities`}
      items={shown}
      rowHeight={ROW_HEIGHT}
      rowKey={(pk) => pk}
      rowAttributes={(pk) => ({ 'data-pk': pk })}
      selectedIndex={selectedPk === undefined ? undefined : shown.indexOf(selectedPk)}
      onActivate={props.onPick}
      rowTitle={(pk) => `${type} ${pk} ${entityLabel(rows.get(pk))}`.trim()}
      empty={props.empty}
      onRangeChange={props.onRangeChange}
      renderRow={(pk) => <PkLine pk={pk} row={rows.get(pk)} />}
    />
  );
}

function PkLine({ pk, row }: { pk: string; row: Row | undefined }) {
  return (
    <>
      <span class="pk mono">{pk}</span>
      <RowLabel row={row} />
      {isInvalidRow(row) && <span class="badge badge-invalid">INVALID</span>}
    </>
  );
}
