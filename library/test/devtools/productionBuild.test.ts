import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Bundles an app that renders a DataProvider, as an app's own build would. */
async function bundleApp(nodeEnv: 'production' | 'development'): Promise<string> {
  const result = await build({
    stdin: {
      contents: `
        import { createElement } from 'react';
        import { DataProvider } from './library/src/react/index.ts';
        export const app = createElement(DataProvider, null, 'app');
      `,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    minify: true,
    external: ['react', 'react-dom', 'path-to-regexp'],
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) },
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Strings only the devtools code holds: the protocol tag and the bridge's default store name. */
const DEVTOOLS_MARKERS = ['"restlens"', 'RestLens store', 'replay-result'];

describe('a production build', () => {
  it('leaves the devtools code out entirely', async () => {
    const production = await bundleApp('production');
    for (const marker of DEVTOOLS_MARKERS) expect(production).not.toContain(marker);
  });

  it('while a development build has it', async () => {
    const development = await bundleApp('development');
    for (const marker of DEVTOOLS_MARKERS) expect(development).toContain(marker);
  });
});
