// Builds the library into dist/library: one ES module for each source module, with the
// declarations. `npm pack` and `npm publish` run it (package.json `prepack`), so a tarball always
// holds a fresh build.
//
// Not bundled into chunks: an app's bundler drops what the app does not use module by module
// (package.json `sideEffects: false`), and a chunk that holds many modules is kept whole once any
// of them is used (`export * as schema` then keeps every schema class, and a chunk shared with
// the devtools keeps their validators): the typical app of `npm run size` grew by a tenth.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { emitDeclarations } from './build-declarations.mjs';

export const LIBRARY_DIR = 'dist/library';

/** The package's entry points (package.json `exports`), as built. */
const ENTRY_POINTS = ['index.js', 'react/index.js', 'devtools/index.js'];

/** The module that reads the library's version from package.json. */
const VERSION_MODULE = 'library/src/devtools/page/version.ts';

/** Writes the library's modules, without declarations, to `outdir`. */
export async function buildLibraryModules(outdir = LIBRARY_DIR) {
  const options = {
    outdir,
    outbase: 'library/src',
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  };
  await build({
    ...options,
    entryPoints: ['library/src/**/*.ts', 'library/src/**/*.tsx'],
  });
  // Again, bundled: the version is inlined, not an import of package.json (which an app would
  // bundle whole, and which a module of the package cannot import without an import attribute).
  await build({ ...options, entryPoints: [VERSION_MODULE], bundle: true });
}

/** Builds the library; resolves with its entry points' files. */
export async function buildLibrary() {
  rmSync(LIBRARY_DIR, { recursive: true, force: true });
  await buildLibraryModules();
  emitDeclarations();
  return ENTRY_POINTS.map((entry) => `${LIBRARY_DIR}/${entry}`);
}

// `node scripts/build-library.mjs`: only the library (`npm run build` builds everything).
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`library: ${(await buildLibrary()).join(', ')}`);
}
