/**
 * A persistent sparse array: values at non-negative integer positions, in a trie of 32-wide
 * nodes (as in Clojure's vectors). Writing a position copies the few nodes on the path to it and
 * shares every other node with the version before, so each version stays as it was. A batch of
 * writes made by one `owner` (see PersistentMap's drafts) changes the nodes it made itself in
 * place instead of copying them again.
 *
 * The store's tables (`PersistentMap`) and collection rows (`MemberList`) are built on it.
 */

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/** Who may change a node in place: the batch of writes that made it. */
export type Owner = object;

/**
 * A node: 32 slots holding child nodes, or (in the bottom level) values. An empty slot is
 * `undefined`: a trie holds no `undefined` values (writing one empties the slot).
 */
interface Node {
  slots: unknown[];
  owner: Owner | undefined;
}

/** A version of the array: its root, and how many bits of a position the levels above use. */
export interface Trie {
  readonly root: Node;
  readonly shift: number;
}

export const EMPTY_TRIE: Trie = { root: { slots: [], owner: undefined }, shift: 0 };

/** Whether a trie whose root sits `shift` bits up has a slot for `position`. */
function fits(position: number, shift: number): boolean {
  return position >>> shift < WIDTH;
}

export function trieGet(trie: Trie, position: number): unknown {
  if (!fits(position, trie.shift)) return undefined;
  let current: Node | undefined = trie.root;
  for (let level = trie.shift; level > 0; level -= BITS) {
    current = current.slots[(position >>> level) & MASK] as Node | undefined;
    if (current === undefined) return undefined;
  }
  return current.slots[position & MASK];
}

/**
 * `node` with `value` in the slot of `position` (`undefined` empties it): a copy of the nodes on
 * the path, or the same nodes changed in place where `owner` made them.
 */
function write(
  node: Node | undefined,
  level: number,
  position: number,
  value: unknown,
  owner: Owner | undefined,
): Node {
  const index = (position >>> level) & MASK;
  const slots = node === undefined ? [] : node.slots;
  const next =
    level === 0
      ? value
      : write(slots[index] as Node | undefined, level - BITS, position, value, owner);
  if (node !== undefined && slots[index] === next) return node;
  if (node !== undefined && owner !== undefined && node.owner === owner) {
    node.slots[index] = next;
    return node;
  }
  const copy = slots.slice();
  copy[index] = next;
  return { slots: copy, owner };
}

/** The trie with `value` at `position`, grown by a level at the top while the position is beyond it. */
export function trieSet(trie: Trie, position: number, value: unknown, owner?: Owner): Trie {
  let { root, shift } = trie;
  if (value === undefined && !fits(position, shift)) return trie;
  while (!fits(position, shift)) {
    root = { slots: [root], owner };
    shift += BITS;
  }
  const written = write(root, shift, position, value, owner);
  return written === trie.root && shift === trie.shift ? trie : { root: written, shift };
}

/**
 * Calls `visit` with each value and its position, in increasing position order (decreasing with
 * `backwards`). The recursion goes as deep as the trie's levels: seven for any array length.
 */
export function trieForEach(
  trie: Trie,
  visit: (value: unknown, position: number) => void,
  backwards = false,
): void {
  forEachIn(trie.root, trie.shift, 0, visit, backwards);
}

function forEachIn(
  node: Node,
  level: number,
  first: number,
  visit: (value: unknown, position: number) => void,
  backwards: boolean,
): void {
  const { slots } = node;
  const last = slots.length - 1;
  for (let step = 0; step <= last; step++) {
    const index = backwards ? last - step : step;
    const slot = slots[index];
    if (slot === undefined) continue;
    const position = first + index * 2 ** level;
    if (level === 0) visit(slot, position);
    else forEachIn(slot as Node, level - BITS, position, visit, backwards);
  }
}
