import { type JsonForm, jsonForm, NoJsonForm } from '../schema/jsonForm.js';
import {
  buildPath,
  type PathParameter,
  type PathToken,
  parsePathTemplate,
  pathMatcher,
} from './pathTemplate.js';

/**
 * Path templates: `:name` is a required URL parameter, `:name?` an optional one, and `\\?`
 * introduces literal query text (path-to-regexp 6 syntax, see pathTemplate.ts).
 */
interface CompiledPath {
  /** Builds the path from its parameters (values already strings). */
  build: (params: Record<string, string>) => string;
  /** Every parameter name in the template. */
  names: ReadonlySet<string>;
  /** The parameters the path cannot be built without. */
  required: readonly string[];
  /** Matches the path part of a URL built from this template. */
  matcher: RegExp;
}

const compiled = new Map<string, CompiledPath>();

export function compilePath(path: string): CompiledPath {
  let entry = compiled.get(path);
  if (!entry) {
    const tokens = parseTemplate(path);
    const parameters = tokens.filter((token): token is PathParameter => typeof token !== 'string');
    entry = {
      build: (params) => buildPath(tokens, params),
      names: new Set(parameters.map((parameter) => parameter.name)),
      required: parameters
        .filter((parameter) => parameter.modifier === '' || parameter.modifier === '+')
        .map((parameter) => parameter.name),
      matcher: pathMatcher(tokens),
    };
    compiled.set(path, entry);
  }
  return entry;
}

/** The template's tokens; a path that is not a template is refused with its text and the reason. */
function parseTemplate(path: string): PathToken[] {
  // Development builds only, with the hint below: an endpoint's path is written with it.
  if (process.env.NODE_ENV !== 'production' && typeof path !== 'string') {
    throw new TypeError(`the path must be a string like "/todos/:id", not ${String(path)}`);
  }
  try {
    return parsePathTemplate(path);
  } catch (error) {
    // A common slip: the whole URL given as the path.
    const hint =
      process.env.NODE_ENV !== 'production' && /^[a-z][a-z0-9+.-]*:\/\//i.test(path)
        ? ' (the origin belongs in urlPrefix; the path starts at "/")'
        : '';
    const { message } = error as Error;
    throw new TypeError(
      `the path "${path}" is not a path template${message ? `: ${message}` : ''}${hint}`,
    );
  }
}

/**
 * Why a path parameter's value cannot stand in the path (undefined when it can). Values are
 * percent-encoded, so `/`, `?`, `#` or `%` in them are safe; these are not:
 * - an empty required segment addresses another resource (`/todos/` is the list);
 * - `.` and `..` are read by URLs as "this" and "the parent" segment;
 * - a lone UTF-16 surrogate has no UTF-8 form, so no URL can carry it.
 */
export function pathValueProblem(text: string, required: boolean): string | undefined {
  if (!(text === '' && required) && text !== '.' && text !== '..' && !LONE_SURROGATE.test(text))
    return undefined;
  const refused = `cannot be ${JSON.stringify(text)}`;
  return process.env.NODE_ENV !== 'production' ? `${refused} (${whyNot(text)})` : refused;
}

/** Why `pathValueProblem` refuses the text (development builds say it). */
function whyNot(text: string): string {
  if (text === '') return 'an empty path segment would address another resource';
  if (text === '.' || text === '..') return 'a dot segment would leave the path';
  return 'a lone UTF-16 surrogate has no URL encoding';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Drops the last URL parameter: `'/:first/:second'` → `'/:first'`, `'/:first'` → `'/'`. */
export function shortenPath(path: string): string {
  const last = path.lastIndexOf(':');
  if (last === -1) return path;
  const shortened = path.slice(0, last).replace(/\/$/, '');
  return shortened === '' ? '/' : shortened;
}

/** The same as `shortenPath`, under the name some users know. */
export const removeLastArg = shortenPath;

/**
 * Sorted query text with `undefined` values dropped; empty when nothing is left. Values are
 * written in the form JSON gives them (`jsonForm`: a Date as ISO 8601, a Set as a list, a Map as
 * an object) and nested ones keep their structure, so different arguments never make one URL
 * (and one cache key): a list repeats its name (`tag=a&tag=b`; an empty list is `tag=`), an
 * object names its members in brackets (`filter[done]=true`), a list holding objects or lists
 * numbers its items (`f[0][a]=1`). Members are sorted at every level. A value with no JSON form
 * (a function, a class instance without `toJSON`, NaN, an invalid Date) is refused by name.
 */
export function searchToString(params: Record<string, unknown>, owner = 'searchToString'): string {
  const search = new URLSearchParams();
  appendMembers(search, '', params, { owner, within: new Set() });
  return search.toString();
}

/**
 * Who writes the query (named in errors), and the values being written around the current one:
 * one that holds itself would be written for ever (a stack overflow), so it is refused, naming
 * where; the same value met twice side by side is written twice.
 */
interface Writing {
  owner: string;
  within: Set<unknown>;
}

function appendMembers(
  search: URLSearchParams,
  prefix: string,
  members: Readonly<Record<string, unknown>>,
  writing: Writing,
) {
  for (const key of Object.keys(members).sort()) {
    const name = prefix === '' ? key : `${prefix}[${key}]`;
    const value = members[key];
    appendForm(search, name, value, formOf(value, name, writing), writing);
  }
}

/** The JSON form of the parameter `name`; refused, naming it, when it has none. */
function formOf(value: unknown, name: string, writing: Writing): JsonForm | undefined {
  const form = jsonForm(value);
  if (form instanceof NoJsonForm)
    throw new TypeError(`${writing.owner}: the search parameter "${name}" ${form.why}`);
  return form;
}

/** Appends `value`, whose JSON form is `form`, as the parameter `name`. */
function appendForm(
  search: URLSearchParams,
  name: string,
  value: unknown,
  form: JsonForm | undefined,
  writing: Writing,
) {
  if (form === undefined) return;
  if (typeof form === 'string') {
    search.append(name, form);
    return;
  }
  if (writing.within.has(value))
    throw new TypeError(`${writing.owner}: the search parameter "${name}" holds itself`);
  writing.within.add(value);
  if (isList(form)) {
    // An empty list still sends its name: `DELETE /todos?ids=` must not become `DELETE /todos`.
    if (form.length === 0) search.append(name, '');
    const forms = form.map((item, index) => formOf(item, `${name}[${index}]`, writing));
    // Items that are text repeat the name; lists and objects among them need their index.
    const nested = forms.some((item) => typeof item === 'object');
    forms.forEach((item, index) => {
      appendForm(search, nested ? `${name}[${index}]` : name, form[index], item, writing);
    });
  } else appendMembers(search, name, form, writing);
  writing.within.delete(value);
}

function isList(form: JsonForm): form is readonly unknown[] {
  return Array.isArray(form);
}
