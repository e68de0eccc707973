import type { ChangeSet } from '../normalize/changes.js';
import type { ReaderDirectory, Store, StoreRecord } from '../store/createStore.js';

/** A mounted hook's reading, as the registry knows it. */
export interface Reader {
  /** Reads again and re-renders the component when the reading changed. */
  check(): void;
  /** The display name of its component, when React could tell it (development builds). */
  component?: string | undefined;
}

/**
 * What a reading depends on: its result's key, and the table rows its data was built from (a
 * `null` pk: the whole table, for `schema.All`).
 */
export interface ReadingDependencies {
  key: string | null;
  /** Undefined when the reading has no data yet: any change may bring it. */
  rows: readonly { table: string; pk: string | null }[] | undefined;
}

/**
 * The mounted hooks of one store, indexed by what their readings depend on. After a change, the
 * change-set says which result keys and which rows changed, and only the hooks that depend on
 * one of them read again: a change no hook depends on costs nothing per hook.
 */
export class Readers {
  private readonly byKey = new Map<string, Set<Reader>>();
  private readonly byRow = new Map<string, Map<string, Set<Reader>>>();
  /** Hooks that read whole tables: any change to a row of the table concerns them. */
  private readonly byTable = new Map<string, Set<Reader>>();
  /** Hooks whose reading has no data yet. */
  private readonly waiting = new Set<Reader>();
  private readonly all = new Set<Reader>();
  private readonly registered = new Map<Reader, ReadingDependencies>();

  constructor(private readonly store: Store) {
    store.observe((record) => this.changed(record));
    // Components are named in development builds only (see Reader.component): production builds
    // leave the directory, and the devtools that read it, out.
    if (process.env.NODE_ENV !== 'production')
      store.readerDirectory = directoryOf(this.byKey, this.byTable, this.byRow);
  }

  /** Registers a hook, or moves it to what its latest reading depends on. */
  set(reader: Reader, dependencies: ReadingDependencies): void {
    const registered = this.registered.get(reader);
    // A new reading of the same rows (an entity's fields changed) stays where it is.
    if (registered !== undefined && sameDependencies(registered, dependencies)) {
      this.registered.set(reader, dependencies);
      return;
    }
    this.remove(reader);
    this.all.add(reader);
    this.registered.set(reader, dependencies);
    if (dependencies.key !== null) {
      setOf(this.byKey, dependencies.key).add(reader);
      if (process.env.NODE_ENV !== 'production') countsChanged(this.store);
    }
    if (dependencies.rows === undefined) this.waiting.add(reader);
    else
      for (const { table, pk } of dependencies.rows) {
        if (pk === null) setOf(this.byTable, table).add(reader);
        else setOf(mapOf(this.byRow, table), pk).add(reader);
      }
  }

  remove(reader: Reader): void {
    const dependencies = this.registered.get(reader);
    if (!dependencies) return;
    this.registered.delete(reader);
    this.all.delete(reader);
    this.waiting.delete(reader);
    if (dependencies.key !== null) {
      this.byKey.get(dependencies.key)?.delete(reader);
      if (process.env.NODE_ENV !== 'production') countsChanged(this.store);
    }
    for (const { table, pk } of dependencies.rows ?? []) {
      if (pk === null) this.byTable.get(table)?.delete(reader);
      else this.byRow.get(table)?.get(pk)?.delete(reader);
    }
  }

  private changed({ changes }: StoreRecord): void {
    // A reset empties everything: then every hook reads again.
    const affected = new Set(changes.reset ? this.all : this.waiting);
    // What the optimistic responses shown around the action did to the view concerns them too.
    const { before, after } = changes.optimistic ?? {};
    for (const part of [changes, before, after]) if (part) this.addTouched(part, affected);
    for (const reader of affected) reader.check();
  }

  /** Adds to `affected` the readers of what `changes` names. */
  private addTouched(changes: ChangeSet, affected: Set<Reader>): void {
    const add = (readers: Set<Reader> | undefined) => {
      for (const reader of readers ?? []) affected.add(reader);
    };
    for (const change of changes.results) add(this.byKey.get(change.key));
    for (const { entity, added, updated, invalidated } of changes.entities) {
      add(this.byTable.get(entity));
      const rows = this.byRow.get(entity);
      if (!rows) continue;
      for (const pk of added) add(rows.get(pk));
      for (const { pk } of updated) add(rows.get(pk));
      for (const { pk } of invalidated) add(rows.get(pk));
    }
    for (const { collection, row } of changes.collections)
      add(this.byRow.get(collection)?.get(row));
  }
}

/** The names of the components reading each result and row, from the registry's indexes. */
function directoryOf(
  byKey: ReadonlyMap<string, Set<Reader>>,
  byTable: ReadonlyMap<string, Set<Reader>>,
  byRow: ReadonlyMap<string, ReadonlyMap<string, Set<Reader>>>,
): ReaderDirectory {
  const namesOf = (readers: Iterable<Reader>) =>
    Array.from(readers, (reader) => reader.component ?? '');
  return {
    namesByKey() {
      const names = new Map<string, string[]>();
      for (const [key, readers] of byKey) if (readers.size > 0) names.set(key, namesOf(readers));
      return names;
    },
    namesOfRow: (table, pk) =>
      namesOf([...(byTable.get(table) ?? []), ...(byRow.get(table)?.get(pk) ?? [])]),
  };
}

function sameDependencies(a: ReadingDependencies, b: ReadingDependencies): boolean {
  if (a.key !== b.key) return false;
  if (a.rows === undefined || b.rows === undefined) return a.rows === b.rows;
  const { rows } = b;
  return (
    a.rows.length === rows.length &&
    a.rows.every(({ table, pk }, index) => rows[index]?.table === table && rows[index]?.pk === pk)
  );
}

function mapOf<K, V>(map: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let inner = map.get(key);
  if (!inner) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}

function setOf<T>(map: Map<string, Set<T>>, key: string): Set<T> {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}

/** One registry per store, made when the first hook of that store mounts. */
const registries = new WeakMap<Store, Readers>();

export function readersOf(store: Store): Readers {
  let readers = registries.get(store);
  if (!readers) {
    readers = new Readers(store);
    registries.set(store, readers);
  }
  return readers;
}

/** Tells whoever listens (the devtools) that a component started or stopped reading the store. */
function countsChanged(store: Store): void {
  for (const listener of store.readerListeners ?? []) listener();
}
