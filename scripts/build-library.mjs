// Builds the library into dist/library: ESM bundles of its three entry points (restlens,
// restlens/react, restlens/devtools) with their declarations. `npm pack` and `npm publish` run it
// (package.json `prepack`), so a tarball always holds a fresh build.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { emitDeclarations } from './build-declarations.mjs';

export const LIBRARY_DIR = 'dist/library';

const entryPoints = [
  'library/src/index.ts',
  'library/src/react/index.ts',
  'library/src/devtools/index.ts',
];

/** Builds the library; resolves with its entry points' files. */
export async function buildLibrary() {
  rmSync(LIBRARY_DIR, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir: LIBRARY_DIR,
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
  emitDeclarations();
  return entryPoints.map((entry) =>
    entry.replace('library/src', LIBRARY_DIR).replace(/\.ts$/, '.js'),
  );
}

// `node scripts/build-library.mjs`: only the library (`npm run build` builds everything).
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`library: ${(await buildLibrary()).join(', ')}`);
}
