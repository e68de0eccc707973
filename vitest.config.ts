import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** Waits out preact's after-paint timers at the end of each file (see the file). */
const PREACT_AFTER_PAINT = 'scripts/vitest-preact-after-paint.ts';

/** The package's entry points (package.json `exports`), as their sources. */
const PACKAGE_ENTRIES = {
  restlens: './library/src/index.ts',
  'restlens/react': './library/src/react/index.ts',
  'restlens/devtools': './library/src/devtools/index.ts',
};

/** Run under preact/compat instead of React; only the `preact` project runs these. */
const preactTests = 'library/test/preact/**/*.preact.test.tsx';

declare module 'vitest' {
  export interface ProvidedContext {
    /** What renders the React tests of this project: 'react 19', 'react 18' or 'preact'. */
    renderer: string;
  }
}

/**
 * A project that runs React tests on another renderer: `modules` maps what the library and the
 * tests import (`react`, `react-dom/client`, …) to what runs instead, in the sources and in the
 * dependencies that import React (@testing-library/react, react-dom), which are pre-bundled so
 * that their own `require('react')` is mapped too and every module shares one renderer.
 */
function renderedBy(
  renderer: string,
  {
    include,
    exclude = [],
    modules,
    alsoImported = [],
    setupFiles = [],
  }: {
    include: string[];
    exclude?: string[];
    modules: Record<string, string>;
    /** The renderer's modules that tests import by their own name. */
    alsoImported?: string[];
    setupFiles?: string[];
  },
): TestProjectInlineConfiguration {
  const replacements = [...Object.values(modules), ...alsoImported];
  return {
    extends: true,
    resolve: {
      alias: Object.entries(modules).map(([find, replacement]) => ({
        find: new RegExp(`^${find.replace('/', '\\/')}$`),
        replacement,
      })),
    },
    test: {
      name: renderer,
      include,
      exclude: [...configDefaults.exclude, ...exclude],
      environment: 'jsdom',
      provide: { renderer },
      setupFiles,
      deps: {
        optimizer: {
          client: {
            enabled: true,
            include: ['@testing-library/react', ...new Set(replacements)],
            rolldownOptions: {
              plugins: [
                {
                  name: `imports-of-react-are-${renderer.replace(' ', '-')}`,
                  resolveId(id) {
                    const replacement = modules[id];
                    return replacement === undefined ? null : this.resolve(replacement);
                  },
                },
              ],
            },
          },
        },
      },
    },
  };
}

export default defineConfig({
  test: {
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        resolve: {
          // The docs' examples import the package by its name; docExamples.test.tsx runs them.
          alias: Object.entries(PACKAGE_ENTRIES).map(([name, source]) => ({
            find: new RegExp(`^${name}$`),
            replacement: fileURLToPath(new URL(source, import.meta.url)),
          })),
        },
        test: {
          name: 'default',
          provide: { renderer: 'react 19' },
          include: ['library/test/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, preactTests],
          typecheck: {
            enabled: true,
            include: ['library/test/**/*.test-d.ts'],
            // Not `tsc` from node_modules/.bin: the older compilers the declaration tests use
            // (npm aliases of typescript) install a `tsc` there too.
            checker: 'node_modules/typescript/bin/tsc',
          },
        },
      },
      renderedBy('react 18', {
        include: ['library/test/react/**/*.test.tsx'],
        modules: {
          react: 'react-18',
          'react/jsx-runtime': 'react-18/jsx-runtime',
          'react/jsx-dev-runtime': 'react-18/jsx-dev-runtime',
          'react-dom': 'react-dom-18',
          'react-dom/client': 'react-dom-18/client',
        },
        setupFiles: ['library/test/setup/windowEvent.ts'],
      }),
      renderedBy('preact', {
        include: ['library/test/react/**/*.test.tsx', preactTests],
        // preact/compat's Suspense fails these (see each file).
        exclude: [
          'library/test/react/navigateAfterDelete.test.tsx',
          'library/test/react/useCancelling.test.tsx',
        ],
        modules: {
          react: 'preact/compat',
          'react/jsx-runtime': 'preact/jsx-runtime',
          'react/jsx-dev-runtime': 'preact/jsx-runtime',
          'react-dom': 'preact/compat',
          'react-dom/client': 'preact/compat/client',
          'react-dom/test-utils': 'preact/test-utils',
        },
        alsoImported: ['preact', 'preact/hooks'],
        setupFiles: [PREACT_AFTER_PAINT],
      }),
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
          setupFiles: [PREACT_AFTER_PAINT],
        },
      },
    ],
  },
});
