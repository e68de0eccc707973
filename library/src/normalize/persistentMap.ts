import { EMPTY_TRIE, type Owner, type Trie, trieForEach, trieGet, trieSet } from './trie.js';

/**
 * An immutable map from strings to values that shares structure between versions: `set` and
 * `delete` return a new map that copies only the path to what changed (O(log n)), never the
 * whole map, and leave the old one as it was. The store's tables are these maps, so every state
 * stays a valid snapshot (React renders, the devtools' history and time travel read old states)
 * and a write into a table of 100k rows costs about what a write into one of 1k does.
 *
 * How it works: the first time a key is stored it gets the next number of a `KeyIndex`, a native
 * Map from key to number shared by every map derived from the same first one (numbers are only
 * ever added, so an older map simply holds nothing at the numbers given after it). The values
 * sit in a persistent sparse array (`trie.ts`) at those numbers, and a map lists its keys in the
 * order they were first stored. A read is one native Map lookup and a walk of about four array
 * slots for 100k keys: no hashing of our own, which for long keys such as uuids would cost more
 * than the rest.
 *
 * Many writes in a row (one response normalizing 10k entities) go through a draft
 * (`withMutations`): the trie nodes the draft makes are changed in place, so a batch costs about
 * what filling a native Map does, and the map it returns is immutable like any other.
 *
 * A key deleted from the map keeps its number in the index; when the index holds twice as many
 * keys as the map (a table whose keys come and go), the next draft starts a fresh index holding
 * only the live keys, so a long-lived table does not grow with the keys it once held. An empty
 * map's draft keeps the index: it may be a sibling's (see `PersistentMap.empty`).
 */

/**
 * Numbers for keys, shared by a map and every map derived from it, and by maps made to share it
 * (`PersistentMap.empty(sibling)`: an entity table, its meta and its list memberships are keyed by
 * the same pks, so a pk is numbered once for all three).
 */
export class KeyIndex {
  /** Keeps the class's hidden class alive between writes (docs/architecture.md, "Hidden classes"). */
  static readonly spare = new KeyIndex();
  private readonly numbers = new Map<string, number>();
  readonly keys: string[] = [];
  /**
   * The key looked up last and its number: a row is read and written in each of the maps that
   * share this index in turn (the normalizer merges a row, then its meta), one lookup for all.
   * A key's number never changes, so the pair stays true.
   */
  private recentKey: string | undefined;
  private recentNumber: number | undefined;

  /** The number of `key`, undefined when it has none yet (remembered for the next call). */
  numberOf(key: string): number | undefined {
    if (key !== this.recentKey) {
      this.recentKey = key;
      this.recentNumber = this.numbers.get(key);
    }
    return this.recentNumber;
  }

  /** Gives `key` (which has no number yet) the next one. */
  add(key: string): number {
    const number = this.keys.length;
    this.numbers.set(key, number);
    this.keys.push(key);
    this.recentKey = key;
    this.recentNumber = number;
    return number;
  }
}

/** The parts a map is made of: what its draft changes and hands back. */
interface Parts {
  index: KeyIndex;
  trie: Trie;
  size: number;
}

function read(parts: Parts, key: string): unknown {
  const number = parts.index.numberOf(key);
  return number === undefined ? undefined : trieGet(parts.trie, number);
}

/** Applies one write (an `undefined` value deletes) to the key known by `number`, if any. */
function applyWrite(
  parts: Parts,
  key: string,
  known: number | undefined,
  value: unknown,
  owner: Owner,
): void {
  let number = known;
  if (number === undefined) {
    if (value === undefined) return;
    number = parts.index.add(key);
    parts.trie = trieSet(parts.trie, number, value, owner);
    parts.size++;
    return;
  }
  const before = trieGet(parts.trie, number);
  if (before === value) return;
  parts.trie = trieSet(parts.trie, number, value, owner);
  if (before === undefined) parts.size++;
  else if (value === undefined) parts.size--;
}

/** Parts to start a draft from: a fresh index holding only the live keys once it is due. */
function startingParts(parts: Parts): Parts {
  if (parts.size === 0 || parts.index.keys.length <= 2 * parts.size + 32) return { ...parts };
  const fresh: Parts = { index: new KeyIndex(), trie: EMPTY_TRIE, size: 0 };
  const owner = {};
  trieForEach(parts.trie, (value, number) =>
    applyWrite(fresh, parts.index.keys[number] as string, undefined, value, owner),
  );
  return fresh;
}

/** The map a finished draft makes, and a map's parts (set in PersistentMap: both are private). */
let fromParts: <V>(parts: Parts) => PersistentMap<V>;
let partsOf: (map: PersistentMap<unknown>) => Parts;

/**
 * An immutable map from strings: a write gives a new map that shares all it did not change with
 * the old one, so each state of the store keeps its tables at the cost of what changed.
 */
export class PersistentMap<V> implements Iterable<[string, V]> {
  private constructor(private readonly parts: Parts) {}

  static {
    fromParts = <V>(parts: Parts) => new PersistentMap<V>(parts);
    partsOf = (map) => map.parts;
  }

  /** Keeps the class's hidden class alive between writes (see KeyIndex.spare). */
  static readonly spare = PersistentMap.empty();

  /**
   * A new empty map: with an index of its own, or sharing the index of `sibling`, a map (or a
   * draft) whose keys this one will mostly hold too.
   */
  static empty<V>(sibling?: PersistentMap<unknown> | MapDraft<unknown>): PersistentMap<V> {
    const index = sibling === undefined ? new KeyIndex() : sibling.keyIndex();
    return new PersistentMap({ index, trie: EMPTY_TRIE, size: 0 });
  }

  /** The index of this map's keys (see `empty`). */
  keyIndex(): KeyIndex {
    return this.parts.index;
  }

  /** A map of these entries, e.g. `PersistentMap.from(Object.entries(rows))`. */
  static from<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    return PersistentMap.empty<V>().withMutations((draft) => {
      for (const [key, value] of entries) draft.set(key, value);
    });
  }

  /** How many keys the map holds. */
  get size(): number {
    return this.parts.size;
  }

  get(key: string): V | undefined {
    return read(this.parts, key) as V | undefined;
  }

  has(key: string): boolean {
    return read(this.parts, key) !== undefined;
  }

  /** This map with `key` set to `value` (`undefined` deletes it); this very map when unchanged. */
  set(key: string, value: V | undefined): PersistentMap<V> {
    return this.withMutations((draft) => draft.set(key, value));
  }

  /** This map without `key`; this very map when it does not hold it. */
  delete(key: string): PersistentMap<V> {
    return this.set(key, undefined);
  }

  /**
   * Makes many changes at once: `change` gets a draft whose writes change the nodes made during
   * this call in place. The draft must not be used once `change` returns.
   */
  withMutations(change: (draft: MapDraft<V>) => void): PersistentMap<V> {
    const draft = this.draft();
    change(draft);
    return draft.finish();
  }

  /** A draft for a batch of changes made over time; `finish()` gives the resulting map. */
  draft(): MapDraft<V> {
    return new MapDraft(this);
  }

  keys(): IterableIterator<string> {
    return this.collect((key) => key)[Symbol.iterator]();
  }

  values(): IterableIterator<V> {
    return this.collect((_key, value) => value)[Symbol.iterator]();
  }

  entries(): IterableIterator<[string, V]> {
    return this.collect((key, value): [string, V] => [key, value])[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  forEach(visit: (value: V, key: string) => void): void {
    const { index, trie } = this.parts;
    trieForEach(trie, (value, number) => visit(value as V, index.keys[number] as string));
  }

  /** The entries as a plain object (null prototype: `__proto__` is a key like any other). */
  toObject(): Record<string, V> {
    const object = Object.create(null) as Record<string, V>;
    this.forEach((value, key) => {
      object[key] = value;
    });
    return object;
  }

  /** JSON sees the entries as an object, so a state holding maps stays JSON-exportable. */
  toJSON(): Record<string, V> {
    return this.toObject();
  }

  /** One item per entry, in the order the keys were first stored. */
  private collect<T>(pick: (key: string, value: V) => T): T[] {
    const items: T[] = [];
    this.forEach((value, key) => {
      items.push(pick(key, value));
    });
    return items;
  }
}

/**
 * A batch of changes to a map: its writes change, in place, the nodes this draft made, and copy
 * the others (which older maps share) once. `finish()` gives the resulting map — the map the
 * draft started from when nothing changed — and the draft is not usable after it.
 */
export class MapDraft<V> {
  /** Keeps the class's hidden class alive between writes (see KeyIndex.spare). */
  static readonly spare = new this(PersistentMap.empty());
  private readonly owner: Owner = {};
  private parts: Parts | undefined;
  private readonly baseParts: Parts;

  constructor(private readonly base: PersistentMap<V>) {
    this.baseParts = partsOf(base);
    this.parts = startingParts(this.baseParts);
  }

  get size(): number {
    return this.open().size;
  }

  /** The index of the draft's keys (see `PersistentMap.empty`). */
  keyIndex(): KeyIndex {
    return this.open().index;
  }

  get(key: string): V | undefined {
    const parts = this.open();
    const number = parts.index.numberOf(key);
    return number === undefined ? undefined : (trieGet(parts.trie, number) as V | undefined);
  }

  set(key: string, value: V | undefined): this {
    const parts = this.open();
    applyWrite(parts, key, parts.index.numberOf(key), value, this.owner);
    return this;
  }

  delete(key: string): this {
    return this.set(key, undefined);
  }

  /** The keys the draft holds now. */
  keys(): string[] {
    const { index, trie } = this.open();
    const keys: string[] = [];
    trieForEach(trie, (_value, number) => {
      keys.push(index.keys[number] as string);
    });
    return keys;
  }

  finish(): PersistentMap<V> {
    const parts = this.open();
    this.parts = undefined;
    const unchanged = parts.trie === this.baseParts.trie && parts.index === this.baseParts.index;
    return unchanged ? this.base : fromParts(parts);
  }

  private open(): Parts {
    if (this.parts === undefined)
      throw new Error('PersistentMap: a draft cannot be used after finish()');
    return this.parts;
  }
}
