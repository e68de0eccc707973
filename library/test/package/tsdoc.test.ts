/**
 * Every public export of the three entry points has a doc comment (its one-line summary is what
 * the API reference, `npm run docs`, and editors show): the test lists the exports without one.
 */
import ts from 'typescript';
import { expect, it } from 'vitest';

const ENTRY_POINTS = [
  'library/src/index.ts',
  'library/src/react/index.ts',
  'library/src/devtools/index.ts',
];

function exportsWithoutDocs(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.json',
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram(ENTRY_POINTS, config.options);
  const checker = program.getTypeChecker();
  return ENTRY_POINTS.flatMap((entry) => {
    const source = program.getSourceFile(entry);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${entry} is not a module`);
    return checker.getExportsOfModule(module).flatMap((exported) => {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const summary = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      return summary === '' ? [`${entry}: ${exported.name}`] : [];
    });
  });
}

it('documents every public export', { timeout: 60_000 }, () => {
  expect(exportsWithoutDocs()).toEqual([]);
});
