import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { containerOf, type ValueNode, valueNode } from './valueNodes.js';

/**
 * Two carried values as one tree (a replay's recorded response and the server's answer now):
 * the tree of `after`, where a member only `after` has is marked added, one only `before` had is
 * there too, marked removed, a leaf that differs is marked changed with its text before, and a
 * container holding any of these is marked changed. Containers compare member by member when
 * both are of one kind (two lists, two objects, two instances of one class); otherwise the two
 * values compare whole.
 */
export function diffNode(
  key: string,
  before: Encoded | undefined,
  after: Encoded | undefined,
): ValueNode {
  const from = before === undefined ? undefined : containerOf(before);
  const to = after === undefined ? undefined : containerOf(after);
  if (from && to && from.kind === to.kind) {
    // A Map: member keys are outside data (`__proto__` is a key like any other).
    const old = new Map(from.entries());
    const children: ValueNode[] = [];
    for (const [childKey, child] of to.entries()) {
      children.push(
        old.has(childKey)
          ? diffNode(childKey, old.get(childKey), child)
          : { ...valueNode(childKey, child), change: 'added' },
      );
      old.delete(childKey);
    }
    for (const [childKey, child] of old)
      children.push({ ...valueNode(childKey, child), change: 'removed' });
    const changed = children.some((child) => child.change !== undefined);
    return {
      key,
      text: to.text,
      kind: 'container',
      children,
      ...(changed && { change: 'changed' }),
    };
  }
  const node = valueNode(key, after);
  if (sameValue(before, after)) return node;
  return { ...node, change: 'changed', before: valueNode(key, before).text };
}

/** How many members were added, removed or changed (containers holding them not counted). */
export function countChanges(node: ValueNode): number {
  if (node.change === undefined) return 0;
  if (node.change !== 'changed' || node.before !== undefined || !node.children) return 1;
  return node.children.reduce((sum, child) => sum + countChanges(child), 0);
}

/** Deep equality of two carried values (object members in any order). */
function sameValue(a: Encoded | undefined, b: Encoded | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const fieldsA = a as { [key: string]: Encoded };
  const fieldsB = b as { [key: string]: Encoded };
  const keys = Object.keys(fieldsA);
  return (
    keys.length === Object.keys(fieldsB).length &&
    keys.every((key) => Object.hasOwn(fieldsB, key) && sameValue(fieldsA[key], fieldsB[key]))
  );
}
