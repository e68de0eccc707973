import { compile, type Key, parse, pathToRegexp } from 'path-to-regexp';

/**
 * Path templates: `:name` is a required URL parameter, `:name?` an optional one, and `\\?`
 * introduces literal query text (path-to-regexp 6 syntax).
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
    const keys = parse(path).filter((token): token is Key => typeof token !== 'string');
    entry = {
      build: compile(path, { encode: encodeURIComponent, validate: false }),
      names: new Set(keys.map((key) => String(key.name))),
      required: keys
        .filter((key) => key.modifier === '' || key.modifier === '+')
        .map((key) => String(key.name)),
      matcher: pathToRegexp(path, [], { end: true, strict: false, sensitive: false }),
    };
    compiled.set(path, entry);
  }
  return entry;
}

/** Drops the last URL parameter: `'/:first/:second'` → `'/:first'`, `'/:first'` → `'/'`. */
export function shortenPath(path: string): string {
  const last = path.lastIndexOf(':');
  if (last === -1) return path;
  const shortened = path.slice(0, last).replace(/\/$/, '');
  return shortened === '' ? '/' : shortened;
}

/** The same as `shortenPath`, under the name some users know. */
export const removeLastArg = shortenPath;

/** Sorted query text with `undefined` values dropped; empty when nothing is left. */
export function searchToString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value !== undefined) search.append(key, String(value));
  }
  return search.toString();
}
