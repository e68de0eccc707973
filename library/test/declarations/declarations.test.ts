/**
 * The published declarations on the oldest and newest supported TypeScript: the package as
 * users install it (package.json as it is, the declarations the build writes) and two of their
 * files, `consumer.ts` and the migration app, compiled strictly with each compiler, with the
 * declarations checked (no `skipLibCheck`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitDeclarations } from '../../../scripts/build-declarations.mjs';

const require = createRequire(import.meta.url);
/** Inside node_modules, so that the declarations' own imports (`react`) resolve as installed. */
const project = resolve('node_modules/.cache/restlens-declarations');
const sources = {
  'consumer.ts': 'library/test/declarations/consumer.ts',
  'app.tsx': 'library/test/migration/app.tsx',
};
/** @types/react 18.2.21, the last that TypeScript 4.3 reads (its `ts5.0` folder serves TS ≤ 5.0). */
const oldReactTypes = resolve('node_modules/types-react-18/ts5.0');

interface Compiler {
  name: string;
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
    tsc: require.resolve('typescript-4.3/lib/tsc.js'),
    moduleResolution: 'node',
    reactTypes: oldReactTypes,
    declarations: 'ts4',
  },
  {
    name: 'TypeScript 5.0',
    tsc: require.resolve('typescript-5.0/lib/tsc.js'),
    moduleResolution: 'node',
    reactTypes: oldReactTypes,
    declarations: 'main',
  },
  {
    name: 'TypeScript, newest',
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

/** The tsconfig of a strict user project for this compiler; returns its path. */
function writeTsconfig(compiler: Compiler, index: number): string {
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
    files: Object.keys(sources).map((name) => `src/${name}`),
  };
  const path = join(project, `tsconfig.${index}.json`);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

describe('the published declarations compile in a strict project', () => {
  it.each(compilers.map((compiler, index) => [compiler.name, compiler, index] as const))(
    '%s',
    (_name, compiler, index) => {
      const tsconfig = writeTsconfig(compiler, index);
      const run = spawnSync(
        process.execPath,
        [compiler.tsc, '-p', tsconfig, '--pretty', 'false', '--listFiles'],
        { encoding: 'utf8' },
      );
      const lines = run.stdout.split('\n').filter(Boolean);
      const errors = lines
        .filter((line) => !line.startsWith('/'))
        .map((line) => line.replace(/^src\/([\w.]+)/, (_, name: 'consumer.ts') => sources[name]));
      expect(errors).toEqual([]);
      expect(run.status).toBe(0);
      const index_ = lines.find((line) =>
        /restlens\/dist\/library\/(ts4\/)?index\.d\.ts$/.test(line),
      );
      expect(index_?.includes('/ts4/') ? 'ts4' : 'main').toBe(compiler.declarations);
    },
    120_000,
  );
});
