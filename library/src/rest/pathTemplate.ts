/**
 * Path templates in the syntax of path-to-regexp 6, which data-client 0.9 paths are written in:
 * `:name`, `:name?` (optional), `:name+` and `:name*` (repeated), `:name(\\d+)` and `(\\d+)` (a
 * pattern), `{/text:name}?` groups, and `\\` before a character that is text (`\\?per_page=50`,
 * `https\\://`). Parsed as path-to-regexp 6.3 parses them with its default options, same tokens
 * and same errors (their messages in development builds; production builds say only that the
 * template is refused, which paths.ts names), so every template builds the same URLs
 * (path-to-regexp's `compile`, values percent-encoded) and its matcher accepts the same paths
 * (`pathToRegexp`, not case-sensitive, an optional delimiter at the end);
 * library/test/rest/pathTemplate.test.ts compares the two.
 *
 * Purpose-built, not the package: the library needs only these three things of it, and they cost
 * an app's production bundle about half of what path-to-regexp does (1.1 kB against 2.1 kB
 * min+gzip, `npm run size`).
 */

/** A parameter of a template. */
export interface PathParameter {
  /** Its name; for a pattern without one, its position among those (`"0"`); `""` for a group of text only. */
  name: string;
  /** Text written before the value: the `/` or `.` in front of `:name`, or a group's leading text. */
  prefix: string;
  /** A group's text after the value. */
  suffix: string;
  /** The regular expression (source) a value matches; `""` for a group of text only. */
  pattern: string;
  /** `?` optional, `*` optional and repeated, `+` repeated, `''` once. */
  modifier: string;
}

/** A template as text and parameters, in order. */
export type PathToken = string | PathParameter;

type LexemeType =
  | 'MODIFIER'
  | 'ESCAPED_CHAR'
  | 'OPEN'
  | 'CLOSE'
  | 'NAME'
  | 'PATTERN'
  | 'CHAR'
  | 'END';

interface Lexeme {
  type: LexemeType;
  /** Where it starts in the template (errors name it). */
  index: number;
  /** Undefined for a `\\` that ends the template, which escapes nothing. */
  value: string | undefined;
}

/** What ends a segment: a parameter without a pattern takes any text up to one of these. */
const DELIMITERS = '/#?';
/** The characters before `:name` that become its prefix (left out with an optional value). */
const PREFIXES = './';
const NAME = /^\w*/;

/** Splits a template into its lexemes; a `:` without a name or a broken `(…)` is refused. */
function lex(template: string): Lexeme[] {
  const lexemes: Lexeme[] = [];
  let i = 0;
  const push = (type: LexemeType, value: string | undefined, end: number) => {
    lexemes.push({ type, index: i, value });
    i = end;
  };
  while (i < template.length) {
    const char = template[i] as string;
    if (char === '*' || char === '+' || char === '?') push('MODIFIER', char, i + 1);
    else if (char === '\\') push('ESCAPED_CHAR', template[i + 1], i + 2);
    else if (char === '{') push('OPEN', char, i + 1);
    else if (char === '}') push('CLOSE', char, i + 1);
    else if (char === ':') {
      const name = (NAME.exec(template.slice(i + 1)) as RegExpExecArray)[0];
      if (!name)
        throw new TypeError(
          process.env.NODE_ENV !== 'production' ? `Missing parameter name at ${i}` : '',
        );
      push('NAME', name, i + 1 + name.length);
    } else if (char === '(') {
      const [pattern, end] = lexPattern(template, i);
      push('PATTERN', pattern, end);
    } else push('CHAR', char, i + 1);
  }
  push('END', '', i);
  return lexemes;
}

/** The pattern of the `(…)` at `start` and where it ends; its own groups must not capture. */
function lexPattern(template: string, start: number): [pattern: string, end: number] {
  let depth = 1;
  let pattern = '';
  let j = start + 1;
  if (template[j] === '?')
    throw new TypeError(
      process.env.NODE_ENV !== 'production' ? `Pattern cannot start with "?" at ${j}` : '',
    );
  while (j < template.length) {
    if (template[j] === '\\') {
      pattern += template.slice(j, j + 2);
      j += 2;
      continue;
    }
    if (template[j] === ')') {
      depth--;
      if (depth === 0) {
        j++;
        break;
      }
    } else if (template[j] === '(') {
      depth++;
      if (template[j + 1] !== '?')
        throw new TypeError(
          process.env.NODE_ENV !== 'production' ? `Capturing groups are not allowed at ${j}` : '',
        );
    }
    pattern += template[j++];
  }
  if (depth)
    throw new TypeError(
      process.env.NODE_ENV !== 'production' ? `Unbalanced pattern at ${start}` : '',
    );
  if (!pattern)
    throw new TypeError(process.env.NODE_ENV !== 'production' ? `Missing pattern at ${start}` : '');
  return [pattern, j];
}

/** The template's text and parameters; a template path-to-regexp 6 refuses is refused alike. */
export function parsePathTemplate(template: string): PathToken[] {
  const lexemes = lex(template);
  const tokens: PathToken[] = [];
  let unnamed = 0;
  let at = 0;
  let text = '';
  const take = (type: LexemeType) =>
    lexemes[at]?.type === type ? (lexemes[at++] as Lexeme).value : undefined;
  const mustTake = (type: LexemeType) => {
    const value = take(type);
    if (value !== undefined) return value;
    const { type: found, index } = lexemes[at] as Lexeme;
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `Unexpected ${found} at ${index}, expected ${type}`
        : '',
    );
  };
  const takeText = () => {
    let taken = '';
    for (;;) {
      const value = take('CHAR') || take('ESCAPED_CHAR');
      if (!value) return taken;
      taken += value;
    }
  };
  const anyValue = (prefix: string) => anyValuePattern(tokens.at(-1), prefix);
  const endText = () => {
    if (text) tokens.push(text);
    text = '';
  };

  while (at < lexemes.length) {
    const char = take('CHAR');
    const name = take('NAME');
    const pattern = take('PATTERN');
    if (name || pattern) {
      let prefix = char || '';
      if (!PREFIXES.includes(prefix)) {
        text += prefix;
        prefix = '';
      }
      endText();
      tokens.push({
        name: name || String(unnamed++),
        prefix,
        suffix: '',
        pattern: pattern || anyValue(prefix),
        modifier: take('MODIFIER') || '',
      });
      continue;
    }
    const value = char || take('ESCAPED_CHAR');
    if (value) {
      text += value;
      continue;
    }
    endText();
    if (take('OPEN')) {
      const prefix = takeText();
      const groupName = take('NAME') || '';
      const groupPattern = take('PATTERN') || '';
      const suffix = takeText();
      mustTake('CLOSE');
      tokens.push({
        name: groupName || (groupPattern ? String(unnamed++) : ''),
        pattern: groupName && !groupPattern ? anyValue(prefix) : groupPattern,
        prefix,
        suffix,
        modifier: take('MODIFIER') || '',
      });
      continue;
    }
    mustTake('END');
  }
  return tokens;
}

/**
 * The pattern of a parameter without one: any text but a delimiter, and not the text just before
 * the parameter (`/:a-:b`), which is its prefix or the token before it.
 */
function anyValuePattern(previous: PathToken | undefined, prefix: string): string {
  const before = prefix || (typeof previous === 'string' ? previous : '');
  if (previous && !before) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `Must have text between two parameters, missing text after "${(previous as PathParameter).name}"`
        : '',
    );
  }
  const notDelimiter = `[^${escapeRegExp(DELIMITERS)}]`;
  if (!before || [...DELIMITERS].some((delimiter) => before.includes(delimiter)))
    return `${notDelimiter}+?`;
  return `(?:(?!${escapeRegExp(before)})${notDelimiter})+?`;
}

/**
 * The path for these parameter values (text), each percent-encoded between its prefix and
 * suffix. A parameter without a value is left out with its prefix and suffix: the caller has
 * refused missing required ones already.
 */
export function buildPath(tokens: readonly PathToken[], values: Record<string, string>): string {
  let path = '';
  for (const token of tokens) {
    if (typeof token === 'string') path += token;
    else {
      const value = values[token.name];
      if (value !== undefined) path += token.prefix + encodeURIComponent(value) + token.suffix;
    }
  }
  return path;
}

/** Matches the whole of a path built from the template (any case, one delimiter at the end allowed). */
export function pathMatcher(tokens: readonly PathToken[]): RegExp {
  let route = '^';
  for (const token of tokens) {
    if (typeof token === 'string') {
      route += escapeRegExp(token);
      continue;
    }
    const { name, pattern, modifier } = token;
    const prefix = escapeRegExp(token.prefix);
    const suffix = escapeRegExp(token.suffix);
    const repeated = modifier === '+' || modifier === '*';
    if (!pattern) route += `(?:${prefix}${suffix})${modifier}`;
    else if (!prefix && !suffix) {
      if (repeated)
        throw new TypeError(
          process.env.NODE_ENV !== 'production'
            ? `Can not repeat "${name}" without a prefix and suffix`
            : '',
        );
      route += `(${pattern})${modifier}`;
    } else if (repeated) {
      route += `(?:${prefix}((?:${pattern})(?:${suffix}${prefix}(?:${pattern}))*)${suffix})${modifier === '*' ? '?' : ''}`;
    } else route += `(?:${prefix}(${pattern})${suffix})${modifier}`;
  }
  return new RegExp(`${route}[${escapeRegExp(DELIMITERS)}]?$`, 'i');
}

function escapeRegExp(text: string): string {
  return text.replace(/([.+*?=^!:${}()[\]|/\\])/g, '\\$1');
}
