import type { CollectionChangeKind } from './changeKinds.js';

/**
 * What one action did to the store, in the user's terms: the change-set. The reducer makes one
 * with every new state, and everything downstream reads it rather than working it out again:
 * hooks re-check only the results it touches, the devtools describe it to the panel.
 *
 * Plain data, defined once: the devtools protocol's effects are these types with their values
 * encoded. Values are references to what the states hold; nothing is copied to make it.
 * `V` is the type of carried values (raw here, encoded on the wire).
 */
export interface ChangeSet<V = unknown> {
  /** Entity rows, one entry per entity type touched. */
  entities: EntityChanges<V>[];
  /** Collection rows whose members changed, or that an add reached without adding anything. */
  collections: CollectionChange[];
  /** Endpoint results stored, failed, invalidated or expired. */
  results: ResultChange<V>[];
  /** Set when the store was emptied. */
  reset?: true;
  /**
   * Set on the answer to a request whose optimistic response was shown: that response is taken
   * away, and the answer was stored (`committed`), or the request failed or was aborted
   * (`rolled-back`).
   */
  settled?: Settlement;
  /**
   * Set when optimistic responses were shown before or after the action. The view components
   * see is made again from the committed state after every action: the optimistic responses
   * shown before it are taken away (`before`: what they had done) and the ones still pending
   * applied again (`after`: what they do now, an optimistic fetch's own response among them).
   * Any row, list or result either names may read differently, and no item of the action's own
   * undoes theirs: whoever follows the view from change-sets alone reads it again.
   */
  optimistic?: { before?: ChangeSet<V>; after?: ChangeSet<V> };
}

/** What an answer did to its request's optimistic response (see ChangeSet.settled). */
export type Settlement = 'committed' | 'rolled-back';

/** What happened to the rows of one entity type. */
export interface EntityChanges<V = unknown> {
  /** The entity type, e.g. `Todo`. */
  entity: string;
  /** Stored for the first time, or again after they were invalidated. */
  added: string[];
  /** Stored before, with fields whose values changed. */
  updated: EntityUpdate<V>[];
  invalidated: Invalidation<V>[];
}

/** A stored entity that a write changed: its pk and the fields whose values changed. */
export interface EntityUpdate<V = unknown> {
  pk: string;
  fields: FieldChange<V>[];
}

/** One field of an entity: its value before and after a write. */
export interface FieldChange<V = unknown> {
  field: string;
  before: V;
  after: V;
}

/** An entity that `schema.Invalidate` removed: its pk and what the pk was computed from. */
export interface Invalidation<V = unknown> {
  pk: string;
  /** The input the pk was computed from (the URL params when a delete answered nothing). */
  from: V;
  /** Whether that input is the call's URL params or (part of) the response. */
  via: 'response' | 'url-params';
  /** The fields the store held for it just before; undefined when it held none. */
  last?: V;
}

/** What happened to one collection row. */
export interface CollectionChange {
  /** The collection's table key, e.g. `[Todo]`. */
  collection: string;
  /** The row: its serialized filtering arguments, e.g. `{"userId":"1"}`. */
  row: string;
  /** How (see COLLECTION_CHANGE_KINDS). */
  kind: CollectionChangeKind;
  lengthBefore: number;
  lengthAfter: number;
  /** The pks that went in, as runs of neighbours (one run for a push or a page). */
  inserted: InsertedRun[];
  /** Pks an add brought that were members already (or came twice), so they added nothing. */
  duplicates: string[];
  /** The pks that left: invalidated, removed, or not in the fresh list that replaced the row. */
  removed: string[];
  /** The whole list, when it was replaced. */
  members?: string[];
}

/** Pks inserted next to each other, the first at `index` of the new list. */
export interface InsertedRun {
  index: number;
  pks: string[];
}

/**
 * What happened to one stored result: stored, failed, invalidated or expired. An answer (stored,
 * or stored as an error) says whether the store `kept` it as its key's result: a read's newest
 * answer is kept; a mutation's answer, or one to a request older than the stored result's, only
 * went into the tables.
 */
export type ResultChange<V = unknown> = AnswerChange<V> | ResultDropped;

/** How the store took one answer: its response stored (kept: with `result`), or an error. */
export type AnswerChange<V = unknown> =
  | {
      type: 'result-stored';
      key: string;
      expiresAt: number;
      kept: boolean;
      /** The normalized value the store keeps as the key's result (set when kept). */
      result?: V;
    }
  | { type: 'result-error'; key: string; error: V; kept: boolean };

/** A stored result invalidated (its readers fetch it again) or expired (shown until refetched). */
export type ResultDropped =
  | { type: 'result-invalidated'; key: string }
  | { type: 'result-expired'; key: string };

/** A change-set of an action that changed nothing. */
export function noChanges(): ChangeSet {
  return { entities: [], collections: [], results: [] };
}

/**
 * Collects a change-set as the normalizer and the reducer work: schemas report what they did
 * through the normalize context, which reports it here. It knows nothing of who reads it.
 */
export class ChangeRecorder {
  /** Keeps the class's hidden class alive between writes (docs/architecture.md, "Hidden classes"). */
  static readonly spare = new ChangeRecorder();
  private readonly changes = noChanges();
  private readonly byEntity = new Map<string, EntityChanges>();
  /** The answer the reducer recorded (see answered). */
  answer?: AnswerChange;

  private of(entity: string): EntityChanges {
    let changes = this.byEntity.get(entity);
    if (!changes) {
      changes = { entity, added: [], updated: [], invalidated: [] };
      this.byEntity.set(entity, changes);
      this.changes.entities.push(changes);
    }
    return changes;
  }

  entityAdded(entity: string, pk: string): void {
    this.of(entity).added.push(pk);
  }

  entityUpdated(entity: string, pk: string, fields: FieldChange[]): void {
    this.of(entity).updated.push({ pk, fields });
  }

  entityInvalidated(entity: string, invalidation: Invalidation): void {
    this.of(entity).invalidated.push(invalidation);
  }

  collectionChanged(change: CollectionChange): void {
    this.changes.collections.push(change);
  }

  result(change: ResultDropped): void {
    this.changes.results.push(change);
  }

  /** Records how the store took the action's answer, and keeps it as `answer` for its caller. */
  answered(change: AnswerChange): void {
    this.changes.results.push(change);
    this.answer = change;
  }

  reset(): void {
    this.changes.reset = true;
  }

  settled(settlement: Settlement): void {
    this.changes.settled = settlement;
  }

  /** Adds what another recorder collected (a step that could fail, recorded apart first). */
  merge(other: ChangeRecorder): void {
    this.add(other.changes);
  }

  /** Adds a finished change-set's items (not what it says of optimistic responses). */
  add(changes: ChangeSet): void {
    // Item by item: a spread of a list of 200k would pass more arguments than a call takes.
    for (const entityChanges of changes.entities) {
      const into = this.of(entityChanges.entity);
      append(into.added, entityChanges.added);
      append(into.updated, entityChanges.updated);
      append(into.invalidated, entityChanges.invalidated);
    }
    append(this.changes.collections, changes.collections);
    append(this.changes.results, changes.results);
    if (changes.reset) this.reset();
  }

  /**
   * The change-set, with every list at its exact size: a list grown by `push` keeps spare slots
   * (17 for one item), and a change-set may be kept long after (the devtools' history).
   */
  finish(): ChangeSet {
    const { entities, collections, results, reset, settled } = this.changes;
    return {
      entities: entities.map(({ entity, added, updated, invalidated }) => ({
        entity,
        added: added.slice(),
        updated: updated.slice(),
        invalidated: invalidated.slice(),
      })),
      collections: collections.map((change) => ({
        ...change,
        duplicates: change.duplicates.slice(),
      })),
      results: results.slice(),
      reset,
      settled,
    };
  }
}

function append<T>(list: T[], items: readonly T[]): void {
  for (const item of items) list.push(item);
}
