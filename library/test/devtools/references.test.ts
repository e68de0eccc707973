import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isResultNode,
  resultKeyOf,
  resultNode,
  rowNode,
  rowOf,
  tableNode,
} from '../../src/devtools/page/references.js';

/** The devtools' reference index keys rows, results and tables by text made of outside names. */
describe('reference nodes', () => {
  it('a row node gives back its table and pk, whatever text they hold, and no other pair makes it', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.string(),
        fc.string(),
        (table, pk, other, otherPk) => {
          expect(rowOf(rowNode(table, pk))).toEqual({ table, pk });
          if (table !== other || pk !== otherPk)
            expect(rowNode(table, pk)).not.toBe(rowNode(other, otherPk));
        },
      ),
      { seed: 30, numRuns: 500 },
    );
  });

  it('result, row and table nodes never meet, `__proto__` and separators included', () => {
    const names = ['__proto__', '', '1:x', 'e1:a', 'r', 't', ':', '\u0000'];
    for (const name of names) {
      expect(isResultNode(resultNode(name))).toBe(true);
      expect(resultKeyOf(resultNode(name))).toBe(name);
      expect(isResultNode(rowNode(name, name))).toBe(false);
      expect(rowOf(resultNode(name))).toBeUndefined();
      expect(rowOf(tableNode(name))).toBeUndefined();
      expect(new Set([resultNode(name), rowNode(name, ''), tableNode(name)]).size).toBe(3);
    }
  });
});
