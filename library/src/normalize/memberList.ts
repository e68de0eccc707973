import { PersistentMap } from './persistentMap.js';
import { EMPTY_TRIE, type Trie, trieForEach, trieSet } from './trie.js';

/**
 * A collection row's members: pks in order, each at most once, shared between versions like the
 * tables are. Appending (push, a page), prepending (unshift) and removing a member (a delete)
 * cost O(log n) and copy nothing else, so pushing into a list of 100k members costs about what
 * pushing into one of 100 does, and every older version stays as it was.
 *
 * Members sit in two persistent sparse arrays (`trie.ts`): `back` holds those appended, at
 * increasing positions; `front` holds those prepended, at increasing positions away from the
 * start. The list reads `front` backwards, then `back`. `positions` says where each member is
 * (a position in `back`, or `-1 - position` in `front`): it answers "is it a member?" and finds
 * a member to remove. A removed member leaves an empty slot behind.
 */
export class MemberList implements Iterable<string> {
  /** Keeps the class's hidden class alive between writes (docs/architecture.md, "Hidden classes"). */
  static readonly spare = MemberList.from(['']);

  private constructor(
    private readonly front: Trie,
    private readonly frontEnd: number,
    private readonly back: Trie,
    private readonly backEnd: number,
    private readonly positions: PersistentMap<number>,
  ) {}

  /** A new empty list. */
  static empty(): MemberList {
    return new MemberList(EMPTY_TRIE, 0, EMPTY_TRIE, 0, PersistentMap.empty());
  }

  /** The list of these pks in order, each kept once (where it first occurs). */
  static from(pks: Iterable<string>): MemberList {
    return MemberList.empty().append(pks);
  }

  /** How many members the list holds. */
  get length(): number {
    return this.positions.size;
  }

  has(pk: string): boolean {
    return this.positions.has(pk);
  }

  /** Whether the list is exactly these pks, in this order. */
  holdsExactly(pks: readonly string[]): boolean {
    if (pks.length !== this.length) return false;
    const members = this.toArray();
    for (let index = 0; index < pks.length; index++)
      if (members[index] !== pks[index]) return false;
    return true;
  }

  /** The list with the given pks that are not members yet added at the end, in their order. */
  append(pks: Iterable<string>): MemberList {
    const owner = {};
    let back = this.back;
    let backEnd = this.backEnd;
    const positions = this.positions.withMutations((draft) => {
      for (const pk of pks) {
        if (draft.get(pk) !== undefined) continue;
        draft.set(pk, backEnd);
        back = trieSet(back, backEnd++, pk, owner);
      }
    });
    if (positions === this.positions) return this;
    return new MemberList(this.front, this.frontEnd, back, backEnd, positions);
  }

  /**
   * The list with the given pks that are not members yet added at the start, in their order:
   * prepending `[a, b]` to `[x]` gives `[a, b, x]`.
   */
  prepend(pks: Iterable<string>): MemberList {
    const fresh: string[] = [];
    const seen = new Set<string>();
    for (const pk of pks) {
      if (this.positions.has(pk) || seen.has(pk)) continue;
      seen.add(pk);
      fresh.push(pk);
    }
    if (fresh.length === 0) return this;
    const owner = {};
    let front = this.front;
    let frontEnd = this.frontEnd;
    const positions = this.positions.withMutations((draft) => {
      // The last one is nearest the current start, so it goes in first.
      for (let i = fresh.length - 1; i >= 0; i--) {
        const pk = fresh[i] as string;
        draft.set(pk, -1 - frontEnd);
        front = trieSet(front, frontEnd++, pk, owner);
      }
    });
    return new MemberList(front, frontEnd, this.back, this.backEnd, positions);
  }

  /** The list without `pk`; this very list when it is not a member. */
  remove(pk: string): MemberList {
    const position = this.positions.get(pk);
    if (position === undefined) return this;
    const positions = this.positions.delete(pk);
    // Mostly empty slots (members removed one by one): start again from the members left.
    if (2 * positions.size + 32 < this.frontEnd + this.backEnd)
      return MemberList.from(this.toArray().filter((member) => member !== pk));
    return position >= 0
      ? new MemberList(
          this.front,
          this.frontEnd,
          trieSet(this.back, position, undefined),
          this.backEnd,
          positions,
        )
      : new MemberList(
          trieSet(this.front, -1 - position, undefined),
          this.frontEnd,
          this.back,
          this.backEnd,
          positions,
        );
  }

  [Symbol.iterator](): Iterator<string> {
    return this.toArray()[Symbol.iterator]();
  }

  toArray(): string[] {
    const members: string[] = [];
    const add = (pk: unknown) => {
      members.push(pk as string);
    };
    trieForEach(this.front, add, true);
    trieForEach(this.back, add);
    return members;
  }

  /** JSON sees the list as the array of its members. */
  toJSON(): string[] {
    return this.toArray();
  }
}
