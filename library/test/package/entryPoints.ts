import ts from 'typescript';

/** The package's entry points: `restlens`, `restlens/react`, `restlens/devtools`. */
export const ENTRY_POINTS = [
  'library/src/index.ts',
  'library/src/react/index.ts',
  'library/src/devtools/index.ts',
] as const;

/** An entry point's exports, as the type checker that resolved them sees them. */
export interface EntryExports {
  entry: (typeof ENTRY_POINTS)[number];
  exports: ts.Symbol[];
  checker: ts.TypeChecker;
}

/** Every entry point's exports, compiled with the project's tsconfig.json. */
export function entryExports(): EntryExports[] {
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
  const program = ts.createProgram([...ENTRY_POINTS], config.options);
  const checker = program.getTypeChecker();
  return ENTRY_POINTS.map((entry) => {
    const source = program.getSourceFile(entry);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${entry} is not a module`);
    return { entry, exports: checker.getExportsOfModule(module), checker };
  });
}
