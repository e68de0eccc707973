/**
 * Every public export of the three entry points has a doc comment (its one-line summary is what
 * the API reference, `npm run docs`, and editors show): the test lists the exports without one.
 */
import ts from 'typescript';
import { expect, it } from 'vitest';
import { entryExports } from './entryPoints.js';

function exportsWithoutDocs(): string[] {
  return entryExports().flatMap(({ entry, exports, checker }) =>
    exports.flatMap((exported) => {
      // A re-export may carry its own comment (`export * as schema`), else the original's counts.
      const documented = [exported];
      if (exported.flags & ts.SymbolFlags.Alias)
        documented.push(checker.getAliasedSymbol(exported));
      const summaries = documented.map(
        (symbol) =>
          ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() ||
          moduleComment(symbol),
      );
      return summaries.every((summary) => summary === '') ? [`${entry}: ${exported.name}`] : [];
    }),
  );
}

/** A module's own doc comment (a namespace export's): the one its file opens with. */
function moduleComment(symbol: ts.Symbol): string {
  const file = symbol.valueDeclaration;
  if (file === undefined || !ts.isSourceFile(file)) return '';
  const [first] = ts.getLeadingCommentRanges(file.text, 0) ?? [];
  const text = first ? file.text.slice(first.pos, first.end) : '';
  return text.startsWith('/**') ? text : '';
}

it('documents every public export', { timeout: 60_000 }, () => {
  expect(exportsWithoutDocs()).toEqual([]);
});
