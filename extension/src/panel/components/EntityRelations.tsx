import { useMemo } from 'preact/hooks';
import { useConnection, usePanelActions } from '../context.js';
import { entityHistory, lastInvalidation, referencesOf } from '../derive.js';
import {
  actionName,
  describeEffect,
  describePkOrigin,
  formatExpiry,
  formatRowKey,
} from '../format.js';
import type { StoreView } from '../model.js';
import { FieldDiff } from './EventDetail.js';
import { EntityReaders } from './ReadBy.js';

/** How an optimistic change in the history ended. */
const HISTORY_OUTCOMES = {
  applied: 'optimistic, pending',
  committed: 'optimistic, committed',
  'rolled-back': 'optimistic, rolled back: the server refused it',
} as const;

/** For an invalidated entity: how its pk was computed, and which results that affected. */
export function PkOrigin({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
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
export function References({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
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
export function History({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
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
