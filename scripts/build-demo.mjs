// Builds the demo app (against the built library, as an app would use it), the migration app
// (library/test/migration: an app written as data-client's docs write one, served at
// /migration/) and the demo server.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

export const DEMO_DIR = 'dist/demo';

export async function buildDemo() {
  rmSync(DEMO_DIR, { recursive: true, force: true });
  mkdirSync(DEMO_DIR, { recursive: true });
  await buildApp('e2e/app/client/main.tsx', DEMO_DIR);
  copyFileSync('e2e/app/client/index.html', `${DEMO_DIR}/index.html`);
  await buildApp('library/test/migration/main.tsx', `${DEMO_DIR}/migration`);
  copyFileSync('library/test/migration/index.html', `${DEMO_DIR}/migration/index.html`);
  await build({
    entryPoints: { server: 'e2e/app/server.ts' },
    outdir: DEMO_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return DEMO_DIR;
}

/**
 * An app of the demo, bundled against the built library as an app would use it; a development
 * build, so that its DataProvider connects the devtools.
 */
function buildApp(entry, outdir) {
  return build({
    entryPoints: { app: entry },
    outdir,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    // Inline, as development servers serve them: the panel maps a trace's frames through it.
    sourcemap: 'inline',
    alias: {
      restlens: './dist/library/index.js',
      'restlens/react': './dist/library/react/index.js',
    },
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'warning',
  });
}
