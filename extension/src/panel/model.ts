import type {
  Effect,
  Encoded,
  EventsMessage,
  SnapshotMessage,
  SnapshotState,
  StoreEvent,
} from '../../../library/src/devtools/protocol.js';

/** The panel's copy of one page store, kept current from a snapshot plus event effects. */
export interface StoreView {
  id: string;
  name: string;
  libraryVersion: string;
  /** The last event applied to the copy (or the seq of the snapshot it came from). */
  lastSeq: number;
  /** Whether a snapshot has arrived: until then the copy is empty. */
  ready: boolean;
  /** Snapshot chunks being put together. */
  pendingSnapshot?: { seq: number; count: number; parts: (string | undefined)[] };
  entities: Record<string, Record<string, Encoded>>;
  endpoints: Record<string, Encoded>;
  meta: Record<string, Record<string, Encoded>>;
  optimistic: SnapshotState['optimistic'];
  /** The timeline, oldest first, bounded. */
  events: StoreEvent[];
  /** The latest change of each collection row, by `collection + ' ' + row`. */
  lastChanges: Record<
    string,
    { seq: number; effect: Extract<Effect, { type: 'collection-changed' }> }
  >;
  /** How each invalidated entity's pk was computed, by `entity + ' ' + pk`. */
  pkOrigins: Record<
    string,
    {
      seq: number;
      endpoint?: string;
      response?: Encoded;
      effect: Extract<Effect, { type: 'entity-invalidated' }>;
    }
  >;
}

export const MAX_TIMELINE = 10_000;
export const INVALID_ROW: Encoded = { '@@restlens/invalid': true };

export function isInvalidRow(row: Encoded | undefined): boolean {
  return (
    typeof row === 'object' &&
    row !== null &&
    !Array.isArray(row) &&
    (row as Record<string, Encoded>)['@@restlens/invalid'] === true
  );
}

export function emptyStoreView(id: string, name = '', libraryVersion = ''): StoreView {
  return {
    id,
    name,
    libraryVersion,
    lastSeq: 0,
    ready: false,
    entities: {},
    endpoints: {},
    meta: {},
    optimistic: [],
    events: [],
    lastChanges: {},
    pkOrigins: {},
  };
}

/** Collection tables are keyed like `[Todo]`; everything else in `entities` is an entity type. */
export function isCollectionKey(key: string): boolean {
  return key.startsWith('[') && key.endsWith(']');
}

/** Adds a snapshot chunk; once all have come, the copy is replaced by the snapshot. */
export function applySnapshotChunk(view: StoreView, message: SnapshotMessage): StoreView {
  const pending =
    view.pendingSnapshot &&
    view.pendingSnapshot.seq === message.seq &&
    view.pendingSnapshot.count === message.count
      ? view.pendingSnapshot
      : {
          seq: message.seq,
          count: message.count,
          parts: new Array<string | undefined>(message.count).fill(undefined),
        };
  const parts = pending.parts.slice();
  parts[message.index] = message.data;
  if (parts.some((part) => part === undefined))
    return { ...view, pendingSnapshot: { ...pending, parts } };
  let snapshot: SnapshotState;
  try {
    snapshot = JSON.parse(parts.join('')) as SnapshotState;
  } catch {
    return { ...view, pendingSnapshot: undefined };
  }
  return {
    ...view,
    pendingSnapshot: undefined,
    ready: true,
    lastSeq: message.seq,
    entities: snapshot.entities,
    endpoints: snapshot.endpoints,
    meta: snapshot.meta as StoreView['meta'],
    optimistic: snapshot.optimistic,
  };
}

export interface ApplyResult {
  view: StoreView;
  /** Set when events were missing: the panel must ask for what follows this seq. */
  gapAfter?: number;
  /** The events whose effects were applied, in order: each live event once (the Recorder's input). */
  applied: StoreEvent[];
}

/** Adds events to the timeline and applies their effects to the copy, in order. */
export function applyEvents(view: StoreView, message: EventsMessage): ApplyResult {
  let next: StoreView = { ...view, events: view.events.slice() };
  let gapAfter: number | undefined;
  const applied: StoreEvent[] = [];
  // Membership in the timeline is checked by seq, not by "not above the newest": after a gap
  // the event past it is there while the missing ones before it are not, and the resync's
  // events must fill the gap (the timeline is sorted on entry).
  let newest = next.events.at(-1)?.seq ?? 0;
  let seen: Set<number> | undefined;
  for (const event of message.events) {
    if (event.seq > newest) {
      newest = event.seq;
      next.events.push(event);
      seen?.add(event.seq);
    } else {
      seen ??= new Set(next.events.map((known) => known.seq));
      if (!seen.has(event.seq)) {
        seen.add(event.seq);
        next.events.push(event);
      }
    }
    // History (or anything the snapshot already holds) only fills the timeline.
    if (message.history || event.seq <= next.lastSeq) continue;
    if (!next.ready || event.seq !== next.lastSeq + 1) {
      gapAfter = next.lastSeq;
      break;
    }
    next = applyEffects(next, event);
    applied.push(event);
  }
  // Sorted before trimming (events may have been added out of order), so the newest are kept.
  next.events.sort((a, b) => a.seq - b.seq);
  if (next.events.length > MAX_TIMELINE)
    next.events = next.events.slice(next.events.length - MAX_TIMELINE);
  return { view: next, gapAfter, applied };
}

function applyEffects(view: StoreView, event: StoreEvent): StoreView {
  const entities = { ...view.entities };
  const endpoints = { ...view.endpoints };
  const meta = { ...view.meta };
  const lastChanges = { ...view.lastChanges };
  const pkOrigins = { ...view.pkOrigins };
  const setRow = (table: string, pk: string, row: Encoded) => {
    entities[table] = { ...entities[table], [pk]: row };
  };
  for (const effect of event.effects) {
    switch (effect.type) {
      case 'entity-added':
      case 'entity-updated':
        setRow(effect.entity, effect.pk, effect.row);
        break;
      case 'entity-invalidated':
        setRow(effect.entity, effect.pk, INVALID_ROW);
        pkOrigins[`${effect.entity} ${effect.pk}`] = {
          seq: event.seq,
          endpoint: event.action.endpoint,
          response: event.action.response,
          effect,
        };
        break;
      case 'collection-changed': {
        const current = (entities[effect.collection]?.[effect.row] as string[] | undefined) ?? [];
        setRow(
          effect.collection,
          effect.row,
          effect.members ?? applyCollectionChange(current, effect),
        );
        // One event can change a row several times (a batch delete removes each entity in
        // turn): the row's latest change is that event's changes together.
        const id = `${effect.collection} ${effect.row}`;
        const earlier = lastChanges[id];
        lastChanges[id] = {
          seq: event.seq,
          effect: earlier?.seq === event.seq ? mergeChanges([earlier.effect, effect]) : effect,
        };
        break;
      }
      case 'result-stored':
        endpoints[effect.key] = effect.result;
        meta[effect.key] = { ...meta[effect.key], expiresAt: effect.expiresAt, date: event.time };
        break;
      case 'result-error':
        meta[effect.key] = { ...meta[effect.key], error: effect.error, date: event.time };
        break;
      case 'result-invalidated':
        for (const key of effect.keys) {
          delete endpoints[key];
          meta[key] = { ...meta[key], expiresAt: 0, invalidated: true };
        }
        break;
      case 'result-expired':
        for (const key of effect.keys) meta[key] = { ...meta[key], expiresAt: 1 };
        break;
      case 'store-reset':
        return {
          ...emptyStoreView(view.id, view.name, view.libraryVersion),
          ready: true,
          lastSeq: event.seq,
          events: view.events,
        };
      default:
        break;
    }
  }
  return { ...view, entities, endpoints, meta, lastChanges, pkOrigins, lastSeq: event.seq };
}

/** A row after an add or a removal: the removed pks out, then each inserted pk at its index. */
export function applyCollectionChange(
  members: readonly string[],
  change: Pick<Extract<Effect, { type: 'collection-changed' }>, 'removed' | 'inserted'>,
): string[] {
  const removed = new Set(change.removed);
  const next = members.filter((pk) => !removed.has(pk));
  for (const { pk, index } of [...change.inserted].sort((a, b) => a.index - b.index))
    next.splice(index, 0, pk);
  return next;
}

type CollectionChange = Extract<Effect, { type: 'collection-changed' }>;

/** Successive changes of one row as one: what went in, what was skipped, what went out. */
export function mergeChanges(changes: readonly CollectionChange[]): CollectionChange {
  const first = changes[0] as CollectionChange;
  const last = changes[changes.length - 1] as CollectionChange;
  const kinds = new Set(changes.map((change) => change.kind));
  return {
    ...last,
    kind: kinds.size === 1 ? last.kind : 'replace',
    lengthBefore: first.lengthBefore,
    inserted: changes.flatMap((change) => change.inserted),
    duplicates: changes.flatMap((change) => change.duplicates),
    removed: changes.flatMap((change) => change.removed),
  };
}
