/**
 * App-shaped stores: N todos (data.ts: uuid pks, a nested author) kept as one list per user, as
 * an app keeps one list per filter, and the todos the writes into them target.
 */
import { makeTodos, type TodoData } from '../data.js';
import { makePks } from '../pks.js';

/** One user's list: what `R.getList` with `{ userId }` answered. */
export interface UserList {
  userId: number;
  todos: TodoData[];
}

/** What an app posts to create a todo: the fields its user filled in. */
export type NewTodo = Pick<TodoData, 'title' | 'completed' | 'userId'>;

/** A push of a new todo into the list of `userId`: the body posted and the server's answer. */
export interface Push {
  userId: number;
  body: NewTodo;
  todo: TodoData;
}

export interface StoreFixture {
  size: number;
  lists: UserList[];
  /** Stored todos the writes target, WRITE_TARGETS of them (see targetPositions). */
  targets: TodoData[];
  /** New todos, one per target, pushed into the target's list. */
  pushes: Push[];
}

/**
 * How many different todos a kind of write targets, in turn: a sample takes at most this many
 * writes, each on a todo no other write of the sample touches (a todo deleted twice, or pushed
 * twice, would measure another write). 10% of the todos at 10k, 1% at 100k.
 */
export const WRITE_TARGETS = 1000;

/** The share of all todos the largest list holds; the other lists share the rest evenly. */
const LARGEST_LIST_SHARE = 0.1;

/**
 * The users who own the lists: sparse ids, as in data.ts's authors, from a sequence of their own
 * (the first n users are the same for every list count).
 */
const LIST_OWNER_SEED = 0x115;

/** How many todos each of `listCount` lists holds: one 10% of `size`, the others the rest. */
export function listSizes(size: number, listCount: number): number[] {
  const largest = Math.round(size * LARGEST_LIST_SHARE);
  const others = listCount - 1;
  const rest = size - largest;
  return [
    largest,
    ...Array.from(
      { length: others },
      (_, index) => Math.floor(rest / others) + (index < rest % others ? 1 : 0),
    ),
  ];
}

/**
 * The server's todos (`makeTodos(size)`, made once per size: uuids are slow to make) in
 * `listCount` lists, each a contiguous run of them, each todo a copy with its list owner's userId.
 */
export function makeStoreFixture(
  serverTodos: readonly TodoData[],
  listCount: number,
): StoreFixture {
  const size = serverTodos.length;
  const owners = makePks('sparse', listCount, LIST_OWNER_SEED);
  let start = 0;
  const lists = listSizes(size, listCount).map((length, index) => {
    const userId = owners[index] as number;
    const todos = serverTodos.slice(start, start + length).map((todo) => ({ ...todo, userId }));
    start += length;
    return { userId, todos };
  });
  const stored = lists.flatMap((list) => list.todos);
  const targets = targetPositions(size).map((position) => stored[position] as TodoData);
  const created = makeTodos(WRITE_TARGETS, size);
  return {
    size,
    lists,
    targets,
    pushes: targets.map(({ userId }, k) => pushOf({ ...(created[k] as TodoData), userId })),
  };
}

/**
 * Where in the server's list each target is: evenly spaced over all todos, so the writes reach
 * lists in proportion to their sizes (a user with more todos writes more) and up to
 * WRITE_TARGETS different lists.
 */
function targetPositions(size: number): number[] {
  return Array.from({ length: WRITE_TARGETS }, (_, k) =>
    Math.floor(((k + 0.5) * size) / WRITE_TARGETS),
  );
}

/** A push of `todo` into its user's list, as the server answers the post. */
export function pushOf(todo: TodoData): Push {
  const { title, completed, userId } = todo;
  return { userId, body: { title, completed, userId }, todo };
}

/** An update's response: the stored todo with `completed` flipped, as after `JSON.parse`. */
export function flipped(todo: TodoData): TodoData {
  return { ...todo, completed: !todo.completed, author: { ...todo.author } };
}
