import { configDefaults, defineConfig } from 'vitest/config';

/** Run under preact/compat instead of React; only the `preact` project runs these. */
const preactTests = 'library/test/preact/**/*.preact.test.tsx';

export default defineConfig({
  test: {
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['library/test/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, preactTests],
          typecheck: { enabled: true, include: ['library/test/**/*.test-d.ts'] },
        },
      },
      {
        extends: true,
        // `react` and `react-dom` (and the JSX runtime that .tsx files compile to) are
        // preact/compat here, in the library's source as in the test.
        resolve: {
          alias: [
            { find: /^react$/, replacement: 'preact/compat' },
            { find: /^react-dom$/, replacement: 'preact/compat' },
            { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
          ],
        },
        test: {
          name: 'preact',
          include: [preactTests],
          environment: 'jsdom',
        },
      },
      {
        extends: true,
        // The extension's panel is Preact: JSX compiles to preact's runtime, and anything that
        // imports `react` gets preact/compat, as in the esbuild bundle.
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
        resolve: {
          alias: [
            { find: /^react$/, replacement: 'preact/compat' },
            { find: /^react-dom$/, replacement: 'preact/compat' },
          ],
        },
        test: {
          name: 'extension',
          include: ['extension/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
