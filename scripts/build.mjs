// Builds the library into dist/library: ESM JavaScript with esbuild, declarations with tsc.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = 'dist/library';
const entryPoints = [
  'library/src/index.ts',
  'library/src/react/index.ts',
  'library/src/devtools/index.ts',
];

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints,
  outdir,
  outbase: 'library/src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
});
execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });

export const built = entryPoints.map((entry) =>
  entry.replace('library/src', outdir).replace(/\.ts$/, '.js'),
);
