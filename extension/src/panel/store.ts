import { createStore, type StateCreator } from 'zustand/vanilla';
import type { StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import type {
  CommandErrorMessage,
  HelloMessage,
  ReadersMessage,
  ResultsMessage,
  RowsMessage,
  SearchMessage,
  SnapshotMessage,
} from '../../../library/src/devtools/protocol/messages.js';
import { copyDict, type Dict, dict, withEntry } from './dict.js';
import {
  applyEvents,
  applyListParts,
  applyReaders,
  applyRows,
  applySnapshotChunk,
  type EventBatch,
  emptyStoreView,
  type ListPart,
  type StoreView,
} from './model.js';
import { stopRun } from './recorder/replay.js';
import {
  createRecorderActions,
  emptyRecorder,
  observeEvents,
  type RecorderActions,
  type RecorderState,
} from './recorder/slice.js';
import { applyPastResults, applyPastRows, type TimeTravel } from './timeTravel.js';

type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';
export type PanelView = 'collections' | 'entities' | 'search' | 'results' | 'timeline' | 'recorder';
/** How a view's list and detail are laid out: side by side, or stacked (docked at the side). */
export type PaneLayout = 'wide' | 'narrow';
/** One view in one layout: its list's share of the room is the user's, kept across views. */
export type SplitKey = `${PanelView} ${PaneLayout}`;

export interface PanelState {
  /** The panel's link to the page, through the background. */
  connection: ConnectionStatus;
  /** Whether the page's content script is talking (it starts once a store says hello). */
  pageConnected: boolean;
  /** The inspected page's address, when DevTools tells it (not in a panel opened as a tab). */
  pageUrl?: string;
  /** This page load; a new one means the page was reloaded. */
  pageId?: string;
  /** How many reloads this panel has seen: each starts a fresh history. */
  reloads: number;
  /** By store id (a Dict: a page names its stores). */
  stores: Dict<StoreView>;
  storeOrder: string[];
  selectedStoreId?: string;
  view: PanelView;
  /** Entities view: the selected entity. */
  selectedEntity?: { entity: string; pk: string };
  /** Collections view: the selected row, as `collection + ' ' + row` (the latest change when unset). */
  selectedCollectionRow?: string;
  /** Read-only time travel: the store shown as of a past event, while set. */
  timeTravel?: TimeTravel;
  /** Timeline: the event shown in full beside the list (by seq). */
  inspectedEvent?: number;
  /** Timeline filters. */
  timelineFilter: { text: string; kind: string; endpoint: string };
  /** Recorder: the recorded mutations and the replay in progress. */
  recorder: RecorderState;
  /** The list's share (0 to 1) of a view split into list and detail, where the user moved it. */
  splitShares: Partial<Record<SplitKey, number>>;
}

/** The panel's link to the page: its port, the page's content script, the page's address. */
interface ConnectionActions {
  setConnection(status: ConnectionStatus): void;
  /** The page's content script connected; returns whether this is a new page load. */
  contentConnected(pageId: string): boolean;
  contentDisconnected(): void;
  /** DevTools says the inspected page is now at `url`. */
  pageNavigated(url: string): void;
}

/** What the page's stores send, each taken into the panel's view of its store. */
interface PageMessageActions {
  hello(message: HelloMessage): void;
  /** Adds a snapshot chunk; returns the seq to ask a resync from, if one must be asked. */
  snapshot(message: SnapshotMessage): number | undefined;
  /**
   * Applies events; returns the seq the page must be asked to resync from, when some were
   * missing (once per gap: events still in flight would otherwise each ask again).
   */
  events(batch: EventBatch): number | undefined;
  /**
   * Takes parts of the lists a store's snapshot counted, in the order they came; returns the
   * seq to ask a resync from, if one must be asked (a part that was not expected).
   */
  listParts(storeId: string, parts: readonly ListPart[]): number | undefined;
  /** Takes rows the page answered with (for a store the panel knows). */
  rows(message: RowsMessage): void;
  /** Takes the page's count of each result's readers (for a store the panel knows). */
  readers(message: ReadersMessage): void;
  /** Takes the page's answer to a search of its entities' values (for a store the panel knows). */
  search(message: SearchMessage): void;
  /** The page could not run a command: its reason is shown (for a store the panel knows). */
  commandError(message: CommandErrorMessage): void;
  /** The command error was read (or another command was sent). */
  clearCommandError(storeId: string): void;
}

/** What the user picks: the store, the view, what each view shows, how the panes are split. */
interface SelectionActions {
  selectStore(storeId: string): void;
  setView(view: PanelView): void;
  selectEntity(entity: string, pk: string): void;
  /** The Entities view shows no entity (a lookup found nothing). */
  clearSelectedEntity(): void;
  /** Shows one collection row in the Collections view. */
  selectCollectionRow(rowId: string): void;
  setTimelineFilter(filter: Partial<PanelState['timelineFilter']>): void;
  setSplitShare(key: SplitKey, share: number): void;
  /** Shows one event in full in the Timeline view. */
  inspectEvent(seq: number, options?: { show?: boolean }): void;
}

/** Read-only time travel: a past state of the selected store. */
interface TimeTravelActions {
  /** Starts showing a past state (its reads are sent by the caller), or goes back to live. */
  setTimeTravel(travel: TimeTravel | undefined): void;
  /** Takes the page's answers to the time travel's reads. */
  pastRows(message: RowsMessage): void;
  pastResults(message: ResultsMessage): void;
}

export type PanelActions = RecorderActions &
  ConnectionActions &
  PageMessageActions &
  SelectionActions &
  TimeTravelActions;

export type PanelStore = ReturnType<typeof createPanelStore>;

/** Whether commands can reach the page: the panel's port is up and the page has a store. */
export const isConnected = (state: Pick<PanelState, 'connection' | 'pageConnected'>): boolean =>
  state.connection === 'connected' && state.pageConnected;

/**
 * Stores that said hello and have not sent their state yet. Any script of the page can say
 * hello with any store id; past this many, the oldest of them (not the selected one) is dropped.
 */
export const MAX_PENDING_STORES = 16;
/** Stores the panel follows at once; a store past them is not followed. */
const MAX_STORES = 64;

/** The stores, with room made for one more (undefined when there is none). */
function withRoomFor(
  state: Pick<PanelState, 'stores' | 'storeOrder' | 'selectedStoreId'>,
  arriving: StoreView,
): Pick<PanelState, 'stores' | 'storeOrder'> | undefined {
  let { stores, storeOrder } = state;
  const pending = arriving.ready ? [] : storeOrder.filter((id) => !stores[id]?.ready);
  const oldest =
    pending.length >= MAX_PENDING_STORES
      ? pending.find((id) => id !== state.selectedStoreId)
      : undefined;
  if (oldest !== undefined) {
    stores = copyDict(stores);
    delete stores[oldest];
    storeOrder = storeOrder.filter((id) => id !== oldest);
  }
  return storeOrder.length < MAX_STORES ? { stores, storeOrder } : undefined;
}

/**
 * The store to show after `updated` changed: the one shown, unless it has not sent its state
 * and `updated` has (a script of the page may say hello first, with an id no store has).
 */
function selection(state: PanelState, updated: StoreView): string {
  const shown =
    state.selectedStoreId === undefined ? undefined : state.stores[state.selectedStoreId];
  return shown && (shown.ready || !updated.ready) ? shown.id : updated.id;
}

/** One part of the panel store's actions (zustand's slices pattern). */
type PanelSlice<Actions> = StateCreator<PanelState & PanelActions, [], [], Actions>;

function initialState(): PanelState {
  return {
    connection: 'connecting',
    pageConnected: false,
    reloads: 0,
    stores: dict(),
    storeOrder: [],
    view: 'collections',
    timelineFilter: { text: '', kind: '', endpoint: '' },
    recorder: emptyRecorder(),
    splitShares: {},
  };
}

/** The panel's one store: what the connection learned, and what the user selected. */
export function createPanelStore() {
  return createStore<PanelState & PanelActions>()((set, get, api) => ({
    ...initialState(),
    ...createRecorderActions(set, get),
    ...connectionActions(set, get, api),
    ...pageMessageActions(set, get, api),
    ...selectionActions(set, get, api),
    ...timeTravelActions(set, get, api),
  }));
}

const connectionActions: PanelSlice<ConnectionActions> = (set, get) => ({
  setConnection: (connection) => set({ connection }),
  contentConnected(pageId) {
    const previous = get().pageId;
    const reloaded = previous !== undefined && previous !== pageId;
    set((state) =>
      reloaded
        ? {
            pageId,
            pageConnected: true,
            reloads: state.reloads + 1,
            stores: dict(),
            storeOrder: [],
            selectedStoreId: undefined,
            selectedEntity: undefined,
            selectedCollectionRow: undefined,
            timeTravel: undefined,
            // Its results would come from a page that is gone.
            recorder: state.recorder.replay
              ? {
                  ...state.recorder,
                  replay: stopRun(state.recorder.replay, 'the page was reloaded'),
                }
              : state.recorder,
          }
        : { pageId, pageConnected: true },
    );
    return reloaded || previous === undefined;
  },
  contentDisconnected: () => set({ pageConnected: false }),
  pageNavigated: (pageUrl) => set({ pageUrl }),
});

const pageMessageActions: PanelSlice<PageMessageActions> = (set, get) => {
  const updateStore = (storeId: string, update: (view: StoreView) => StoreView) =>
    set((state) => {
      const known = state.stores[storeId];
      const next = update(known ?? emptyStoreView(storeId));
      // Nothing changed: no new state, so no view renders again.
      if (next === known) return state;
      const room = known ? state : withRoomFor(state, next);
      if (!room) return state;
      return {
        stores: withEntry(room.stores, storeId, next),
        storeOrder: known ? state.storeOrder : [...room.storeOrder, storeId],
        selectedStoreId: selection(state, next),
      };
    });
  // Answers to what the panel asked: a store it does not know (any more) is not made for them.
  const updateKnownStore = (storeId: string, update: (view: StoreView) => StoreView) => {
    if (get().stores[storeId]) updateStore(storeId, update);
  };
  /** Applies `apply` to the store, and returns the seq to resync from if it newly asks one. */
  const updateAskingResync = (
    storeId: string,
    apply: (view: StoreView) => StoreView,
  ): number | undefined => {
    let resyncAfter: number | undefined;
    updateStore(storeId, (view) => {
      const next = apply(view);
      if (next.resyncAfter !== undefined && next.resyncAfter !== view.resyncAfter)
        resyncAfter = next.resyncAfter;
      return next;
    });
    return resyncAfter;
  };

  return {
    hello: (message) =>
      updateStore(message.storeId, (view) => ({
        ...view,
        name: message.storeName,
        libraryVersion: message.libraryVersion,
      })),
    snapshot: (message) =>
      updateAskingResync(message.storeId, (view) => applySnapshotChunk(view, message)),
    events(batch) {
      let resyncAfter: number | undefined;
      let applied: StoreEvent[] = [];
      updateStore(batch.storeId, (view) => {
        const result = applyEvents(view, batch);
        applied = result.applied;
        if (result.gapAfter !== undefined && result.gapAfter !== view.resyncAfter)
          resyncAfter = result.gapAfter;
        // Answered once events apply again; history or copies answer nothing.
        const waiting = result.applied.length > 0 ? undefined : view.resyncAfter;
        return { ...result.view, resyncAfter: result.gapAfter ?? waiting };
      });
      if (applied.length > 0)
        set((state) => ({
          recorder: observeEvents(state.recorder, state.selectedStoreId === batch.storeId, applied),
        }));
      return resyncAfter;
    },
    listParts: (storeId, parts) =>
      get().stores[storeId]
        ? updateAskingResync(storeId, (view) => applyListParts(view, parts))
        : undefined,
    rows: (message) => updateKnownStore(message.storeId, (view) => applyRows(view, message)),
    readers: (message) => updateKnownStore(message.storeId, (view) => applyReaders(view, message)),
    search: ({ storeId, text, matches, more }) =>
      updateKnownStore(storeId, (view) => ({ ...view, search: { text, matches, more } })),
    commandError: ({ storeId, command, error }) =>
      updateKnownStore(storeId, (view) => ({ ...view, commandError: { command, error } })),
    clearCommandError(storeId) {
      if (get().stores[storeId]?.commandError)
        updateStore(storeId, (view) => ({ ...view, commandError: undefined }));
    },
  };
};

const selectionActions: PanelSlice<SelectionActions> = (set) => ({
  selectStore: (selectedStoreId) =>
    set({
      selectedStoreId,
      selectedEntity: undefined,
      selectedCollectionRow: undefined,
      timeTravel: undefined,
    }),
  setView: (view) => set({ view }),
  setSplitShare: (key, share) =>
    set((state) => ({ splitShares: { ...state.splitShares, [key]: share } })),
  selectEntity: (entity, pk) => set({ selectedEntity: { entity, pk }, view: 'entities' }),
  clearSelectedEntity: () => set({ selectedEntity: undefined }),
  selectCollectionRow: (selectedCollectionRow) =>
    set({ selectedCollectionRow, view: 'collections' }),
  inspectEvent: (inspectedEvent, options) =>
    set(options?.show ? { inspectedEvent, view: 'timeline' } : { inspectedEvent }),
  setTimelineFilter: (filter) =>
    set((state) => ({ timelineFilter: { ...state.timelineFilter, ...filter } })),
});

const timeTravelActions: PanelSlice<TimeTravelActions> = (set) => ({
  setTimeTravel: (timeTravel) => set({ timeTravel }),
  pastRows: (message) =>
    set((state) =>
      state.timeTravel ? { timeTravel: applyPastRows(state.timeTravel, message) } : state,
    ),
  pastResults: (message) =>
    set((state) =>
      state.timeTravel ? { timeTravel: applyPastResults(state.timeTravel, message) } : state,
    ),
});
