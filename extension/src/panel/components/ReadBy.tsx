import { useEffect } from 'preact/hooks';
import { useConnection } from '../context.js';
import type { StoreView } from '../model.js';
import { fetchHistory, readerList } from '../why.js';

/** Who reads a stored result now, by component, and why it was fetched each time. */
export function ResultWhy({ store, resultKey }: { store: StoreView; resultKey: string }) {
  const names = store.readerNames[resultKey] ?? [];
  const history = fetchHistory(store.events, resultKey);
  return (
    <section aria-label="Readers and fetches">
      <h3>Read by</h3>
      <p class="detail-sub">
        {names.length === 0 ? 'No mounted component reads it.' : readerList(names)}
      </p>
      {history && <p class="detail-sub fetch-history">{history}</p>}
    </section>
  );
}

/** The mounted components whose data shows an entity, asked of the page when it is selected. */
export function EntityReaders({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
  const connection = useConnection();
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again after each change (lastSeq), as components mount and unmount with the app's changes
  useEffect(() => {
    connection.send({ kind: 'readers', storeId: store.id, row: { table: type, pk } });
  }, [connection, store.id, store.lastSeq, type, pk]);
  const { rowReaders } = store;
  const known = rowReaders?.table === type && rowReaders.pk === pk ? rowReaders.names : undefined;
  return (
    <>
      <h4>Components</h4>
      <p class="detail-sub components-showing-it">
        {known === undefined
          ? 'asking the page…'
          : known.length === 0
            ? 'No mounted component shows it.'
            : readerList(known)}
      </p>
    </>
  );
}
