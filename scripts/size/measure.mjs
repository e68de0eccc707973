// `npm run size`: the production bundle of a typical app, built as an app's bundler builds it —
// esbuild with `bundle`, `minify`, `format: 'esm'`, `process.env.NODE_ENV` defined as
// "production", react and react-dom external — against RestLens and against @data-client/rest +
// @data-client/react 0.9.9; sizes minified and min+gzip (Node's zlib, level 9).
//
// The app is the one docs/getting-started.md's "Use it in your app" writes (e2e/own-app: createResource,
// Entity, DataProvider, useSuspense, useController), copied into a temporary folder as its own
// source. RestLens is there as an app installs it: the built library (dist/library, as `npm run
// build` writes its modules) in node_modules/restlens, with this package.json, so that its
// `exports` and `sideEffects: false` decide what the app bundles, as they do for a user. Built from
// the sources, not from a dist/library that may be stale; and not the sources themselves, since
// how the library is built changes what an app can leave out.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { buildLibraryModules, LIBRARY_DIR } from '../build-library.mjs';

/** The app's source files, and its module that the bundle starts from. */
const APP = 'e2e/own-app';
const ENTRY = 'App.tsx';
/** Where `npm run size` writes what it measured. */
const REPORT_PATH = 'dist/bench/size.json';

/** The goal for the typical app's bundle, min+gzip: 15 kB (decimal, as bundle sizes are given). */
export const GOAL_GZIPPED = 15_000;

/**
 * What the typical app's bundle must not grow past, min+gzip (library/test/package/bundleSize.test.ts):
 * its size when this was set, 21,532 B, and a little room. Beyond what data-client's bundle of the
 * same app holds, the bytes pay for the persistent tables that keep every state a snapshot; the
 * indexes that make a write cost what it changes; a change-set that says what the reducer decided
 * (kept answers, the settled optimistic request, a deleted entity's last fields), from which the
 * registry of readers by row re-checks only the hooks it names; the store's sequence that orders
 * answers crossing a delete or each other; requests a caller aborts without failing the others
 * that share them; argument values sent in their JSON form; values copied as they are stored and
 * pks too large to be exact refused; object schemas read as their shape and from the tables;
 * current data-client's Controller (`set`, `get` of a Query, `getQueryMeta`, `getResponseMeta`,
 * methods of a class, so in every bundle). The goal is not reached (docs/benchmarks.md, Bundle
 * size; `npm run size -- --floor` weighs the bundle without the parts that have no counterpart
 * in data-client): lower this with each cut, down to it.
 */
export const CEILING_GZIPPED = 21_542;

/**
 * Copies the app into a temporary folder, `install`s what it imports there, and bundles it for
 * production with `alias` redirecting imports: the size of the bundle and what it is made of.
 */
async function bundleApp({ install = async () => {}, alias = {} }) {
  const folder = mkdtempSync(join(tmpdir(), 'restlens-size-'));
  try {
    cpSync(APP, join(folder, 'src'), { recursive: true });
    await install(folder);
    return await bundle(join(folder, 'src', ENTRY), alias);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function bundle(entry, alias) {
  const result = await build({
    entryPoints: [entry],
    // What the temporary folder lacks (@data-client, for the comparison) is this repository's.
    nodePaths: [resolve('node_modules')],
    alias,
    bundle: true,
    minify: true,
    format: 'esm',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react-dom'],
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  return {
    minified: code.length,
    gzipped: gzipSync(code, { level: 9 }).length,
    parts: partsOf(output.inputs),
  };
}

/** The bytes each library module or other package put in the bundle, biggest first. */
function partsOf(inputs) {
  const bytes = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const name = shortName(path);
    bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
  }
  return [...bytes]
    .map(([name, size]) => ({ name, bytes: size }))
    .filter((part) => part.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
}

/** `rest/paths.js` for a module of the library, `@data-client/core` for a package's, `app.tsx`. */
function shortName(path) {
  const library = path.lastIndexOf(`${LIBRARY_DIR}/`);
  if (library !== -1) return path.slice(library + LIBRARY_DIR.length + 1);
  const packages = path.split('node_modules/');
  if (packages.length === 1) return `${APP}/${path.split('/').at(-1)}`;
  const parts = packages.at(-1).split('/');
  return parts.slice(0, parts[0].startsWith('@') ? 2 : 1).join('/');
}

/**
 * The parts of RestLens that data-client has no counterpart for, which the goals of writes and
 * of the devtools need: what `--floor` leaves out to show what the rest of the bundle weighs.
 */
export const PARTS_WITHOUT_COUNTERPART = {
  'persistent tables (a write copies what it changes)': [
    'normalize/persistentMap.js',
    'normalize/trie.js',
    'normalize/memberList.js',
    'normalize/tables.js',
  ],
  'the change-set (what readers and the devtools are told)': [
    'normalize/changes.js',
    'normalize/collectionChange.js',
  ],
  'reader subscriptions (only the components whose reading changed render)': ['react/readers.js'],
  'write indexes (a write costs what it changes, however many lists)': [
    'normalize/rowsHolding.js',
    'normalize/entityIndexes.js',
  ],
};

/**
 * The typical app built against RestLens, as installed from this repository; the modules
 * `without` names (paths in the built library) replaced by stubs that export the same names and
 * do nothing: what the bundle would weigh without them (it would not run).
 */
export function measureRestLens({ without = [] } = {}) {
  return bundleApp({
    install: async (folder) => {
      const installed = join(folder, 'node_modules', 'restlens');
      cpSync('package.json', join(installed, 'package.json'));
      await buildLibraryModules(join(installed, LIBRARY_DIR));
      for (const module of without) await stubModule(join(installed, LIBRARY_DIR, module));
    },
  });
}

/** Replaces a built module by one exporting the same names as empty functions. */
async function stubModule(path) {
  const { metafile } = await build({
    entryPoints: [path],
    metafile: true,
    write: false,
    format: 'esm',
    logLevel: 'silent',
  });
  const [output] = Object.values(metafile.outputs);
  const names = output.exports.filter((name) => name !== 'default');
  writeFileSync(path, names.map((name) => `export function ${name}() {}\n`).join(''));
}

/** The same app built against @data-client/rest and @data-client/react 0.9.9. */
export function measureDataClient() {
  return bundleApp({
    alias: {
      restlens: '@data-client/rest',
      'restlens/react': resolve('scripts/size/data-client-react.ts'),
    },
  });
}

/** The biggest parts of a bundle, a line each. */
function biggest(parts, count) {
  return parts
    .slice(0, count)
    .map(({ name, bytes }) => `  ${bytes.toLocaleString('en').padStart(7)}  ${name}`)
    .join('\n');
}

/**
 * `npm run size -- --floor`: the bundle without each part data-client has no counterpart for,
 * and without all of them: what the rest weighs, against the goal.
 */
async function printFloor() {
  const whole = await measureRestLens();
  const lines = [`The typical app's bundle, min+gzip: ${whole.gzipped.toLocaleString('en')} B`];
  for (const [part, modules] of Object.entries(PARTS_WITHOUT_COUNTERPART)) {
    const { gzipped } = await measureRestLens({ without: modules });
    lines.push(`  without ${part}: −${(whole.gzipped - gzipped).toLocaleString('en')} B`);
  }
  const rest = await measureRestLens({ without: Object.values(PARTS_WITHOUT_COUNTERPART).flat() });
  lines.push(
    `Without all of them (the bundle would not run): ${rest.gzipped.toLocaleString('en')} B, against a goal of ${GOAL_GZIPPED.toLocaleString('en')} B`,
  );
  console.log(lines.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--floor')) {
  await printFloor();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const [ours, dataClient] = await Promise.all([measureRestLens(), measureDataClient()]);
  const row = (name, { minified, gzipped }) =>
    `${name.padEnd(28)}${`${minified.toLocaleString('en')} B`.padStart(10)}${`${gzipped.toLocaleString('en')} B`.padStart(12)}`;
  const over = (limit) =>
    ours.gzipped <= limit
      ? `within (${(limit - ours.gzipped).toLocaleString('en')} B to spare)`
      : `OVER by ${(ours.gzipped - limit).toLocaleString('en')} B`;
  console.log(
    [
      `The typical app (${APP}), esbuild --minify, NODE_ENV=production, React external:`,
      `${''.padEnd(28)}${'minified'.padStart(10)}${'min+gzip'.padStart(12)}`,
      row('RestLens', ours),
      row('@data-client/rest 0.9.9', dataClient),
      `Ceiling (the test's): ${CEILING_GZIPPED.toLocaleString('en')} B min+gzip, ${over(CEILING_GZIPPED)}`,
      `Goal: ${GOAL_GZIPPED.toLocaleString('en')} B min+gzip, ${over(GOAL_GZIPPED)}`,
      '',
      'Biggest parts of RestLens’s bundle (minified bytes, esbuild metafile):',
      biggest(ours.parts, 15),
      '',
      'Biggest parts of data-client’s:',
      biggest(dataClient.parts, 8),
    ].join('\n'),
  );
  // For `npm run bench:docs`, which renders it into docs/benchmarks.md and the README.
  mkdirSync('dist/bench', { recursive: true });
  const sizes = ({ minified, gzipped }) => ({ minified, gzipped });
  writeFileSync(
    REPORT_PATH,
    `${JSON.stringify(
      {
        app: APP,
        restlens: sizes(ours),
        dataClient: sizes(dataClient),
        goalGzipped: GOAL_GZIPPED,
        ceilingGzipped: CEILING_GZIPPED,
        date: new Date().toISOString(),
      },
      null,
      2,
    )}\n`,
  );
  if (ours.gzipped > CEILING_GZIPPED) process.exitCode = 1;
}
