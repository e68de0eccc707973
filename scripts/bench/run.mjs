// Entry point of `npm run bench` (node --expose-gc scripts/bench/run.mjs [filter] [--quick]).
// The bench and library/src are TypeScript: esbuild bundles them into one ES module, which then
// runs in this process. The reference packages stay external and load from node_modules.
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// Paths below (and the report path in main.ts) are relative to the project root.
process.chdir(fileURLToPath(new URL('../..', import.meta.url)));

// The reference skips its development-only checks in production, as its own benchmarks run it;
// it reads NODE_ENV at call time, so this must be set before the bundle runs.
process.env.NODE_ENV = 'production';

// Inside dist/ so that the bundle's bare imports resolve from this project's node_modules.
const outfile = resolve('dist/bench/bench.mjs');
await build({
  absWorkingDir: process.cwd(),
  entryPoints: [resolve('scripts/bench/main.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
