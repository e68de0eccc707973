/**
 * Builds the benchmark page twice from one source (app/): once on RestLens (library/src, through
 * tsconfig's paths) and once on data-client 0.9, by resolving `restlens` and `restlens/react` to
 * the shims in app/data-client/. Both are production builds on React 18.3 (`react-18`,
 * `react-dom-18`): data-client 0.9's React package cannot run on React 19 (it creates elements
 * with the pre-19 element tag and needs `defaultProps` on function components), and both libraries
 * must run on the same React.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const LIBRARIES = ['restlens', 'data-client'] as const;
export type Library = (typeof LIBRARIES)[number];

const OUT_DIR = 'dist/bench/react';
const APP_DIR = 'scripts/bench/react/app';

const REACT_18 = { react: 'react-18', 'react-dom': 'react-dom-18' };
const SHIMS: Record<Library, Record<string, string>> = {
  restlens: {},
  'data-client': {
    restlens: resolve(APP_DIR, 'data-client/index.ts'),
    'restlens/react': resolve(APP_DIR, 'data-client/react.tsx'),
  },
};

/** One value per library. */
export function perLibrary<T>(value: (library: Library) => T): Record<Library, T> {
  return Object.fromEntries(LIBRARIES.map((library) => [library, value(library)])) as Record<
    Library,
    T
  >;
}

/** Builds both pages; answers each one's file URL. */
export async function buildPages(): Promise<Record<Library, string>> {
  mkdirSync(OUT_DIR, { recursive: true });
  const urls = await Promise.all(LIBRARIES.map(buildPage));
  return perLibrary((library) => urls[LIBRARIES.indexOf(library)] as string);
}

async function buildPage(library: Library): Promise<string> {
  const script = `${library}.js`;
  await build({
    entryPoints: [resolve(APP_DIR, 'main.tsx')],
    outfile: resolve(OUT_DIR, script),
    bundle: true,
    // A classic script: the page is opened from a file:// URL, where module scripts are refused.
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    alias: { ...REACT_18, ...SHIMS[library] },
    define: { 'process.env.NODE_ENV': '"production"', LIBRARY: JSON.stringify(library) },
    logLevel: 'warning',
  });
  const html = resolve(OUT_DIR, `${library}.html`);
  writeFileSync(
    html,
    `<!doctype html>\n<meta charset="utf-8">\n<title>${library}</title>\n<div id="root"></div>\n<script src="${script}"></script>\n`,
  );
  return pathToFileURL(html).href;
}
