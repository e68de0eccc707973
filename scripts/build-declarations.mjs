// The library's declarations: dist/library/**/*.d.ts, written by TypeScript, for TypeScript 5.0
// and newer, and a copy of each in dist/library/ts4/ for TypeScript 4.3 to 4.9 (package.json's
// `typesVersions` and `types@<5.0` send those compilers there).
//
// The sources keep their published types to the syntax of TypeScript 4.3 with two exceptions,
// which the copy undoes: `const` type parameters (5.0; they keep the literal types of nested
// options such as `extend({ getList: { path: '/x' } })`, which older compilers widen to
// `string`), and `type` modifiers on imported and exported names (4.5).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The folder of the copy for TypeScript 4.3–4.9, inside the declarations folder. */
export const DOWNLEVEL_DIR = 'ts4';

/** Writes the declarations of `tsconfig.build.json` to `outDir` (its own by default). */
export function emitDeclarations(outDir) {
  const config = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.build.json',
    outDir ? { outDir: resolve(outDir) } : {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) },
  );
  const program = ts.createProgram(config.fileNames, config.options);
  const root = config.options.outDir;
  const printer = ts.createPrinter({ removeComments: false });
  const writeFile = (fileName, text) => {
    write(fileName, text);
    const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
    const [older] = ts.transform(source, [downlevel]).transformed;
    write(join(root, DOWNLEVEL_DIR, relative(root, fileName)), printer.printFile(older));
  };
  const { diagnostics } = program.emit(undefined, writeFile, undefined, true);
  const errors = [...ts.getPreEmitDiagnostics(program), ...diagnostics];
  if (errors.length > 0) fail(errors);
  return root;
}

/** Drops the `const` modifier of type parameters and the `type` modifier of import/export names. */
function downlevel(context) {
  const { factory } = context;
  const visit = (node) => {
    if (ts.isTypeParameterDeclaration(node) && node.modifiers?.length) {
      const modifiers = node.modifiers.filter((m) => m.kind !== ts.SyntaxKind.ConstKeyword);
      return factory.updateTypeParameterDeclaration(
        node,
        modifiers,
        node.name,
        ts.visitNode(node.constraint, visit),
        ts.visitNode(node.default, visit),
      );
    }
    // In a declaration file every import is a type import: the modifier can go.
    if (ts.isImportSpecifier(node) && node.isTypeOnly)
      return factory.updateImportSpecifier(node, false, node.propertyName, node.name);
    if (ts.isExportSpecifier(node) && node.isTypeOnly)
      return factory.updateExportSpecifier(node, false, node.propertyName, node.name);
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => ts.visitNode(file, visit);
}

function write(fileName, text) {
  mkdirSync(dirname(fileName), { recursive: true });
  writeFileSync(fileName, text);
}

function fail(diagnostics) {
  const host = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => '\n',
  };
  throw new Error(ts.formatDiagnostics(diagnostics, host));
}
