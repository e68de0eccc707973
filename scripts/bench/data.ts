/**
 * The plain response data every workload feeds to both libraries: todos, each with a nested
 * author, shaped like a JSON response (every nested author is its own object, as after
 * `JSON.parse`).
 */

export interface UserData {
  id: number;
  name: string;
}

export interface TodoData {
  id: number;
  title: string;
  completed: boolean;
  userId: number;
  author: UserData;
}

/** Authors are shared: 100 users write all the todos, so normalizing also merges repeats. */
const AUTHOR_COUNT = 100;

export function makeTodo(id: number): TodoData {
  const userId = 1 + (id % AUTHOR_COUNT);
  return {
    id,
    title: `Todo number ${id}`,
    completed: id % 3 === 0,
    userId,
    author: { id: userId, name: `User ${userId}` },
  };
}

/** `count` todos with consecutive ids starting at `firstId`. */
export function makeTodos(count: number, firstId = 1): TodoData[] {
  return Array.from({ length: count }, (_, index) => makeTodo(firstId + index));
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
