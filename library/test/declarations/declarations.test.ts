/**
 * The published declarations on the oldest and newest supported TypeScript: the package as
 * users install it (package.json as it is, the declarations the build writes) and two of their
 * files, `consumer.ts` and the migration app, compiled strictly with each compiler, with the
 * declarations checked (no `skipLibCheck`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitDeclarations } from '../../../scripts/build-declarations.mjs';

const require = createRequire(import.meta.url);
/**
 * Inside node_modules, so that the declarations' own imports (`react`) resolve as installed.
 * Its real path: tsc names files relative to the real working directory, so in a checkout whose
 * node_modules is a link the error lines would not start with `src/`.
 */
const project = join(realpathSync('node_modules'), '.cache/restlens-declarations');
const sources = {
  'consumer.ts': 'library/test/declarations/consumer.ts',
  'app.tsx': 'library/test/migration/app.tsx',
  'wrong-arguments.ts': 'library/test/declarations/wrong-arguments.ts',
};
/** @types/react 18.2.21, the last that TypeScript 4.3 reads (its `ts5.0` folder serves TS ≤ 5.0). */
const oldReactTypes = resolve('node_modules/types-react-18/ts5.0');

interface Compiler {
  name: string;
  /** Names its tsconfig files. */
  id: string;
  tsc: string;
  /** How the project resolves modules: `node` reads `typesVersions`, `bundler` `exports`. */
  moduleResolution: 'node' | 'bundler';
  reactTypes?: string;
  /** The declarations this compiler must be given: the 4.3–4.9 copy or the main ones. */
  declarations: 'ts4' | 'main';
}

const compilers: Compiler[] = [
  {
    name: 'TypeScript 4.3 (oldest supported)',
    id: '4.3',
    tsc: require.resolve('typescript-4.3/lib/tsc.js'),
    moduleResolution: 'node',
    reactTypes: oldReactTypes,
    declarations: 'ts4',
  },
  {
    name: 'TypeScript 5.0',
    id: '5.0',
    tsc: require.resolve('typescript-5.0/lib/tsc.js'),
    moduleResolution: 'node',
    reactTypes: oldReactTypes,
    declarations: 'main',
  },
  {
    name: 'TypeScript, newest',
    id: 'newest',
    tsc: require.resolve('typescript/lib/tsc.js'),
    moduleResolution: 'bundler',
    declarations: 'main',
  },
];

beforeAll(() => {
  rmSync(project, { recursive: true, force: true });
  const pkg = join(project, 'node_modules/restlens');
  mkdirSync(pkg, { recursive: true });
  // The user's own package: without it, the project would be inside this one, and `restlens`
  // would resolve to this package itself.
  writeFileSync(join(project, 'package.json'), '{ "name": "restlens-user", "private": true }\n');
  cpSync('package.json', join(pkg, 'package.json'));
  emitDeclarations(join(pkg, 'dist/library'));
  for (const [name, source] of Object.entries(sources)) cpSync(source, join(project, 'src', name));
}, 60_000);

/** The tsconfig of a strict user project of these files for this compiler; returns its path. */
function writeTsconfig(compiler: Compiler, files: readonly (keyof typeof sources)[]): string {
  const react = compiler.reactTypes;
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2020',
      lib: ['es2020', 'dom', 'dom.iterable'],
      module: 'esnext',
      moduleResolution: compiler.moduleResolution,
      jsx: 'react-jsx',
      types: [],
      ...(react ? { paths: { react: [react], 'react/*': [`${react}/*`] } } : {}),
    },
    files: files.map((name) => `src/${name}`),
  };
  const path = join(project, `tsconfig.${compiler.id}.${files.join('+')}.json`);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** Compiles the project's files (`src/…`) with `tsc`; returns its output lines and exit status. */
function compile(compiler: Compiler, tsconfig: string, ...options: string[]) {
  const run = spawnSync(
    process.execPath,
    [compiler.tsc, '-p', tsconfig, '--pretty', 'false', ...options],
    { encoding: 'utf8', cwd: project },
  );
  return { lines: run.stdout.split('\n').filter(Boolean), status: run.status };
}

describe('the published declarations compile in a strict project', () => {
  it.each(compilers.map((compiler) => [compiler.name, compiler] as const))(
    '%s',
    (_name, compiler) => {
      const tsconfig = writeTsconfig(compiler, ['consumer.ts', 'app.tsx']);
      const { lines, status } = compile(compiler, tsconfig, '--listFiles');
      const errors = lines
        .filter((line) => !line.startsWith('/'))
        .map((line) => line.replace(/^src\/([\w.]+)/, (_, name: 'consumer.ts') => sources[name]));
      expect(errors).toEqual([]);
      expect(status).toBe(0);
      const entry = lines.find((line) =>
        /restlens\/dist\/library\/(ts4\/)?index\.d\.ts$/.test(line),
      );
      expect(entry?.includes('/ts4/') ? 'ts4' : 'main').toBe(compiler.declarations);
    },
    120_000,
  );
});

it('a wrong argument is one error, not "No overload matches this call"', () => {
  const newest = compilers.at(-1) as Compiler;
  const tsconfig = writeTsconfig(newest, ['wrong-arguments.ts']);
  const { lines } = compile(newest, tsconfig);
  const source = readFileSync(sources['wrong-arguments.ts'], 'utf8').split('\n');
  const wrong = source.flatMap((line, index) => (line.endsWith('// wrong') ? [index + 1] : []));
  const errorLines = lines.flatMap((line) => {
    const at = /^src\/wrong-arguments\.ts\((\d+),\d+\): error/.exec(line);
    return at ? [Number(at[1])] : [];
  });
  expect(errorLines).toEqual(wrong);
  expect(lines.filter((line) => line.includes('No overload matches'))).toEqual([]);
}, 120_000);
