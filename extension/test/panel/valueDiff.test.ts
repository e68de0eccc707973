import { describe, expect, it } from 'vitest';
import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { countChanges, diffNode } from '../../src/panel/valueDiff.js';
import type { ValueNode } from '../../src/panel/valueNodes.js';

/** Every node of the tree as `path: text [change, before]`, depth first. */
function lines(node: ValueNode, path = '$'): string[] {
  const mark = node.change ? ` [${node.change}${node.before ? ` from ${node.before}` : ''}]` : '';
  return [
    `${path}: ${node.text}${mark}`,
    ...(node.children ?? []).flatMap((child) => lines(child, `${path}.${child.key}`)),
  ];
}

const diff = (before: Encoded | undefined, after: Encoded | undefined) =>
  diffNode('', before, after);

describe('diffNode: a recorded value against a new one, as one tree', () => {
  it('marks nothing when the values are equal, object members in any order', () => {
    const tree = diff({ id: 1, tags: ['a'], at: { '@t': 'date', v: 'x' } }, {
      tags: ['a'],
      at: { '@t': 'date', v: 'x' },
      id: 1,
    } as Encoded);
    expect(lines(tree).filter((line) => / \[(added|removed|changed)/.test(line))).toEqual([]);
    expect(countChanges(tree)).toBe(0);
  });

  it('marks added, removed and changed members, and the containers that hold them', () => {
    const tree = diff(
      { id: 5, title: 'old', tags: ['a', 'b'], owner: { name: 'Ada' } },
      { id: 6, title: 'old', tags: ['a'], owner: { name: 'Ada', team: 'core' } },
    );
    expect(lines(tree)).toEqual([
      '$: { id: 6, title: "old", tags: ["a"], owner: { name: "Ada", team: "core" } } [changed]',
      '$.id: 6 [changed from 5]',
      '$.title: "old"',
      '$.tags: Array(1) ["a"] [changed]',
      '$.tags.0: "a"',
      '$.tags.1: "b" [removed]',
      '$.owner: { name: "Ada", team: "core" } [changed]',
      '$.owner.name: "Ada"',
      '$.owner.team: "core" [added]',
    ]);
    expect(countChanges(tree)).toBe(3);
  });

  it('compares an entity instance (a replay’s answer) with the plain object recorded by fields', () => {
    const tree = diff(
      { id: 3, title: 'a' },
      { '@t': 'instance', class: 'Todo', fields: { id: 3, title: 'b' } },
    );
    expect(lines(tree)).toEqual([
      '$: Todo { id: 3, title: "b" } [changed]',
      '$.id: 3',
      '$.title: "b" [changed from "a"]',
    ]);
  });

  it('compares values of different kinds whole', () => {
    expect(lines(diff({ id: 1 }, 'gone'))).toEqual(['$: "gone" [changed from { id: 1 }]']);
    expect(lines(diff(undefined, [1]))).toEqual([
      '$: Array(1) [1] [changed from undefined]',
      '$.0: 1',
    ]);
    expect(countChanges(diff([1], { 0: 1 }))).toBe(1);
  });

  it('keys members by their own names, `__proto__` and `constructor` included', () => {
    const before = JSON.parse('{"__proto__": 1, "constructor": 2}') as Encoded;
    const after = JSON.parse('{"__proto__": 1, "constructor": 3, "toString": 4}') as Encoded;
    expect(lines(diff(before, after)).slice(1)).toEqual([
      '$.__proto__: 1',
      '$.constructor: 3 [changed from 2]',
      '$.toString: 4 [added]',
    ]);
  });
});
