/**
 * How an effect changes a copy of the store: the store's own rules (`store/reducer.ts`), told from
 * the effects, for whoever keeps a copy of a store from its events (the panel). Pure, and defined
 * once here: a copy follows the store by these rules, never by rules of its own.
 *
 * - A result: a read's newest answer replaces its value and meta; a failure keeps the value and
 *   puts the error in the meta; `invalidate` removes the value and marks the meta; `expireAll`
 *   marks the meta stale. The marks are the reducer's (`store/resultExpiry.ts`).
 * - A collection row: the change's whole list when it replaced the row, or the row with the
 *   removed pks out and each inserted run at its index.
 * - An entity an Invalidate removed is stored as the INVALID marker; the page encodes it as is.
 */

import { isInvalid } from '../../schema/invalid.js';
import { EXPIRED_EXPIRY, INVALIDATED_EXPIRY } from '../../store/resultExpiry.js';
import type {
  CollectionChanged,
  ResultError,
  ResultExpired,
  ResultInvalidated,
  ResultStored,
} from './effects.js';
import type { Encoded } from './messages.js';

export { INVALID } from '../../schema/invalid.js';

/** Whether an entity row (encoded, or anything a copy holds for one) is the INVALID marker. */
export const isInvalidRow: (row: unknown) => boolean = isInvalid;

/** A stored result's meta in a copy: the store's meta encoded (a snapshot's), or as effects made it. */
export type ResultMeta = Record<string, Encoded>;

/** The effects that change a stored result or its meta. */
export type ResultEffect = ResultStored | ResultError | ResultInvalidated | ResultExpired;

/**
 * Where a copy keeps its stored results, by key: their values and their metas (drafts of
 * persistent maps, or plain Maps).
 */
export interface ResultTables {
  values: { set(key: string, value: Encoded): unknown; delete(key: string): unknown };
  metas: { get(key: string): ResultMeta | undefined; set(key: string, meta: ResultMeta): unknown };
}

/**
 * Applies one result effect of an event that happened at `time` (the event's time stands for
 * the store's date of the answer). What the store does not keep as the key's result (a
 * mutation's answer, or one older than the stored result: `kept` false) changes nothing.
 *
 * An effect tells less than the reducer knows: a stored answer's meta is its expiry and date
 * (the request's start and number stay the page's), and a failure keeps the expiry it had (its
 * error expiry is the endpoint's); a snapshot brings the store's meta whole.
 */
export function applyResultEffect(tables: ResultTables, effect: ResultEffect, time: number): void {
  const { key } = effect;
  switch (effect.type) {
    case 'result-stored':
      if (!effect.kept) return;
      tables.values.set(key, effect.result ?? null);
      // A new answer replaces the meta: an error or an invalidation before it is over.
      tables.metas.set(key, { expiresAt: effect.expiresAt, date: time });
      return;
    case 'result-error':
      if (!effect.kept) return;
      tables.metas.set(key, {
        ...without(tables.metas.get(key), 'invalidated'),
        error: effect.error,
        date: time,
      });
      return;
    case 'result-invalidated':
      tables.values.delete(key);
      // An error before it is over too: the next read fetches.
      tables.metas.set(key, {
        ...without(tables.metas.get(key), 'error', 'errorPolicy'),
        expiresAt: INVALIDATED_EXPIRY,
        invalidated: true,
      });
      return;
    case 'result-expired':
      tables.metas.set(key, { ...tables.metas.get(key), expiresAt: EXPIRED_EXPIRY });
      return;
  }
}

/** A meta without some of its fields (a new object; none when there was no meta). */
function without(meta: ResultMeta | undefined, ...fields: string[]): ResultMeta {
  const rest: ResultMeta = { ...meta };
  for (const field of fields) delete rest[field];
  return rest;
}

/** What of a collection change says the row's members after it. */
export type RowChange = Pick<CollectionChanged, 'removed' | 'inserted' | 'members'>;

/**
 * A collection row's members after a change: the change's whole list when it replaced the row
 * (that very list, shared with the change: not to be written into), or the removed pks out and
 * then each run of inserted pks at its index, in a list the caller owns. `members` is left as it
 * was, unless `writable` says no one else holds it: then it is changed in place where that is
 * cheap (removals, and a run that goes at the end: a push), so a burst of changes to one long
 * list copies it once, not once a change.
 */
export function applyCollectionChange(
  members: readonly string[],
  change: RowChange,
  writable = false,
): string[] {
  if (change.members !== undefined) return change.members;
  const list = writable ? (members as string[]) : members.slice();
  const [only, ...others] = change.removed;
  if (others.length > 0) {
    const removed = new Set(change.removed);
    let kept = 0;
    for (const pk of list) if (!removed.has(pk)) list[kept++] = pk;
    list.length = kept;
  } else if (only !== undefined)
    // One pk (a delete): the engine's own search of the list is quicker than a pass of ours.
    for (let at = list.indexOf(only); at >= 0; at = list.indexOf(only, at)) list.splice(at, 1);
  const [run, ...more] = change.inserted;
  if (run === undefined) return list;
  if (more.length > 0 || run.index < list.length) return withRuns(list, change.inserted);
  for (const pk of run.pks) list.push(pk);
  return list;
}

/** `members` with each run of pks at its index in the new list, built in one pass. */
function withRuns(members: readonly string[], runs: RowChange['inserted']): string[] {
  const next: string[] = [];
  let from = 0;
  for (const run of [...runs].sort((a, b) => a.index - b.index)) {
    while (next.length < run.index && from < members.length) next.push(members[from++] as string);
    for (const pk of run.pks) next.push(pk);
  }
  while (from < members.length) next.push(members[from++] as string);
  return next;
}

/** Successive changes of one row as one: what went in, what was skipped, what went out. */
export function mergeChanges(changes: readonly CollectionChanged[]): CollectionChanged {
  const first = changes[0] as CollectionChanged;
  const last = changes[changes.length - 1] as CollectionChanged;
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
