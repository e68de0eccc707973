import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReferenceIndex, type Referrer } from '../../src/devtools/page/references.js';

/** The devtools' reference index keys rows, results and tables by names that come from outside. */
describe('the reference index', () => {
  const describeAll = (referrers: ReadonlySet<Referrer>) =>
    [...referrers].map((referrer) =>
      referrer.kind === 'result'
        ? `result ${referrer.key}`
        : `row ${referrer.table} ${referrer.pk}`,
    );

  it('finds who points at a row by its table and pk, whatever text they hold, and no other pair', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.string(),
        fc.string(),
        (table, pk, other, otherPk) => {
          const index = new ReferenceIndex();
          index.setResult('key', [{ table, pk }]);
          expect(describeAll(index.referrersOfRow(table, pk))).toEqual(['result key']);
          if (table !== other || pk !== otherPk)
            expect(index.referrersOfRow(other, otherPk).size).toBe(0);
          // A row is not its table.
          expect(index.referrersOfTable(table).size).toBe(0);
        },
      ),
      { seed: 30, numRuns: 300 },
    );
  });

  it('keeps results, rows and whole tables apart, `__proto__` and separators included', () => {
    const names = ['__proto__', '', '1:x', 'e1:a', 'r', 't', ':', '\u0000', 'constructor'];
    for (const name of names) {
      const index = new ReferenceIndex();
      index.setResult(name, [{ table: name }]);
      index.setRow(name, name, [{ table: name, pk: name }]);
      expect(describeAll(index.referrersOfTable(name))).toEqual([`result ${name}`]);
      expect(describeAll(index.referrersOfRow(name, name))).toEqual([`row ${name} ${name}`]);
      expect(index.referrersOfRow(name, '').size).toBe(name === '' ? 1 : 0);
    }
  });

  it('replaces what a referrer points at, forgets it when deleted, and keeps one object per referrer', () => {
    const index = new ReferenceIndex();
    index.setResult('list', [
      { table: '[Todo]', pk: '{}' },
      { table: 'Todo', pk: '1' },
    ]);
    const [referrer] = index.referrersOfRow('Todo', '1');
    index.setResult('list', [{ table: 'Todo', pk: '2' }]);
    expect(index.referrersOfRow('Todo', '1').size).toBe(0);
    expect(index.referrersOfRow('[Todo]', '{}').size).toBe(0);
    expect([...index.referrersOfRow('Todo', '2')]).toEqual([referrer]);
    expect([...index.referrersOfRow('Todo', '2')][0]).toBe(referrer);
    index.setRow('Todo', '3', [{ table: 'User', pk: '9' }]);
    index.deleteResult('list');
    index.deleteRow('Todo', '3');
    expect(index.referrersOfRow('Todo', '2').size).toBe(0);
    expect(index.referrersOfRow('User', '9').size).toBe(0);
    index.setRow('Todo', '4', [{ table: 'User', pk: '9' }]);
    index.clear();
    expect(index.referrersOfRow('User', '9').size).toBe(0);
  });
});
