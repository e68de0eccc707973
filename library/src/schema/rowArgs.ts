import { PersistentMap } from '../normalize/persistentMap.js';
import { getOwn, setOwn } from './describe.js';
import { jsonForm, NoJsonForm } from './jsonForm.js';

/**
 * A collection row's filtering arguments as the row stores them, and how an add finds the rows
 * it reaches. A row is keyed by its arguments serialized (`serializeRowArgs`): keys sorted,
 * values as the text the URL holds.
 */

/**
 * One filtering argument as a row stores it, as text: its JSON form (`jsonForm`: a Date as ISO
 * 8601, a Set as a list, a Map as an object), lists and objects as JSON with their members sorted
 * and their values as text. Arguments that make one URL make one row: `{ a, b }` and `{ b, a }`,
 * `[1, 2]` and `['1', '2']`, as `1` and `'1'` do.
 */
export function serializeArgValue(value: unknown): string {
  const form = jsonForm(value);
  return typeof form === 'string' ? form : JSON.stringify(asUrlText(value, new Set()));
}

/**
 * `value` with every scalar as the text the URL holds and objects' members sorted. A value with
 * no JSON form is its `String()` here: the URL refuses it before any request, so no row made
 * from a request holds one. One that holds itself is refused.
 */
function asUrlText(value: unknown, within: Set<unknown>): unknown {
  const form = jsonForm(value);
  if (form instanceof NoJsonForm) return String(value);
  if (typeof form !== 'object') return form;
  if (within.has(value)) throw new TypeError('a filter argument holds itself');
  within.add(value);
  let text: unknown;
  if (Array.isArray(form)) text = form.map((item) => asUrlText(item, within));
  else {
    const members = form as Readonly<Record<string, unknown>>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(members).sort())
      setOwn(sorted, key, asUrlText(members[key], within));
    text = sorted;
  }
  within.delete(value);
  return text;
}

/** Serializes the filtering arguments: keys sorted, `undefined` dropped, values as strings. */
export function serializeRowArgs(args: Record<string, unknown> | undefined): string {
  const row: Record<string, string> = {};
  if (args) {
    for (const key of Object.keys(args).sort()) {
      const value = args[key];
      if (value !== undefined) setOwn(row, key, serializeArgValue(value));
    }
  }
  return JSON.stringify(row);
}

/**
 * Parsed row keys; bounded, since apps with free-text filters make new rows all the time. A memo
 * of a pure function of the key: each parse is frozen, so stores and filters that read one share
 * nothing they could change.
 */
const parsedRows = new Map<string, Readonly<Record<string, string>>>();
const MAX_PARSED_ROWS = 10_000;

/** A row's filtering arguments, from its key. */
export function parseRowArgs(rowPk: string): Readonly<Record<string, string>> {
  let parsed = parsedRows.get(rowPk);
  if (!parsed) {
    if (parsedRows.size >= MAX_PARSED_ROWS) parsedRows.clear();
    parsed = Object.freeze(JSON.parse(rowPk) as Record<string, string>);
    parsedRows.set(rowPk, parsed);
  }
  return parsed;
}

/** The text `source[key]` stands for in a row (own members only), or undefined. */
function argText(source: unknown, key: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  // Own members only: a row's `__proto__` argument is data, not the prototype of `source`.
  const value = getOwn(source, key);
  return value === undefined ? undefined : serializeArgValue(value);
}

/** Whether `source[key]` stands for `value` in a row. */
export function argMatches(source: unknown, key: string, value: string): boolean {
  return argText(source, key) === value;
}

/** Argument names the default filter ignores: they order a list, they do not choose its members. */
export function isOrderArgument(key: string): boolean {
  return key.startsWith('order');
}

/** A set of rows whose filtering arguments have the same names, by those arguments' values. */
interface FilterGroup {
  /** The names, sorted. */
  names: readonly string[];
  /** Row keys by the JSON of the values (in the order of `names`). */
  rows: PersistentMap<readonly string[]>;
}

/**
 * The rows of one collection by the values of their filtering arguments, as the default filter
 * reads them (every argument but those named `order…`). An add reaches a row when each of the
 * row's filtering arguments equals the add's URL parameter or body field of that name, so the
 * rows it reaches are found by looking up the add's own values, group by group (rows filtered by
 * `userId`, rows filtered by `userId` and `completed`, …): the work grows with the number of such
 * groups, a handful, not with the number of rows.
 *
 * Immutable: `with` returns a new index, as the tables' maps do.
 */
export class RowsByFilter {
  /** No rows. Also keeps the class's hidden class alive (docs/architecture.md, "Hidden classes"). */
  static readonly empty = new RowsByFilter(new Map());

  private constructor(private readonly groups: ReadonlyMap<string, FilterGroup>) {}

  /** This index with the row `rowPk` (a new row of the collection). */
  with(rowPk: string): RowsByFilter {
    const args = parseRowArgs(rowPk);
    const names = Object.keys(args).filter((name) => !isOrderArgument(name));
    const groupKey = JSON.stringify(names);
    const values = JSON.stringify(names.map((name) => args[name]));
    const group = this.groups.get(groupKey) ?? { names, rows: PersistentMap.empty() };
    const rows = group.rows.get(values) ?? [];
    if (rows.includes(rowPk)) return this;
    const groups = new Map(this.groups);
    groups.set(groupKey, { names, rows: group.rows.set(values, [...rows, rowPk]) });
    return new RowsByFilter(groups);
  }

  /** The rows an add with these arguments (`[urlParams, body]`) reaches. */
  matching(args: readonly unknown[]): string[] {
    const found: string[] = [];
    for (const { names, rows } of this.groups.values()) {
      // Each name may be matched by the URL parameter or by the body field of that name.
      const choices = names.map((name) => {
        const texts = [argText(args[0], name), argText(args[1], name)];
        return texts.filter(
          (text, index): text is string => text !== undefined && texts.indexOf(text) === index,
        );
      });
      for (const values of combinations(choices)) {
        const reached = rows.get(JSON.stringify(values));
        if (reached) for (const rowPk of reached) found.push(rowPk);
      }
    }
    return found;
  }
}

/** Every way of choosing one item of each list: `[[a, b], [c]]` gives `[a, c]` and `[b, c]`. */
function combinations(choices: readonly (readonly string[])[]): string[][] {
  let made: string[][] = [[]];
  for (const options of choices) {
    const next: string[][] = [];
    for (const prefix of made) for (const option of options) next.push([...prefix, option]);
    made = next;
  }
  return made;
}
