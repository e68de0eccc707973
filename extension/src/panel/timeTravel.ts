import type { StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import {
  type Encoded,
  type ExtensionCommandBody,
  MAX_ROWS_PER_REQUEST,
  type ResultsMessage,
  type RowsMessage,
} from '../../../library/src/devtools/protocol/messages.js';
import { isObject } from '../shared/ports.js';
import { type Dict, dict, withEntry } from './dict.js';
import {
  actionValuesOf,
  collectionRowId,
  emptyStoreView,
  isCollectionKey,
  type LastChange,
  type Row,
  resultNamesUpTo,
  type StoreView,
} from './model.js';
import { PersistentMap } from './tables.js';

/**
 * Read-only time travel: the store as it was just after one event, read from the page's ring
 * (`rows` and `results` as of that seq). The panel does not know which rows existed then, so it
 * asks for every row and result it knows of now or that any event named; the page answers
 * `null` for those it did not hold then.
 */
export interface TimeTravel {
  storeId: string;
  /** The event whose state is shown. */
  seq: number;
  /** What was asked, by table (and `results`): answers for anything else are not taken. */
  asked: Dict<ReadonlySet<string>>;
  /** Answers still awaited. */
  pending: number;
  /** Set when the page said the state of `seq` has left its ring: nothing can be shown. */
  leftRing: boolean;
  /** The copy of the store at `seq`, filled in as the answers come. */
  view: StoreView;
}

/** The key under which `asked` keeps the result keys (a table name is never empty). */
const RESULTS = '';

function add(map: Map<string, Set<string>>, table: string, key: string) {
  let keys = map.get(table);
  if (!keys) {
    keys = new Set();
    map.set(table, keys);
  }
  keys.add(key);
}

/** Every row (by table) and result key the copy holds or any event on the timeline named. */
function knownKeys(view: StoreView): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const [table, rows] of Object.entries(view.entities))
    for (const pk of rows.keys()) add(keys, table, pk);
  for (const [collection, rows] of Object.entries(view.collections))
    for (const row of rows.keys()) add(keys, collection, row);
  for (const key of [...view.endpoints.keys(), ...view.meta.keys()]) add(keys, RESULTS, key);
  for (const event of view.events)
    for (const effect of event.effects)
      switch (effect.type) {
        case 'entities-added':
          for (const pk of effect.pks) add(keys, effect.entity, pk);
          break;
        case 'entities-updated':
          for (const { pk } of effect.updates) add(keys, effect.entity, pk);
          break;
        case 'entity-invalidated':
          add(keys, effect.entity, effect.pk);
          break;
        case 'collection-changed':
          add(keys, effect.collection, effect.row);
          break;
        case 'result-stored':
        case 'result-error':
        case 'result-invalidated':
        case 'result-expired':
          add(keys, RESULTS, effect.key);
          break;
        default:
          break;
      }
  return keys;
}

/** Splits a list into runs of at most `size`. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const runs: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    runs.push(items.slice(start, start + size));
  return runs;
}

/** The reads that show the store as of `seq`, and the time travel that waits for them. */
export function startTimeTravel(
  view: StoreView,
  seq: number,
): { travel: TimeTravel; commands: ExtensionCommandBody[] } {
  const keys = knownKeys(view);
  const commands: ExtensionCommandBody[] = [];
  for (const [table, pks] of keys)
    for (const run of chunks([...pks], MAX_ROWS_PER_REQUEST))
      commands.push(
        table === RESULTS
          ? { kind: 'results', storeId: view.id, keys: run, asOf: seq }
          : { kind: 'rows', storeId: view.id, table, pks: run, asOf: seq },
      );
  const events = view.events.filter((event) => event.seq <= seq);
  const past: StoreView = {
    ...emptyStoreView(view.id, view.name, view.libraryVersion),
    ready: true,
    lastSeq: seq,
    asOf: seq,
    events,
    actionValues: actionValuesOf(events),
    resultNames: resultNamesUpTo(view, seq, events),
  };
  past.lastChanges = lastChangesOf(past.events);
  return {
    travel: {
      storeId: view.id,
      seq,
      asked: dict([...keys].map(([table, pks]) => [table, pks])),
      pending: commands.length,
      leftRing: false,
      view: past,
    },
    commands,
  };
}

/** The latest change of each collection row among these events (see StoreView.lastChanges). */
function lastChangesOf(events: readonly StoreEvent[]): PersistentMap<LastChange> {
  return PersistentMap.empty<LastChange>().withMutations((changes) => {
    for (const event of events)
      for (const effect of event.effects)
        if (effect.type === 'collection-changed')
          changes.set(collectionRowId(effect.collection, effect.row), { seq: event.seq, effect });
  });
}

/** Whether an answer is one this time travel waits for. */
function answers(travel: TimeTravel, message: RowsMessage | ResultsMessage): boolean {
  return message.storeId === travel.storeId && message.asOf === travel.seq && travel.pending > 0;
}

/** Takes an answer to a `rows` read as of the travel's seq (rows asked for only). */
export function applyPastRows(travel: TimeTravel, message: RowsMessage): TimeTravel {
  if (!answers(travel, message)) return travel;
  const asked = travel.asked[message.table];
  // Rows the store did not hold then come as null; a table with none then is left out.
  const held = Object.entries(message.rows).filter(
    (entry): entry is [string, Encoded] => entry[1] !== null && asked?.has(entry[0]) === true,
  );
  let view = travel.view;
  if (held.length > 0 && isCollectionKey(message.table)) {
    const members = held.map(([row, list]): [string, string[]] => [
      row,
      Array.isArray(list) ? list.filter((pk) => typeof pk === 'string') : [],
    ]);
    const rows = withEntries(view.collections[message.table], members);
    view = { ...view, collections: withEntry(view.collections, message.table, rows) };
  } else if (held.length > 0) {
    const rows = withEntries<Row>(view.entities[message.table], held);
    view = { ...view, entities: withEntry(view.entities, message.table, rows) };
  }
  return answered(travel, view, message.leftRing === true);
}

/** Takes an answer to a `results` read as of the travel's seq (keys asked for only). */
export function applyPastResults(travel: TimeTravel, message: ResultsMessage): TimeTravel {
  if (!answers(travel, message)) return travel;
  const asked = travel.asked[RESULTS];
  const endpoints = travel.view.endpoints.draft();
  const meta = travel.view.meta.draft();
  for (const [key, stored] of Object.entries(message.results)) {
    if (stored === null || !asked?.has(key)) continue;
    endpoints.set(key, stored.result);
    if (isObject(stored.meta)) meta.set(key, stored.meta as Record<string, never>);
  }
  return answered(
    travel,
    { ...travel.view, endpoints: endpoints.finish(), meta: meta.finish() },
    message.leftRing === true,
  );
}

/** `table` (a new one when there is none) with `entries` set in it. */
function withEntries<V>(
  table: PersistentMap<V> | undefined,
  entries: readonly (readonly [string, V])[],
): PersistentMap<V> {
  return (table ?? PersistentMap.empty<V>()).withMutations((draft) => {
    for (const [key, value] of entries) draft.set(key, value);
  });
}

function answered(travel: TimeTravel, view: StoreView, leftRing: boolean): TimeTravel {
  return {
    ...travel,
    view,
    pending: travel.pending - 1,
    leftRing: travel.leftRing || leftRing,
  };
}
