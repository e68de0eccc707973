import { paginatedFilter, paginatedMerge } from '../schema/Collection.js';
import type { Schema } from '../schema/denormalizeTypes.js';
import { describeValue } from '../schema/describe.js';
import { mapCollections, requireCollection } from './collections.js';
import type { RestEndpoint } from './RestEndpoint.js';

/** Derived members (push, unshift, getPage, remove, move) are built once per endpoint. */
const derivedCache = new WeakMap<object, Map<string, unknown>>();
export function derived<T>(owner: object, name: string, build: () => T): T {
  const members = derivedCache.get(owner) ?? new Map<string, unknown>();
  derivedCache.set(owner, members);
  if (!members.has(name)) members.set(name, build());
  return members.get(name) as T;
}

/** `list.push` or `list.unshift`: a POST to the list's URL, added to every matching stored list. */
export function adderOf(list: RestEndpoint, which: 'push' | 'unshift'): RestEndpoint {
  const collection = requireCollection(list, which);
  return derived(list, which, () =>
    list.extend({ method: 'POST', schema: collection[which], name: `${list.name}.${which}` }),
  );
}

/**
 * `list.paginated(...)`: an endpoint that fetches a page and merges it into the list stored
 * without the cursor. `field` names the cursor argument, or `removeCursor` returns the list's
 * arguments.
 */
export function paginatedOf(
  list: RestEndpoint,
  fieldOrRemoveCursor: string | ((...args: any[]) => readonly unknown[]),
): RestEndpoint {
  const removeCursor =
    typeof fieldOrRemoveCursor === 'function'
      ? fieldOrRemoveCursor
      : cursorRemover(list.name, fieldOrRemoveCursor);
  requireCollection(list, 'paginated');
  return list.extend({
    schema: mapCollections(list.schema, (collection) =>
      collection.addWith(paginatedMerge, paginatedFilter(removeCursor)),
    ) as Schema,
    // The page is stored under the list's key, so reading the list shows the merged pages.
    key: (...args: unknown[]) =>
      list.key(...(removeCursor(...args) as Parameters<RestEndpoint['key']>)),
  });
}

/** The list's arguments of a page's: the page's first argument without the cursor `field`. */
function cursorRemover(owner: string, field: string) {
  return (params?: unknown, ...rest: unknown[]): unknown[] => {
    const { [field]: cursor, ...listParams } = (params ?? {}) as Record<string, unknown>;
    checkCursor(owner, field, cursor);
    return [listParams, ...rest];
  };
}

/**
 * A page's cursor is a string or a number (spec 4.1): without one the request would fetch the
 * first page again (or `?page=null`, `?page=[object Object]`) and merge it as the next.
 */
function checkCursor(owner: string, field: string, cursor: unknown): void {
  if (typeof cursor === 'string' || (typeof cursor === 'number' && Number.isFinite(cursor))) return;
  if (process.env.NODE_ENV !== 'production') {
    throw new TypeError(
      cursor === undefined || cursor === null
        ? `${owner}.getPage: missing the page argument "${field}"`
        : `${owner}.getPage: the page argument "${field}" must be a string or a number, not ${describeValue(cursor)}`,
    );
  }
  throw new TypeError(`${owner}.getPage: the page argument "${field}" is missing or wrong`);
}
