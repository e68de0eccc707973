// The docs' examples: the fenced code blocks of README.md and docs/*.md whose info string is
// `ts example` or `tsx example`. `npm run typecheck` type-checks every one (check-examples.mjs);
// one marked `run=<name>` as well (```tsx example run=todo-list) is also run against the demo
// server by `npm test` (library/test/package/docExamples.test.tsx), where the check of that name
// says what it must show. Markdown renders the info string's first word only, so readers never
// see the marker.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The markdown files whose examples are checked. */
const DOCS = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

// A block may be indented (inside a list item): its closing fence and its lines share the indent.
const EXAMPLE = /^( *)```(tsx?) example\b(.*)\n([\s\S]*?)^\1```$/gm;
const RUN = /^ run=([\w-]+)$/;

/** The examples of one markdown file, in order. */
export function examplesOf(doc) {
  const text = readFileSync(doc, 'utf8');
  return [...text.matchAll(EXAMPLE)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    const [, indent, extension, marker, indented] = match;
    const run = marker === '' ? undefined : RUN.exec(marker)?.[1];
    // A misspelt marker would leave the example unchecked without a word: refuse it instead.
    if (marker !== '' && run === undefined)
      throw new Error(
        `${doc}, line ${line}: "${extension} example${marker}" is neither "${extension} example" nor "${extension} example run=<name>"`,
      );
    const code = indented.replace(new RegExp(`^${indent}`, 'gm'), '');
    return { doc, line, extension, code, run };
  });
}

/** Every example of the docs. */
export function docExamples() {
  return DOCS.flatMap(examplesOf);
}
