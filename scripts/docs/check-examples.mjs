// `npm run typecheck` runs this: every example of the docs (a code block of README.md or docs/*.md
// marked `ts example` or `tsx example`; see examples.mjs) is written out as a module of its own
// (dist/doc-examples/) and type-checked against the library's sources, as a user's strict
// TypeScript project would check it. The docs cannot drift from the code's types. Each example
// stands alone: its imports are `restlens`, `restlens/react`, `restlens/devtools` and packages of
// this project.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { docExamples } from './examples.mjs';

const OUT = resolve('dist/doc-examples');

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const written = [];
for (const { doc, extension, code, line } of docExamples()) {
  const file = `${basename(doc, '.md')}-line-${line}.${extension}`;
  // `export {}` makes a module of an example that neither imports nor exports.
  writeFileSync(join(OUT, file), `// ${doc}, line ${line}\n${code}\nexport {};\n`);
  written.push(file);
}
const source = (path) => `../../${path}`;
writeFileSync(
  join(OUT, 'tsconfig.json'),
  JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        jsx: 'react-jsx',
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
        paths: {
          restlens: [source('library/src/index.ts')],
          'restlens/react': [source('library/src/react/index.ts')],
          'restlens/devtools': [source('library/src/devtools/index.ts')],
        },
      },
      files: written,
    },
    null,
    2,
  ),
);
const checked = spawnSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', join(OUT, 'tsconfig.json')],
  {
    stdio: 'inherit',
  },
);
if (checked.status !== 0) {
  console.error(
    `The docs' examples do not type-check (written to ${OUT}, each named after its file and line).`,
  );
  process.exit(1);
}
console.log(`${written.length} examples in the docs type-check`);
