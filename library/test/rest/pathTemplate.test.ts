/**
 * The path templates of pathTemplate.ts against path-to-regexp 6 (a dev dependency, kept for this
 * comparison), the package data-client 0.9 builds its URLs with: the same tokens or the same
 * error for any template, the same URL for any parameter values (`compile` with values
 * percent-encoded, unvalidated, as RestEndpoint calls it), and the same matcher (`pathToRegexp`,
 * as RestEndpoint's testKey used it).
 */
import fc from 'fast-check';
import { compile, type Key, parse, pathToRegexp } from 'path-to-regexp';
import { describe, expect, it } from 'vitest';
import {
  buildPath,
  type PathParameter,
  type PathToken,
  parsePathTemplate,
  pathMatcher,
} from '../../src/rest/pathTemplate.js';

/** path-to-regexp's parse in our terms (an unnamed parameter's position as text), or its error. */
function theirTokens(template: string): PathToken[] | string {
  try {
    return parse(template).map((token) =>
      typeof token === 'string' ? token : { ...(token as Key), name: String(token.name) },
    );
  } catch (error) {
    return (error as Error).message;
  }
}

function ourTokens(template: string): PathToken[] | string {
  try {
    return parsePathTemplate(template);
  } catch (error) {
    return (error as Error).message;
  }
}

/** The matcher's source and flags, or its error. */
function matcherOf(make: () => RegExp): string {
  try {
    const matcher = make();
    return `/${matcher.source}/${matcher.flags}`;
  } catch (error) {
    return (error as Error).message;
  }
}

function theirPath(template: string, values: Record<string, string>): string {
  return compile(template, { encode: encodeURIComponent, validate: false })(values);
}

function ourPath(template: string, values: Record<string, string>): string {
  return buildPath(parsePathTemplate(template), values);
}

const parametersOf = (template: string) =>
  parsePathTemplate(template).filter((token): token is PathParameter => typeof token !== 'string');

/** Text a URL must escape, and text that is safe, in parameter values. */
const value = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1 }),
  fc.constantFrom('a b', 'a/b', 'a?b#c', '%2e', '..', '', 'ü', '😀', '__proto__', '1'),
);

/** Values for a template: every required parameter, and some of the optional ones. */
const valuesFor = (template: string) =>
  fc
    .tuple(
      ...parametersOf(template).map((parameter) =>
        parameter.modifier === '' || parameter.modifier === '+'
          ? value.map((text) => [parameter.name, text] as const)
          : fc.option(value, { nil: undefined }).map((text) => [parameter.name, text] as const),
      ),
    )
    .map((entries) => {
      const values: Record<string, string> = Object.create(null);
      for (const [name, text] of entries) if (text !== undefined) values[name] = text;
      return values;
    });

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/);
const pattern = fc.constantFrom('(\\d+)', '([a-z]+)', '(\\d+(?:\\.\\d+)?)', '(.*)');
const modifier = fc.constantFrom('', '', '?', '*', '+');

/** Templates as data-client users write them: every form of path-to-regexp 6's syntax. */
const template = fc
  .array(
    fc.oneof(
      word.map((text) => `/${text}`),
      fc
        .tuple(fc.constantFrom('/', '.', '-', ''), word, fc.option(pattern, { nil: '' }), modifier)
        .map(([prefix, name, regexp, mod]) => `${prefix}:${name}${regexp}${mod}`),
      fc.tuple(pattern, modifier).map(([regexp, mod]) => `/${regexp}${mod}`),
      fc
        .tuple(
          fc.constantFrom('/', '/v-', '.', ''),
          fc.option(word, { nil: '' }),
          fc.option(pattern, { nil: '' }),
          fc.constantFrom('', '.json', '-x'),
          modifier,
        )
        .map(
          ([prefix, name, regexp, suffix, mod]) =>
            `{${prefix}${name && `:${name}`}${regexp}${suffix}}${mod}`,
        ),
      fc.constantFrom('\\?per_page=2', '\\?sort=asc&x=\\:y', '.json', '/', 'https\\://a.b'),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

describe('path templates as path-to-regexp 6 reads them', () => {
  it('give the same tokens, or the same error, for any text', () => {
    const syntax = fc.constantFrom(...'/:a_1?*+(){}\\.-#x ');
    fc.assert(
      fc.property(fc.oneof(template, fc.string({ unit: syntax, maxLength: 14 })), (text) => {
        expect(ourTokens(text)).toEqual(theirTokens(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('build the same URL for any values', () => {
    fc.assert(
      fc.property(
        template
          .filter((text) => typeof theirTokens(text) !== 'string')
          .chain((text) => fc.tuple(fc.constant(text), valuesFor(text))),
        ([text, values]) => {
          expect(ourPath(text, values)).toBe(theirPath(text, values));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('match with the same regular expression (or refuse to, alike)', () => {
    fc.assert(
      fc.property(template, (text) => {
        fc.pre(typeof theirTokens(text) !== 'string');
        expect(matcherOf(() => pathMatcher(parsePathTemplate(text)))).toBe(
          matcherOf(() => pathToRegexp(text, [], { end: true, strict: false, sensitive: false })),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['/todos/:id', { id: 'a b/c' }, '/todos/a%20b%2Fc'],
    ['/todos/:id?', {}, '/todos'],
    ['/todos/:id?', { id: '' }, '/todos/'],
    ['/files/:path+', { path: 'a/b' }, '/files/a%2Fb'],
    ['/files/:path*', {}, '/files'],
    ['/todos/:id(\\d+)', { id: '5' }, '/todos/5'],
    ['/todos/(\\d+)', { 0: '5' }, '/todos/5'],
    ['/users/:userId/todos/:id.json', { userId: '1', id: '2' }, '/users/1/todos/2.json'],
    ['/todos{/:id}?', {}, '/todos'],
    ['/todos{/:id}?', { id: '3' }, '/todos/3'],
    ['/todos{/v-:id.json}', { id: '3' }, '/todos/v-3.json'],
    ['/todos\\?per_page=2', {}, '/todos?per_page=2'],
    ['https\\://site.com/:slug', { slug: 'ü' }, 'https://site.com/%C3%BC'],
    ['', {}, ''],
  ] as [string, Record<string, string>, string][])(
    '%s with %j is %s, as path-to-regexp builds it',
    (text, values, path) => {
      expect(ourPath(text, values)).toBe(path);
      expect(theirPath(text, values)).toBe(path);
    },
  );

  it('name every parameter and refuse broken templates as path-to-regexp does', () => {
    expect(
      parametersOf('/:group/things/:number?').map(({ name, modifier }) => [name, modifier]),
    ).toEqual([
      ['group', ''],
      ['number', '?'],
    ]);
    for (const broken of [
      'http://x/:id',
      '/todos/:',
      '/:a:b',
      '/(',
      '/()',
      '/(?x)',
      '/((a))',
      '/{a',
      '/a?',
    ])
      expect(ourTokens(broken)).toEqual(theirTokens(broken));
    expect(() => parsePathTemplate('/todos/:')).toThrow(
      new TypeError('Missing parameter name at 7'),
    );
  });
});
