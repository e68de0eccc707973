/**
 * The docs as a newcomer meets them: a short README whose example comes first, every docs page
 * reachable from it, links that lead somewhere, and figures only where the bench renders them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesOf } from '../../../scripts/docs/examples.mjs';

const README = 'README.md';
const pages = readdirSync('docs')
  .filter((name) => name.endsWith('.md'))
  .map((name) => join('docs', name));
const read = (path: string) => readFileSync(path, 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The text of a markdown file outside its fenced code blocks. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```$/gm, '');

/** The text outside the blocks that `npm run bench:docs` renders. */
const handWritten = (text: string) =>
  text.replace(/<!-- bench:(\w+) -->[\s\S]*?<!-- \/bench:\1 -->/g, '');

describe('README.md', () => {
  const readme = read(README);

  it('is at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('shows a checked example before line 40', () => {
    expect(examplesOf(README)[0]?.line).toBeLessThan(40);
  });

  it.each(pages)('links to %s', (page) => {
    expect(readme).toContain(`](${page})`);
  });
});

describe.each([README, ...pages])('%s', (path) => {
  const text = read(path);

  it('links only to files and headings that exist', () => {
    const links = [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string);
    const broken = links.filter((link) => {
      if (/^[a-z]+:/.test(link)) return false;
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? path : normalize(join(dirname(path), file));
      if (!existsSync(target)) return true;
      if (anchor === undefined || !target.endsWith('.md')) return false;
      const headings = [...read(target).matchAll(/^#+ (.+)$/gm)].map((match) =>
        anchorOf(match[1] as string),
      );
      return !headings.includes(anchor);
    });
    expect(broken).toEqual([]);
  });

  it('states no measured speed or ratio outside the tables the bench renders', () => {
    const figures = prose(handWritten(text)).match(/\d[\d.,]*\s?(×|µs|ops\/s)/g) ?? [];
    expect(figures).toEqual([]);
  });
});

describe('the API reference', () => {
  it('is built by `npm run docs` (TypeDoc) from the entry points, with no error', {
    timeout: 120_000,
  }, async () => {
    const { Application } = await import('typedoc');
    const app = await Application.bootstrapWithPlugins({ options: 'typedoc.json' });
    const project = await app.convert();
    expect(project).toBeDefined();
    expect(app.logger.errorCount).toBe(0);
    const names = project?.children?.map((module) => module.name).sort();
    expect(names).toEqual(['devtools', 'index', 'react']);
  });
});
