/**
 * Builds the benchmark's pages: the app twice from one source (app/main.tsx), once on RestLens
 * (library/src, through tsconfig's paths) and once on data-client 0.9, by resolving `restlens` and
 * `restlens/react` to the shims in app/data-client/; and the plain React page
 * (app/plainReact.tsx), the same app with no library. All are production builds on React 18.3
 * (`react-18`, `react-dom-18`): data-client 0.9's React package cannot run on React 19 (it
 * creates elements with the pre-19 element tag and needs `defaultProps` on function components),
 * and every page must run on the same React.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

export const LIBRARIES = ['restlens', 'data-client'] as const;
export type Library = (typeof LIBRARIES)[number];
/** Every page: one per library, and plain React, the floor under both. */
export const PAGES = [...LIBRARIES, 'plain-react'] as const;
export type PageName = (typeof PAGES)[number];

export const OUT_DIR = 'dist/bench/react';
const APP_DIR = 'scripts/bench/react/app';

const REACT_18 = { react: 'react-18', 'react-dom': 'react-dom-18' };
const ENTRIES: Record<PageName, string> = {
  restlens: 'main.tsx',
  'data-client': 'main.tsx',
  'plain-react': 'plainReact.tsx',
};
const SHIMS: Record<PageName, Record<string, string>> = {
  restlens: {},
  'data-client': {
    restlens: resolve(APP_DIR, 'data-client/index.ts'),
    'restlens/react': resolve(APP_DIR, 'data-client/react.tsx'),
  },
  'plain-react': {},
};

/** One value per library. */
export function perLibrary<T>(value: (library: Library) => T): Record<Library, T> {
  return Object.fromEntries(LIBRARIES.map((library) => [library, value(library)])) as Record<
    Library,
    T
  >;
}

/** Builds every page into OUT_DIR, as `<page>.html` and its script. */
export async function buildPages(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  await Promise.all(PAGES.map(buildPage));
}

async function buildPage(page: PageName): Promise<void> {
  const script = `${page}.js`;
  await build({
    entryPoints: [resolve(APP_DIR, ENTRIES[page])],
    outfile: resolve(OUT_DIR, script),
    bundle: true,
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    alias: { ...REACT_18, ...SHIMS[page] },
    define: { 'process.env.NODE_ENV': '"production"', LIBRARY: JSON.stringify(page) },
    logLevel: 'warning',
  });
  writeFileSync(
    resolve(OUT_DIR, `${page}.html`),
    `<!doctype html>\n<meta charset="utf-8">\n<title>${page}</title>\n<div id="root"></div>\n<script src="${script}"></script>\n`,
  );
}
