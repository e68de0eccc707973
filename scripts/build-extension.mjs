// Builds the extension for Chrome and Firefox from the one manifest.json.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { lensIcon } from './icons.mjs';

export const EXTENSION_DIR = 'dist/extension';

const entries = {
  content: 'extension/src/content/index.ts',
  background: 'extension/src/background/index.ts',
  devtools: 'extension/src/devtools/index.ts',
  panel: 'extension/src/panel/index.tsx',
};

const page = (title, script, body = '') => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    ${script === 'panel' ? '<link rel="stylesheet" href="panel.css" />' : ''}
  </head>
  <body>
    ${body}
    <script src="${script}.js"></script>
  </body>
</html>
`;

/** Per-browser manifest: Chrome runs a service worker, Firefox background scripts. */
export function manifestFor(browser, manifest) {
  const { background: _background, ...rest } = manifest;
  if (browser === 'chrome') return { ...rest, background: { service_worker: 'background.js' } };
  return {
    ...rest,
    background: { scripts: ['background.js'] },
    browser_specific_settings: {
      gecko: {
        id: 'restlens@restlens.dev',
        strict_min_version: '140.0',
        data_collection_permissions: { required: ['none'] },
      },
      // `data_collection_permissions` arrived in Firefox for Android 142 (desktop: 140).
      gecko_android: { strict_min_version: '142.0' },
    },
  };
}

export async function buildExtension() {
  const manifest = JSON.parse(readFileSync('manifest.json', 'utf8'));
  const scratch = join(EXTENSION_DIR, '.bundle');
  rmSync(EXTENSION_DIR, { recursive: true, force: true });
  await build({
    entryPoints: entries,
    outdir: scratch,
    bundle: true,
    format: 'iife',
    target: ['chrome120', 'firefox128'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    define: { 'process.env.NODE_ENV': '"production"' },
    // Preact's renderer writes `dom.innerHTML` for `dangerouslySetInnerHTML`, which web-ext
    // lint reports (UNSAFE_VAR_ASSIGNMENT) and which the panel must never use: values are
    // rendered as text only. Renaming the `innerHTML` property throughout our bundles turns
    // that branch into a harmless expando write, so no bundle can set HTML from a string.
    // (Quoted accesses, `el['innerHTML']`, are not renamed: web-ext lint still catches them.)
    mangleProps: /^innerHTML$/,
    mangleCache: { innerHTML: 'innerHTML_disabledByRestLens' },
    minify: false,
    sourcemap: false,
    logLevel: 'warning',
  });
  const dirs = [];
  for (const browser of ['chrome', 'firefox']) {
    const dir = join(EXTENSION_DIR, browser);
    mkdirSync(join(dir, 'icons'), { recursive: true });
    writeFileSync(
      join(dir, 'manifest.json'),
      `${JSON.stringify(manifestFor(browser, manifest), null, 2)}\n`,
    );
    for (const name of Object.keys(entries)) {
      writeFileSync(join(dir, `${name}.js`), readFileSync(join(scratch, `${name}.js`)));
    }
    writeFileSync(join(dir, 'panel.css'), readFileSync(join(scratch, 'panel.css')));
    writeFileSync(join(dir, 'devtools.html'), page('RestLens', 'devtools'));
    writeFileSync(join(dir, 'panel.html'), page('RestLens', 'panel', '<div id="app"></div>'));
    for (const size of [16, 32, 48, 128])
      writeFileSync(join(dir, 'icons', `icon-${size}.png`), lensIcon(size));
    dirs.push(dir);
  }
  rmSync(scratch, { recursive: true, force: true });
  return dirs;
}

// `node scripts/build-extension.mjs`: only the extension (`npm run build` builds everything).
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`extension: ${(await buildExtension()).join(', ')}`);
}
