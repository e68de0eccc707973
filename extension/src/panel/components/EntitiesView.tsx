import { useEffect, useMemo, useState } from 'preact/hooks';
import type { StoreEvent } from '../../../../library/src/devtools/protocol/effects.js';
import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanel, usePanelActions, useRequestRows } from '../context.js';
import {
  entityHistory,
  entityTypes,
  lastEntityChange,
  lastInvalidation,
  optimisticOutcome,
  referencesOf,
} from '../derive.js';
import {
  describeEffect,
  describePkOrigin,
  entityLabel,
  formatExpiry,
  formatRowKey,
  formatTime,
  plainFields,
} from '../format.js';
import { isInvalidRow, pksComing, type Row, type StoreView, UNLOADED } from '../model.js';
import { PersistentMap } from '../tables.js';
import type { ViewProps } from '../views.js';
import { CopyJson } from './CopyJson.js';
import { FieldDiff } from './EventDetail.js';
import { FieldEditor } from './FieldEditor.js';
import { FilterInput } from './FilterInput.js';
import { ROW_HEIGHT } from './layout.js';
import { EntityReaders } from './ReadBy.js';
import { RowLabel } from './RowLabel.js';
import { SplitHandle } from './SplitHandle.js';
import { ValueTree } from './ValueTree.js';
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
  // The list is of pks, their rows read when shown: a type can hold 100k entities. A table keeps
  // its identity while it does not change, so its pks are listed again only when it did (a pk
  // or a row came).
  const rows = (type === undefined ? undefined : store.entities[type]) ?? NO_ROWS;
  const pks = useMemo(() => [...rows.keys()], [rows]);
  const { entities, loading } = store;
  const counts = useMemo(
    () => types.map((option) => (entities[option]?.size ?? 0) + pksComing({ loading }, option)),
    [types, entities, loading],
  );
  // Right after a snapshot, a large table's pks are still coming.
  const coming = type === undefined ? 0 : pksComing(store, type);
  const text = query.trim().toLowerCase();
  const filtering = text !== '';
  // A pk matches at once; a label only once its row has come.
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

  const lookUp = (event: Event) => {
    event.preventDefault();
    const pk = query.trim();
    if (!type || pk === '') return;
    if (store.entities[type]?.has(pk) !== true) {
      setMiss(
        coming > 0
          ? `No ${type} with pk "${pk}" among the ${pks.length} pks loaded so far (${coming} more are coming).`
          : `No ${type} with pk "${pk}" in the store.`,
      );
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
        <form class="toolbar lookup" aria-label="Look up an entity" onSubmit={lookUp}>
          <select
            aria-label="Entity type"
            value={type}
            onChange={(event) => {
              setBrowsedType(event.currentTarget.value);
              setMiss('');
            }}
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
            value={query}
            onChange={(text) => {
              setQuery(text);
              setMiss('');
            }}
          />
          <button type="submit">Show</button>
        </form>
        {miss && (
          <p class="notice notice-miss" role="status">
            {miss}
          </p>
        )}
        {coming > 0 && (
          <p class="notice is-loading" role="status">
            Loading {type} pks: {pks.length} of {pks.length + coming}…
          </p>
        )}
        {unloaded.length > 0 && (
          <p class="notice is-loading" role="status">
            Loading {unloaded.length} {type} rows to match their labels…
          </p>
        )}
        <VirtualList
          id="entity-pks"
          label={`${type} entities`}
          items={shown}
          rowHeight={ROW_HEIGHT}
          rowKey={(pk) => pk}
          rowAttributes={(pk) => ({ 'data-pk': pk })}
          selectedIndex={
            selected && selected.entity === type ? shown.indexOf(selected.pk) : undefined
          }
          onActivate={(pk) => type && selectEntity(type, pk)}
          rowTitle={(pk) => `${type} ${pk} ${entityLabel(rows.get(pk))}`.trim()}
          // A failed lookup has said it already, above the list.
          empty={miss ? '' : `No ${type} matches "${query}".`}
          onRangeChange={onRangeChange}
          renderRow={(pk) => (
            <>
              <span class="pk mono">{pk}</span>
              <RowLabel row={rows.get(pk)} />
              {isInvalidRow(rows.get(pk)) && <span class="badge badge-invalid">INVALID</span>}
            </>
          )}
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

function EntityDetail({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
  useRequestRows(
    store,
    type,
    useMemo(() => [pk], [pk]),
  );
  const row = store.entities[type]?.get(pk);
  const loaded = row === UNLOADED ? undefined : row;
  const invalid = isInvalidRow(row);
  // A deleted entity is still named and shown as it was: the delete carried its last fields.
  const deletion = invalid ? lastInvalidation(store.events, type, pk) : undefined;
  const label = invalid ? (deletion?.effect.label ?? '') : entityLabel(row);
  const fields = invalid ? undefined : plainFields(loaded);
  // A row that changed since it came keeps showing until its fresh version comes.
  const stale = store.stale[type]?.has(pk) === true;
  const last = lastEntityChange(store.events, type, pk);
  // The response that last wrote the entity sets its expiry (what entitiesMeta would hold).
  const written = last?.event.effects.find((effect) => effect.type === 'result-stored');

  return (
    <article class="entity" aria-label={`${type} ${pk}`}>
      <h2 class="detail-title">
        <span class="mono">
          {type} {pk}
        </span>
        {label && <span class="label"> {label}</span>}
        {invalid && <span class="badge badge-invalid">INVALID</span>}
        {row === undefined && <span class="badge">not in the store</span>}
      </h2>

      {(fields || row === UNLOADED) && (
        <section aria-label="Fields" aria-busy={stale || row === UNLOADED}>
          <h3>
            Fields {loaded !== undefined && <CopyJson value={loaded} label={`${type} ${pk}`} />}
          </h3>
          {store.commandError?.command === 'edit' && (
            <p class="notice notice-error" role="alert">
              {store.commandError.error}
            </p>
          )}
          {fields ? (
            <table class="fields">
              <tbody>
                {Object.entries(fields).map(([field, value]) => (
                  <FieldRow
                    key={field}
                    store={store}
                    entity={type}
                    pk={pk}
                    field={field}
                    value={value}
                  />
                ))}
              </tbody>
            </table>
          ) : (
            <p class="detail-sub is-loading">loading…</p>
          )}
        </section>
      )}

      <section aria-label="Meta">
        <h3>Meta</h3>
        <dl class="meta">
          <dt>State</dt>
          <dd>
            {invalid
              ? `${deletion ? `deleted by ${actionName(deletion.event)} #${deletion.event.seq}` : 'deleted'} (INVALID): readers suspend or drop it`
              : row === undefined
                ? 'absent (never stored, or the store was reset)'
                : 'valid'}
          </dd>
          {last && (
            <>
              <dt>Last change</dt>
              <dd>
                #{last.event.seq} {actionName(last.event)}: {last.change}
                {optimisticNote(optimisticOutcome(store.events, last.event))}
              </dd>
            </>
          )}
          {written?.type === 'result-stored' && !invalid && (
            <>
              <dt>Expiry</dt>
              <dd>
                {written.expiresAt <= Date.now()
                  ? 'expired'
                  : `expires ${formatTime(written.expiresAt)}`}{' '}
                ({written.endpoint}'s response, #{last?.event.seq})
              </dd>
            </>
          )}
        </dl>
      </section>

      {invalid && <DeletedFields type={type} pk={pk} last={deletion?.effect.last} />}
      <History store={store} type={type} pk={pk} />
      <PkOrigin store={store} type={type} pk={pk} />
      <References store={store} type={type} pk={pk} />
    </article>
  );
}

/** What an event ran, as the entity's meta and history name it: its endpoint, or its kind. */
const actionName = (event: StoreEvent) => event.action.endpoint ?? event.action.type;

/** A deleted entity's fields as the store held them just before the delete (read-only). */
function DeletedFields({ type, pk, last }: { type: string; pk: string; last?: Encoded }) {
  const fields = plainFields(last);
  return (
    <section aria-label="Deleted">
      <h3>
        Deleted: last known fields{' '}
        {last !== undefined && <CopyJson value={last} label={`${type} ${pk} before the delete`} />}
      </h3>
      {fields ? (
        <table class="fields">
          <tbody>
            {Object.entries(fields).map(([field, value]) => (
              <tr key={field}>
                <th scope="row" class="mono">
                  {field}
                </th>
                <td class="value">
                  <ValueTree value={value} label={field} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="detail-sub">
          Not known: the store held no fields for it when it was deleted, or the delete has left the
          timeline.
        </p>
      )}
    </section>
  );
}

/** How an optimistic change in the history ended. */
const HISTORY_OUTCOMES = {
  applied: 'optimistic, pending',
  committed: 'optimistic, committed',
  'rolled-back': 'optimistic, rolled back: the server refused it',
} as const;

const OPTIMISTIC_NOTES = {
  applied: ' (optimistic: shown before the server answered, not committed yet)',
  committed: ' (optimistic: committed by the server)',
  'rolled-back': ' (optimistic: rolled back, the server refused it)',
} as const;

function optimisticNote(outcome: keyof typeof OPTIMISTIC_NOTES | undefined): string {
  return outcome ? OPTIMISTIC_NOTES[outcome] : '';
}

/** For an invalidated entity: how its pk was computed, and which results that affected. */
function PkOrigin({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
  const origin = lastInvalidation(store.events, type, pk);
  if (!origin) return null;
  const { event } = origin;
  const suspends = event.effects.filter((effect) => effect.type === 'result-suspends');
  const lost = event.effects.filter((effect) => effect.type === 'result-lost-member');
  return (
    <section aria-label="How its pk was computed">
      <h3>How its pk was computed</h3>
      <p class="pk-origin mono">{describePkOrigin(origin.effect)}</p>
      <p class="detail-sub">
        by {event.action.endpoint ?? 'an Invalidate'} at #{event.seq}
      </p>
      {suspends.length > 0 && (
        <>
          <h4>Results that suspend and fetch again</h4>
          <ul class="plain">
            {suspends.map((effect) => (
              <li key={effect.key} class="mono">
                {describeEffect(effect)}
              </li>
            ))}
          </ul>
        </>
      )}
      {lost.length > 0 && (
        <>
          <h4>Results that only lost it</h4>
          <ul class="plain">
            {lost.map((effect) => (
              <li key={effect.key} class="mono">
                {describeEffect(effect)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** Every collection row and stored result that holds the entity. */
function References({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
  const { selectCollectionRow } = usePanelActions();
  const connection = useConnection();
  const references = useMemo(() => referencesOf(store, type, pk), [store, type, pk]);
  return (
    <section aria-label="Referenced by">
      <h3>Referenced by</h3>
      <h4>Collections</h4>
      {store.loading && Object.keys(store.loading.members).length > 0 && (
        <p class="notice is-loading" role="status">
          Collection members are still loading: more rows may hold it.
        </p>
      )}
      {references.collections.length === 0 ? (
        <p class="detail-sub">No collection holds it.</p>
      ) : (
        <ul class="plain">
          {references.collections.map(({ row, index }) => (
            <li key={row.id}>
              <button type="button" class="link" onClick={() => selectCollectionRow(row.id)}>
                <span class="mono">{row.collection}</span> {formatRowKey(row.row)}
              </button>{' '}
              position {index + 1} of {row.size}
            </li>
          ))}
        </ul>
      )}
      <EntityReaders store={store} type={type} pk={pk} />
      <h4>Endpoint results</h4>
      {references.results.length === 0 ? (
        <p class="detail-sub">No stored result points at it.</p>
      ) : (
        <ul class="plain">
          {references.results.map((result) => (
            <li key={result.key}>
              <span class="mono">{result.key}</span>
              {result.endpoint ? ` (${result.endpoint})` : ''} {formatExpiry(result.meta)}{' '}
              {store.asOf === undefined && (
                <button
                  type="button"
                  class="small"
                  aria-label={`Invalidate ${result.key}`}
                  onClick={() =>
                    connection.send({ kind: 'invalidate', storeId: store.id, key: result.key })
                  }
                >
                  Invalidate
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The events on the timeline that touched the entity, newest first, updates as diffs. */
function History({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
  const { inspectEvent, selectEntity } = usePanelActions();
  const history = useMemo(() => entityHistory(store.events, type, pk), [store.events, type, pk]);
  return (
    <section aria-label="Change history">
      <h3>Change history</h3>
      {history.length === 0 ? (
        <p class="detail-sub">No event on the timeline touched it.</p>
      ) : (
        <ul class="plain history">
          {history.map(({ event, change, name, update, optimistic }) => (
            <li key={`${event.seq} ${change}`}>
              <button
                type="button"
                class="link"
                onClick={() => inspectEvent(event.seq, { show: true })}
              >
                #{event.seq}
              </button>{' '}
              {actionName(event)}
              {update ? (
                <FieldDiff
                  entity={type}
                  update={update}
                  name={name}
                  onOpen={() => selectEntity(type, pk)}
                />
              ) : (
                `: ${change}`
              )}
              {optimistic && (
                <span class="detail-sub history-outcome">
                  {' · '}
                  {HISTORY_OUTCOMES[optimistic.outcome]}
                  {optimistic.settledBy && ` (#${optimistic.settledBy.seq})`}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One field of the entity: its value as a tree, and an editor for it on demand. */
function FieldRow(props: {
  store: StoreView;
  entity: string;
  pk: string;
  field: string;
  value: Encoded;
}) {
  const { field, value } = props;
  const [editing, setEditing] = useState(false);
  return (
    <tr>
      <th scope="row" class="mono">
        {field}
      </th>
      <td class="value">
        {editing ? (
          <FieldEditor {...props} onDone={() => setEditing(false)} />
        ) : (
          <ValueTree value={value} label={field} />
        )}
      </td>
      <td class="field-actions">
        {!editing && props.store.asOf === undefined && (
          <button
            type="button"
            class="small"
            aria-label={`Edit ${field}`}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
        )}
      </td>
    </tr>
  );
}
