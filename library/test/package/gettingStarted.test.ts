/**
 * docs/getting-started.md's "Use it in your app" shows the files of the app that the end-to-end
 * test makes (e2e/own-app): what a reader copies is what `npm test` builds and runs.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const guide = readFileSync('docs/getting-started.md', 'utf8');
const section = guide.slice(
  guide.indexOf('## Use it in your app'),
  guide.indexOf('\n## ', guide.indexOf('## Use it in your app') + 1),
);
const snippets = [...section.matchAll(/```tsx?\n([\s\S]*?)```/g)].map((match) => match[1]);

it.each(['api.ts', 'App.tsx'])(
  'shows e2e/own-app/%s as it is, but for its opening comment',
  (file) => {
    const source = readFileSync(`e2e/own-app/${file}`, 'utf8').replace(/^(\/\/.*\n)+/, '');
    expect(snippets).toContain(source);
  },
);
