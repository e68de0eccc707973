// `npm run build`: the library into dist/library (ESM + declarations), then the extension.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { emitDeclarations } from './build-declarations.mjs';
import { buildDemo } from './build-demo.mjs';
import { buildExtension } from './build-extension.mjs';

const LIBRARY_DIR = 'dist/library';
const entryPoints = [
  'library/src/index.ts',
  'library/src/react/index.ts',
  'library/src/devtools/index.ts',
];

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

export async function buildAll() {
  const library = await buildLibrary();
  return { library, extension: await buildExtension(), demo: await buildDemo() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const built = await buildAll();
  console.log(`library: ${built.library.join(', ')}`);
  console.log(`extension: ${built.extension.join(', ')}`);
  console.log(`demo: ${built.demo}`);
}
