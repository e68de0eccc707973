/**
 * The package as `npm pack` makes it: what the tarball holds (the library's three entry points
 * with their declarations, for TypeScript 5 and for 4.3–4.9, a README and the MIT LICENSE) and
 * what it must not (sources, tests, the demo, the extension), and that what it holds works once
 * installed: every file package.json names is in it, every module its modules import is in it
 * or is a dependency, and only `restlens/react` needs React.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildLibrary } from '../../../scripts/build-library.mjs';

interface PackageJson {
  version: string;
  license: string;
  sideEffects: unknown;
  dependencies?: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  types: string;
  typesVersions: Record<string, Record<string, string[]>>;
  exports: Record<string, Record<string, string>>;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
let files: string[] = [];

beforeAll(async () => {
  // What `prepack` does before a real pack; run here so that the JSON on stdout is npm's alone.
  await buildLibrary();
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [packed] = JSON.parse(output) as { files: { path: string }[] }[];
  files = (packed?.files ?? []).map((file) => file.path);
}, 120_000);

/** Module specifiers a bundle or declaration file imports (static, side-effect and dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const patterns = [
    /(?:^|[\s}])from\s*["']([^"']+)["']/gm, // import … from 'x', export … from 'x'
    /^\s*import\s*["']([^"']+)["']/gm, // import 'x'
    /\bimport\(\s*["']([^"']+)["']\s*\)/g, // import('x'), in code and in types
  ];
  return patterns.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => match[1] as string),
  );
}

/** `react/jsx-runtime` → `react`, `@scope/name/x` → `@scope/name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The packages an entry point needs at run time: the bare imports of its modules, transitively. */
function runtimePackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) visit(posix.join(posix.dirname(file), specifier));
      else packages.add(packageOf(specifier));
    }
  };
  visit(entry);
  return packages;
}

describe('npm pack', () => {
  it('holds the README, the MIT LICENSE, package.json and the built library, nothing else', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
    const others = files.filter((file) => !['package.json', 'README.md', 'LICENSE'].includes(file));
    expect(others.filter((file) => !file.startsWith('dist/library/'))).toEqual([]);
    expect(pkg.license).toBe('MIT');
    expect(readFileSync('LICENSE', 'utf8')).toMatch(/^MIT License\n/);
  });

  it('holds no sources, tests, demo or extension files', () => {
    expect(files.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((file) => /(^|\/)(test|e2e|demo|extension)s?\//.test(file))).toEqual([]);
    expect(
      files.filter((file) => /\.(test|spec)\.|\.tsbuildinfo$|\.tgz$|\.zip$/.test(file)),
    ).toEqual([]);
  });

  it('holds every file package.json names: each entry point, its declarations and their TS 4.3–4.9 copy', () => {
    const named = [
      pkg.types,
      ...Object.values(pkg.exports).flatMap((conditions) => Object.values(conditions)),
      ...Object.values(pkg.typesVersions).flatMap((paths) => Object.values(paths).flat()),
    ].map((path) => posix.normalize(path));
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './devtools', './react']);
    for (const entry of Object.values(pkg.exports))
      expect(Object.keys(entry).sort()).toEqual(['import', 'types', 'types@<5.0']);
    expect(named.filter((path) => path.includes('/ts4/'))).toHaveLength(6);
    expect(named.filter((path) => !files.includes(path))).toEqual([]);
  });

  it('holds every module its files import; anything else they import is a dependency or a peer', () => {
    const allowed = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies),
    ]);
    for (const file of files.filter((path) => /\.(js|d\.ts)$/.test(path))) {
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('.')) {
          const target = posix.join(posix.dirname(file), specifier);
          // Declarations import their neighbours as `./x.js`, meaning `./x.d.ts`.
          const candidates = file.endsWith('.d.ts')
            ? [target.replace(/\.js$/, '.d.ts'), posix.join(target, 'index.d.ts')]
            : [target];
          expect(
            candidates.some((candidate) => files.includes(candidate)),
            `${file} → ${specifier}`,
          ).toBe(true);
        } else {
          expect(allowed, `${file} imports ${specifier}`).toContain(packageOf(specifier));
        }
      }
    }
  });

  it("greets the panel with package.json's version, written into the built module", async () => {
    const versionModule = 'dist/library/devtools/page/version.js';
    expect(readFileSync(versionModule, 'utf8')).toContain(JSON.stringify(pkg.version));
    const built = (await import(`../../../${versionModule}`)) as { LIBRARY_VERSION: string };
    expect(built.LIBRARY_VERSION).toBe(pkg.version);
  });

  it('has React as an optional peer that only restlens/react needs, and no side effects', () => {
    expect(pkg.peerDependencies.react).toBeDefined();
    expect(pkg.peerDependenciesMeta.react?.optional).toBe(true);
    const entry = (name: string) => posix.normalize(pkg.exports[name]?.import ?? '');
    expect(runtimePackages(entry('.'))).not.toContain('react');
    expect(runtimePackages(entry('./devtools'))).not.toContain('react');
    expect(runtimePackages(entry('./react'))).toContain('react');
    // Nothing in the library runs on import: a bundler may drop whatever an app does not use.
    expect(pkg.sideEffects).toBe(false);
  });
});
