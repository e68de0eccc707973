/**
 * The plain response data every workload feeds to both libraries: todos, each with a nested
 * author, shaped like a JSON response (every nested author is its own object, as after
 * `JSON.parse`).
 */

import { makePks, type Pk, type PkShape } from './pks.js';

export interface UserData {
  id: number;
  name: string;
}

export interface TodoData {
  id: Pk;
  title: string;
  completed: boolean;
  userId: number;
  author: UserData;
}

/**
 * Authors are shared: 100 users, numbered sparsely as accounts of a large service are, write all
 * the todos, so normalizing also merges repeats.
 */
const AUTHOR_IDS = makePks('sparse', 100, 0xa07);

/**
 * `count` todos from position `from` of the list a server gives, with pks of `shape` (uuids by
 * default). The todo at a position is the same in every call, so `makeTodos(n, stored)` are todos
 * created after the first `stored` were fetched. Every call makes new objects, as each response
 * is parsed anew.
 */
export function makeTodos(count: number, from = 0, shape: PkShape = 'uuid'): TodoData[] {
  const pks = makePks(shape, from + count).slice(from);
  const todos = pks.map((id, offset) => {
    const position = from + offset;
    const userId = AUTHOR_IDS[position % AUTHOR_IDS.length] as number;
    return {
      id,
      title: `Todo number ${position + 1}`,
      completed: position % 3 === 0,
      userId,
      author: { id: userId, name: `User ${userId}` },
    };
  });
  // As a response parses: JSON.parse makes flat strings, where strings built by joining others
  // (the uuids and titles above) are kept as their parts, which every lookup then reads slowly.
  return JSON.parse(JSON.stringify(todos)) as TodoData[];
}

/** The arguments the benchmark collection is stored under (a filtering argument, as apps use). */
export const LIST_ARGS = Object.freeze({ userId: 1 });

/** The collection's size in the store-level workloads. */
export const COLLECTION_SIZE = 10_000;

/**
 * Entity types a real app has besides todos, with text and numeric pks and various fields. Both
 * libraries get them through their stores before any measurement (see Contender.exerciseOtherTypes).
 */
export interface OtherType {
  key: string;
  pkField: string;
  defaults: Readonly<Record<string, string | number | boolean>>;
}

export const OTHER_TYPES: readonly OtherType[] = [
  { key: 'Project', pkField: 'slug', defaults: { slug: '', name: '', stars: 0 } },
  { key: 'Comment', pkField: 'id', defaults: { id: 0, body: '', postId: 0 } },
  { key: 'Tag', pkField: 'name', defaults: { name: '', color: '' } },
  { key: 'Session', pkField: 'token', defaults: { token: '', expires: 0, active: false } },
  { key: 'Invoice', pkField: 'number', defaults: { number: 0, total: 0, paid: false } },
  { key: 'Label', pkField: 'code', defaults: { code: '', title: '' } },
];

/** `count` records of `type`: numeric pks count up, text pks are `<key>-<n>`. */
export function makeRecords(type: OtherType, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => {
    const record: Record<string, unknown> = {};
    for (const [field, fallback] of Object.entries(type.defaults)) {
      if (typeof fallback === 'number') record[field] = index + 1;
      else if (typeof fallback === 'boolean') record[field] = index % 2 === 0;
      else record[field] = `${type.key.toLowerCase()}-${index + 1}`;
    }
    return record;
  });
}
