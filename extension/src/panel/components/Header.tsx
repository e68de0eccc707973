import { usePanel, usePanelActions } from '../context.js';
import type { StoreView } from '../model.js';
import type { PanelState } from '../store.js';

/** The connection in words, and a tone for its dot. */
export function connectionStatus(
  state: Pick<PanelState, 'connection' | 'pageConnected' | 'storeOrder'>,
): { text: string; tone: 'ok' | 'wait' | 'down' } {
  if (state.connection === 'connecting') return { text: 'Connecting…', tone: 'wait' };
  if (state.connection === 'disconnected')
    return { text: 'Disconnected, reconnecting…', tone: 'down' };
  if (state.pageConnected) return { text: 'Connected', tone: 'ok' };
  return state.storeOrder.length > 0
    ? { text: 'Page changed, no store', tone: 'down' }
    : { text: 'Connected, waiting for the page', tone: 'wait' };
}

/** A store's name in the selector; the id is added when two stores share a name. */
function storeLabel(store: StoreView | undefined, id: string, all: readonly StoreView[]): string {
  const name = store?.name || id;
  const shared = all.filter((other) => (other.name || other.id) === name).length > 1;
  return shared ? `${name} (${id})` : name;
}

/** The top bar: connection status, store selector, reload marker. */
export function Header() {
  const status = usePanel(connectionStatus);
  const reloads = usePanel((state) => state.reloads);
  const storeOrder = usePanel((state) => state.storeOrder);
  const stores = usePanel((state) => state.stores);
  const selectedStoreId = usePanel((state) => state.selectedStoreId);
  const { selectStore } = usePanelActions();
  const selected = selectedStoreId === undefined ? undefined : stores[selectedStoreId];
  // Stores that sent their state: any script of the page can say hello with a made-up id.
  const listed = storeOrder.filter((id) => stores[id]?.ready || id === selectedStoreId);
  const all = listed.map((id) => stores[id]).filter((store) => store !== undefined);

  return (
    <header class="header">
      <h1 class="brand">RestLens</h1>
      <span class={`status status-${status.tone}`} role="status">
        {status.text}
      </span>
      {listed.length > 1 ? (
        <label class="store-select">
          Store{' '}
          <select
            value={selectedStoreId}
            onChange={(event) => selectStore(event.currentTarget.value)}
          >
            {listed.map((id) => (
              <option key={id} value={id}>
                {storeLabel(stores[id], id, all)}
              </option>
            ))}
          </select>
        </label>
      ) : selected ? (
        <span class="store-name">{selected.name || selected.id}</span>
      ) : null}
      {reloads > 0 && (
        <span
          class="badge badge-reload"
          title="The page was reloaded: its history starts again from the new load."
        >
          Page reloaded {reloads}×
        </span>
      )}
      <span class="spacer" />
      {selected && (
        <span class="header-meta">
          seq {selected.lastSeq}
          {selected.libraryVersion ? ` · library ${selected.libraryVersion}` : ''}
        </span>
      )}
    </header>
  );
}
