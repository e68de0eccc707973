import type {
  ActionSummary,
  Effect,
  EntityUpdate,
  StoreEvent,
} from '../../../library/src/devtools/protocol/effects.js';
import { type Encoded, isEditEndpoint } from '../../../library/src/devtools/protocol/messages.js';
import {
  collectionEntityType,
  describeEffect,
  describeEntityChange,
  EFFECTS_OMITTED,
  type EntityLabeler,
  effectLines,
  entityPks,
  eventNamer,
} from './format.js';
import {
  appliedBy,
  collectionRowId,
  endpointOf,
  type LastChange,
  membersComing,
  type StoreView,
} from './model.js';
import type { PanelState } from './store.js';

/** What the views show, computed from the panel's copy of a store (pure functions). */

export interface CollectionRow {
  /** `collection + ' ' + row`, as `lastChanges` keys it. */
  id: string;
  collection: string;
  /** The row key: the collection's arguments as JSON. */
  row: string;
  entityType: string;
  /** The members the copy holds, in order (the first ones, while more are coming). */
  members: string[];
  /** How many members the row has: more than `members` while a snapshot's lists are coming. */
  size: number;
  lastChange?: LastChange;
}

/** Every collection row, collections by name, rows in the order the store holds them. */
export function collectionRows(view: StoreView): CollectionRow[] {
  const rows: CollectionRow[] = [];
  for (const collection of Object.keys(view.collections).sort())
    view.collections[collection]?.forEach((members, row) => {
      const id = collectionRowId(collection, row);
      rows.push({
        id,
        collection,
        row,
        entityType: collectionEntityType(collection),
        members,
        size: members.length + membersComing(view, collection, row),
        lastChange: view.lastChanges.get(id),
      });
    });
  return rows;
}

/** The row that changed last (to show when the user picked none). */
export function latestChangedRow(rows: readonly CollectionRow[]): CollectionRow | undefined {
  let latest: CollectionRow | undefined;
  for (const row of rows)
    if (row.lastChange && (!latest?.lastChange || row.lastChange.seq > latest.lastChange.seq))
      latest = row;
  return latest;
}

/** Entity types, sorted. */
export function entityTypes(view: StoreView): string[] {
  return Object.keys(view.entities).sort();
}

interface EntityReferences {
  collections: { row: CollectionRow; index: number }[];
  results: { key: string; endpoint?: string; meta?: Encoded }[];
}

/** The entities the latest event that stored each result wrote, to tell `Todo 1` from `User 1`. */
function entitiesWrittenWithResult(events: readonly StoreEvent[]): Map<string, Set<string>> {
  const written = new Map<string, Set<string>>();
  for (const event of events) {
    const stored = event.effects.filter((effect) => effect.type === 'result-stored');
    if (stored.length === 0) continue;
    const entities = new Set<string>();
    for (const effect of event.effects)
      if (effect.type === 'entities-added' || effect.type === 'entities-updated')
        for (const pk of entityPks(effect)) entities.add(`${effect.entity} ${pk}`);
    for (const effect of stored) written.set(effect.key, entities);
  }
  return written;
}

/** Whether a normalized result holds `wanted` anywhere (a pk, or a collection row key). */
function holdsString(value: Encoded | undefined, wanted: ReadonlySet<string>, depth = 0): boolean {
  if (typeof value === 'string') return wanted.has(value);
  if (typeof value !== 'object' || value === null || depth > 8) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => holdsString(child, wanted, depth + 1));
}

/**
 * Whether a result that holds the bare pk `pk` means this entity. A normalized result holds pks,
 * not types, so the timeline decides: the event that last stored the result wrote this entity
 * (yes) or another type's entity with that pk (no); failing that, an endpoint named after
 * another entity type (`User.get`) means that type. Otherwise (an unchanged write, a result that
 * came with a snapshot) it counts.
 */
function pkMeansEntity(
  type: string,
  pk: string,
  wrote: ReadonlySet<string> | undefined,
  endpoint: string | undefined,
  types: ReadonlySet<string>,
): boolean {
  if (wrote?.has(`${type} ${pk}`)) return true;
  if (wrote && [...wrote].some((written) => written.endsWith(` ${pk}`))) return false;
  const named = endpoint?.split('.')[0];
  return !(named && named !== type && types.has(named));
}

/** Every collection row that holds the entity and every stored result that points at it. */
export function referencesOf(view: StoreView, type: string, pk: string): EntityReferences {
  const collections = collectionRows(view)
    .filter((row) => row.entityType === type)
    .map((row) => ({ row, index: row.members.indexOf(pk) }))
    .filter(({ index }) => index >= 0);
  const rowKeys = new Set(collections.map(({ row }) => row.row));
  const written = entitiesWrittenWithResult(view.events);
  const types = new Set(entityTypes(view));
  const results: EntityReferences['results'] = [];
  view.endpoints.forEach((result, key) => {
    const endpoint = endpointOf(view, key);
    const viaCollection = rowKeys.size > 0 && holdsString(result, rowKeys);
    const viaPk =
      holdsString(result, new Set([pk])) &&
      pkMeansEntity(type, pk, written.get(key), endpoint, types);
    if (viaCollection || viaPk) results.push({ key, endpoint, meta: view.meta.get(key) });
  });
  return { collections, results };
}

/** The latest event that wrote or invalidated this entity, and what it did to it. */
export function lastEntityChange(
  events: readonly StoreEvent[],
  type: string,
  pk: string,
): { event: StoreEvent; change: string } | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as StoreEvent;
    for (const effect of event.effects) {
      if (effect.type === 'entity-invalidated' && effect.entity === type && effect.pk === pk)
        return { event, change: describeEffect(effect, eventNamer(event)) };
      if (
        (effect.type === 'entities-added' || effect.type === 'entities-updated') &&
        effect.entity === type
      ) {
        const at = entityPks(effect).indexOf(pk);
        if (at >= 0) return { event, change: describeEntityChange(effect, at, eventNamer(event)) };
      }
    }
  }
  return undefined;
}

/**
 * The latest event on the timeline that invalidated this entity, and how: the same answer for a
 * panel that saw the delete happen and one that opened later (from the history).
 */
export function lastInvalidation(
  events: readonly StoreEvent[],
  type: string,
  pk: string,
): { event: StoreEvent; effect: Extract<Effect, { type: 'entity-invalidated' }> } | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as StoreEvent;
    for (const effect of event.effects)
      if (effect.type === 'entity-invalidated' && effect.entity === type && effect.pk === pk)
        return { event, effect };
  }
  return undefined;
}

/** One event's change to one entity, for its history. */
interface EntityChange {
  event: StoreEvent;
  /** What the event did to it, in words. */
  change: string;
  /** The entity, as the event names it (see entityName). */
  name: string;
  /** For an update: the fields it changed, each before → after. */
  update?: EntityUpdate<Encoded>;
  /**
   * For an optimistic change: how it ended, and the event that ended it (a commit that changed
   * the entity alike is this entry, not one of its own).
   */
  optimistic?: { outcome: NonNullable<ActionSummary['optimistic']>; settledBy?: StoreEvent };
}

/** What one event did to one entity, if anything (an event touches an entity once). */
function changeOf(event: StoreEvent, type: string, pk: string): EntityChange | undefined {
  const namer = eventNamer(event);
  const name = namer(type, pk);
  for (const effect of event.effects) {
    if (effect.type === 'entity-invalidated' && effect.entity === type && effect.pk === pk)
      return { event, name, change: describeEffect(effect, namer) };
    if (effect.type === 'entities-added' && effect.entity === type && effect.pks.includes(pk))
      return { event, name, change: `added ${name}` };
    if (effect.type === 'entities-updated' && effect.entity === type) {
      const update = effect.updates.find((each) => each.pk === pk);
      if (update) return { event, name, change: `updated ${name}`, update };
    }
  }
  return undefined;
}

const sameChange = (a: EntityChange, b: EntityChange) =>
  a.change === b.change && JSON.stringify(a.update?.fields) === JSON.stringify(b.update?.fields);

/**
 * Every event on the timeline that touched this entity, newest first: one entry per change, so
 * an optimistic update and the answer that committed it alike are one entry, which says how it
 * ended (committed, rolled back, or pending still).
 */
export function entityHistory(
  events: readonly StoreEvent[],
  type: string,
  pk: string,
): EntityChange[] {
  const history: EntityChange[] = [];
  /** The optimistic events whose commit is listed as their own entry. */
  const committedAlike = new Map<StoreEvent, StoreEvent>();
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as StoreEvent;
    const change = changeOf(event, type, pk);
    if (!change) continue;
    const { optimistic } = event.action;
    if (optimistic === 'committed') {
      const applied = appliedBy(events, event);
      const appliedChange = applied && changeOf(applied, type, pk);
      if (appliedChange && sameChange(appliedChange, change)) {
        committedAlike.set(applied, event);
        continue;
      }
    }
    if (optimistic === 'applied') {
      const settledBy = committedAlike.get(event) ?? settlementOf(events, event);
      change.optimistic = {
        outcome: settledBy?.action.optimistic ?? 'applied',
        ...(settledBy ? { settledBy } : {}),
      };
    }
    history.push(change);
  }
  return history;
}

/** Whether `later` is an answer that committed or rolled back the optimistic `applied`. */
const settles = (later: StoreEvent, applied: StoreEvent) =>
  later.action.key === applied.action.key &&
  (later.action.optimistic === 'committed' || later.action.optimistic === 'rolled-back');

/** For an optimistic event: the first later answer to the same call, once it came. */
export function settlementOf(
  events: readonly StoreEvent[],
  event: StoreEvent,
): StoreEvent | undefined {
  if (event.action.optimistic !== 'applied') return undefined;
  for (let index = indexBySeq(events, event.seq) + 1; index < events.length; index++) {
    const later = events[index] as StoreEvent;
    if (settles(later, event)) return later;
  }
  return undefined;
}

/** How an optimistic event ended: the later answer to the same call committed or rolled it back. */
export function optimisticOutcome(
  events: readonly StoreEvent[],
  event: StoreEvent,
): ActionSummary['optimistic'] {
  if (event.action.optimistic !== 'applied') return event.action.optimistic;
  return settlementOf(events, event)?.action.optimistic ?? 'applied';
}

/** The index of the event with this seq in a timeline (sorted by seq), or -1. */
export function indexBySeq(events: readonly StoreEvent[], seq: number): number {
  const index = firstIndexFrom(events, seq);
  return events[index]?.seq === seq ? index : -1;
}

/** The index of the first event at or after `seq` in a timeline (its length when none is). */
function firstIndexFrom(events: readonly StoreEvent[], seq: number): number {
  // The timeline is sorted by seq: search it instead of scanning 10,000 events.
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((events[middle] as StoreEvent).seq < seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function eventBySeq(events: readonly StoreEvent[], seq: number): StoreEvent | undefined {
  return events[indexBySeq(events, seq)];
}

/**
 * Where `next` goes on from `previous` when it is `previous` less events at its start and plus
 * events at its end (a batch came, the oldest left): the index of its first new event.
 * Undefined when the timeline changed otherwise (history filled a hole, a conflict took events
 * out). Both are sorted by seq and an event is one object for as long as it stays, so the ends
 * and the count between them tell it.
 */
export function appendedFrom(
  previous: readonly StoreEvent[],
  next: readonly StoreEvent[],
): number | undefined {
  const last = previous.at(-1);
  if (last === undefined) return 0;
  const lastIndex = indexBySeq(next, last.seq);
  if (next[lastIndex] !== last) return undefined;
  const first = next[0] as StoreEvent;
  const firstIndex = indexBySeq(previous, first.seq);
  if (previous[firstIndex] !== first) return undefined;
  return lastIndex === previous.length - 1 - firstIndex ? lastIndex + 1 : undefined;
}

/** The events of `events` (sorted by seq) from `seq` on. */
export function eventsFrom(events: readonly StoreEvent[], seq: number): readonly StoreEvent[] {
  const index = firstIndexFrom(events, seq);
  return index === 0 ? events : events.slice(index);
}

// ---- timeline ----------------------------------------------------------------------------

const searchTexts = new WeakMap<StoreEvent, string>();

/** The badge of an event that an edit made from the panel caused. */
export const DEVTOOLS_EDIT = 'devtools edit';

export const OPTIMISTIC_LABELS = {
  applied: 'optimistic: applied',
  committed: 'optimistic: committed',
  'rolled-back': 'optimistic: rolled back',
} as const;

/**
 * Everything the text filter looks at in one event, lower case (computed once per event): what
 * its row and its expanded lines show, badges and summary included.
 */
function eventSearchText(event: StoreEvent): string {
  let text = searchTexts.get(event);
  if (text === undefined) {
    const { action } = event;
    text = [
      `#${event.seq}`,
      action.type,
      action.endpoint,
      action.key,
      action.method,
      action.url,
      action.optimistic && OPTIMISTIC_LABELS[action.optimistic],
      action.error !== undefined && 'error',
      isEditEndpoint(action.endpoint) && DEVTOOLS_EDIT,
      eventSummary(event),
      ...event.effects
        .flatMap((effect) => effectLines(effect, eventNamer(event)))
        .map((line) => line.text),
    ]
      .filter(Boolean)
      .join('\n')
      .toLowerCase();
    searchTexts.set(event, text);
  }
  return text;
}

const namedEntities = new WeakMap<StoreEvent, { entity: string; pk: string }[]>();

/** The entities an event's expanded lines name (worked out once per event). */
function entitiesNamedBy(event: StoreEvent): { entity: string; pk: string }[] {
  let named = namedEntities.get(event);
  if (named === undefined) {
    named = event.effects
      .flatMap((effect) => effectLines(effect))
      .flatMap((line) => line.entity ?? []);
    namedEntities.set(event, named);
  }
  return named;
}

/** Whether the filter lets an event through (`text` trimmed and lower case). */
function matches(
  event: StoreEvent,
  filter: PanelState['timelineFilter'],
  text: string,
  labelOf: EntityLabeler,
): boolean {
  return (
    (!filter.kind || event.action.type === filter.kind) &&
    (!filter.endpoint || event.action.endpoint === filter.endpoint) &&
    (!text ||
      eventSearchText(event).includes(text) ||
      entitiesNamedBy(event).some(({ entity, pk }) =>
        labelOf(entity, pk).toLowerCase().includes(text),
      ))
  );
}

/** Whether a filter lets every event through. */
export const filtersNothing = (filter: PanelState['timelineFilter']): boolean =>
  !filter.kind && !filter.endpoint && !filter.text.trim();

export function filterEvents(
  events: readonly StoreEvent[],
  filter: PanelState['timelineFilter'],
  labelOf: EntityLabeler = () => '',
): StoreEvent[] {
  const text = filter.text.trim().toLowerCase();
  return events.filter((event) => matches(event, filter, text, labelOf));
}

/** How a count of results reads: `1 result`, `2 results`. */
const results = (count: number) => (count === 1 ? '1 result' : `${count} results`);

/** Each part of a summary, written with its count. */
const SUMMARY_PARTS = {
  added: (count: number) => `${count} added`,
  updated: (count: number) => `${count} updated`,
  invalidated: (count: number) => `${count} invalidated`,
  'removed from lists': (count: number) => `${count} removed from lists`,
  'lists replaced': (count: number) => (count === 1 ? 'list replaced' : `${count} lists replaced`),
  suspend: (count: number) => `${results(count)} ${count === 1 ? 'suspends' : 'suspend'}`,
  'lost a member': (count: number) => `${results(count)} lost a member`,
  failed: (count: number) => `${count} failed`,
  stored: (count: number) => `${count} stored`,
  'results invalidated': (count: number) => `${results(count)} invalidated`,
  'results expired': (count: number) => `${results(count)} expired`,
  'store cleared': () => 'store cleared',
  replayed: (count: number) => `${count} replayed`,
  'replay failed': (count: number) => `${count} replay failed`,
} as const;
type SummaryPart = keyof typeof SUMMARY_PARTS;

/** A one-line summary of an event's effects, for its timeline row: every part with its count. */
const summaries = new WeakMap<StoreEvent, string>();

/** An event's one-line summary of its effects (worked out once per event). */
export function eventSummary(event: StoreEvent): string {
  let summary = summaries.get(event);
  if (summary === undefined) {
    summary = event.effectsOmitted ? EFFECTS_OMITTED : summarizeEffects(event.effects);
    summaries.set(event, summary);
  }
  return summary;
}

export function summarizeEffects(effects: readonly Effect[]): string {
  const counts = new Map<string, number>();
  const bump = (label: SummaryPart | `${string} +`, count = 1) =>
    counts.set(label, (counts.get(label) ?? 0) + count);
  for (const effect of effects) {
    switch (effect.type) {
      case 'entities-added':
        bump('added', effect.pks.length);
        break;
      case 'entities-updated':
        bump('updated', effect.updates.length);
        break;
      case 'entity-invalidated':
        bump('invalidated');
        break;
      case 'collection-changed':
        // A list change counts the members it moved: `push +1`, `page-merge +2`.
        if (effect.kind === 'invalidate') bump('removed from lists', effect.removed.length);
        else if (effect.kind === 'replace') bump('lists replaced');
        else bump(`${effect.kind} +`, effect.inserted.flatMap((run) => run.pks).length);
        break;
      case 'result-suspends':
        bump('suspend');
        break;
      case 'result-lost-member':
        bump('lost a member');
        break;
      case 'result-error':
        bump('failed');
        break;
      case 'result-stored':
        bump('stored');
        break;
      case 'result-invalidated':
        bump('results invalidated');
        break;
      case 'result-expired':
        bump('results expired');
        break;
      case 'store-reset':
        bump('store cleared');
        break;
      case 'replay-result':
        bump(effect.ok ? 'replayed' : 'replay failed');
        break;
    }
  }
  return [...counts]
    .map(([label, count]) =>
      Object.hasOwn(SUMMARY_PARTS, label)
        ? SUMMARY_PARTS[label as SummaryPart](count)
        : `${label}${count}`,
    )
    .join(' · ');
}
