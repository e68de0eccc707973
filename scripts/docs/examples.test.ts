import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { examplesOf } from './examples.mjs';

/** A markdown file of `text`, in a folder of its own. */
function markdown(text: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'restlens-examples-')), 'page.md');
  writeFileSync(path, text);
  return path;
}

it('finds the blocks marked as examples, and which of them run', () => {
  const page = markdown(
    [
      '# Page',
      '```ts',
      'notAnExample();',
      '```',
      '```ts example',
      'checked();',
      '```',
      '- In a list:',
      '',
      '  ```tsx example run=in-a-list',
      '  const a = <b />;',
      '    indented();',
      '  ```',
      '',
    ].join('\n'),
  );
  expect(examplesOf(page)).toEqual([
    { doc: page, line: 5, extension: 'ts', code: 'checked();\n', run: undefined },
    {
      doc: page,
      line: 10,
      extension: 'tsx',
      code: 'const a = <b />;\n  indented();\n',
      run: 'in-a-list',
    },
  ]);
});

it('refuses a marker it does not know, naming the file and line', () => {
  const page = markdown('Text\n\n```ts example runs=typo\ncode();\n```\n');
  expect(() => examplesOf(page)).toThrow(`${page}, line 3: "ts example runs=typo"`);
});
