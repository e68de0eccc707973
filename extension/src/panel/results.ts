import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { plainFields } from './format.js';
import { endpointOf, type StoreView } from './model.js';

/** A stored result's status, as the Results view shows it. */
type ResultStatus =
  | 'fresh'
  | 'stale'
  | 'invalid'
  | 'error'
  | 'loading (forced)'
  | 'in flight'
  | 'error (forced)'
  | 'optimistic pending';

/** One row of the Results view: a stored result, or a mutation shown before its answer. */
export interface ResultRow {
  key: string;
  /** The endpoint that read it (or, for an optimistic one, the mutation's). */
  endpoint: string;
  status: ResultStatus;
  /** Mounted components reading it now (the page's latest count). */
  readers: number;
  /** How often (ms) the page fetches it again, while something subscribes to it. */
  pollFrequency?: number;
  /** When the store took its answer (or its error). */
  fetchedAt?: number;
  expiresAt?: number;
  /** The normalized result, when the store keeps one. */
  result?: Encoded;
  meta?: Encoded;
}

const numberField = (fields: Record<string, Encoded> | undefined, name: string) => {
  const value = fields?.[name];
  return typeof value === 'number' ? value : undefined;
};

function statusOf(
  view: StoreView,
  key: string,
  meta: ReturnType<typeof plainFields>,
  now: number,
): ResultStatus {
  const forced = view.forced[key];
  if (forced === 'loading') return 'loading (forced)';
  if (view.fetching.has(key)) return 'in flight';
  if (meta?.error !== undefined) return forced === 'error' ? 'error (forced)' : 'error';
  if (meta?.invalidated === true) return 'invalid';
  const expiresAt = numberField(meta, 'expiresAt');
  return expiresAt !== undefined && expiresAt <= now ? 'stale' : 'fresh';
}

/**
 * Every stored result (by key, with meta or a value), every read in flight, and every
 * optimistic mutation pending.
 */
export function resultRows(view: StoreView, now = Date.now()): ResultRow[] {
  // A read in flight for the first time has no meta yet: it is listed too.
  const keys = new Set([...view.meta.keys(), ...view.endpoints.keys(), ...view.fetching]);
  const rows: ResultRow[] = [...keys].map((key) => {
    const meta = plainFields(view.meta.get(key));
    return {
      key,
      endpoint: endpointOf(view, key) ?? '',
      status: statusOf(view, key, meta, now),
      readers: view.readers[key] ?? 0,
      pollFrequency: view.polling[key],
      fetchedAt: numberField(meta, 'date'),
      expiresAt: numberField(meta, 'expiresAt'),
      result: view.endpoints.get(key),
      meta: view.meta.get(key),
    };
  });
  for (const { key, endpoint, fetchedAt } of view.optimistic)
    if (!keys.has(key))
      rows.push({ key, endpoint, status: 'optimistic pending', readers: 0, fetchedAt });
  return rows;
}

export const RESULT_SORTS = {
  key: 'key',
  endpoint: 'endpoint',
  status: 'status',
  readers: 'readers (most first)',
  live: 'live (most often first)',
  fetched: 'fetched (newest first)',
  expires: 'expires (soonest first)',
} as const;
export type ResultSort = keyof typeof RESULT_SORTS;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The rows matching `text` (in key, endpoint, status or polling), in the chosen order. */
export function sortAndFilterResults(
  rows: readonly ResultRow[],
  sort: ResultSort,
  text: string,
): ResultRow[] {
  const wanted = text.trim().toLowerCase();
  const shown = wanted
    ? rows.filter((row) =>
        `${row.key}\n${row.endpoint}\n${row.status}\n${formatLive(row.pollFrequency)}`
          .toLowerCase()
          .includes(wanted),
      )
    : [...rows];
  const compare: Record<ResultSort, (a: ResultRow, b: ResultRow) => number> = {
    key: (a, b) => byText(a.key, b.key),
    endpoint: (a, b) => byText(a.endpoint, b.endpoint) || byText(a.key, b.key),
    status: (a, b) => byText(a.status, b.status) || byText(a.key, b.key),
    readers: (a, b) => b.readers - a.readers || byText(a.key, b.key),
    live: (a, b) =>
      (a.pollFrequency ?? Number.POSITIVE_INFINITY) -
        (b.pollFrequency ?? Number.POSITIVE_INFINITY) || byText(a.key, b.key),
    fetched: (a, b) => (b.fetchedAt ?? 0) - (a.fetchedAt ?? 0) || byText(a.key, b.key),
    expires: (a, b) =>
      (a.expiresAt ?? Number.POSITIVE_INFINITY) - (b.expiresAt ?? Number.POSITIVE_INFINITY) ||
      byText(a.key, b.key),
  };
  return shown.sort(compare[sort]);
}

/** A whole number of seconds in the unit that reads best: `42 s`, `3 min`, `5 h`, `2 days`. */
function secondsText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

/** When a result goes stale, compared with now: `in 42 s`, `in 3 min`, `expired`. */
export function formatExpiresIn(expiresAt: number | undefined, now: number): string {
  if (expiresAt === undefined) return '';
  const seconds = Math.round((expiresAt - now) / 1000);
  return seconds <= 0 ? 'expired' : `in ${secondsText(seconds)}`;
}

/**
 * How often a polled result is fetched again: `live · every 500 ms`, `live · every 10 s`.
 * Polls under a second are said in ms (rounded to seconds they would all read `0 s` or `1 s`).
 */
export function formatLive(frequency: number | undefined): string {
  if (frequency === undefined) return '';
  const every =
    frequency < 1000 ? `${Math.round(frequency)} ms` : secondsText(Math.round(frequency / 1000));
  return `live · every ${every}`;
}
