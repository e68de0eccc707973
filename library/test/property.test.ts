import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createStore,
  isInvalid,
  paginatedFilter,
  paginatedMerge,
  type State,
  schema,
} from '../src/index.js';
import { endpoint, plain, Todo, todoList, User } from './fixtures.js';
import { removePageCursor } from './helpers/todoApi.js';

/** The stored lists: one collection row per filter. */
const FILTERS: readonly Record<string, number>[] = [{}, { userId: 1 }, { userId: 2 }];
const rowOf = (filter: Record<string, number>) => todoList.pk([filter]);

const getList = endpoint('getList', todoList);
const push = endpoint('push', todoList.push, { sideEffect: true });
const unshift = endpoint('unshift', todoList.unshift, { sideEffect: true });
const getPage = endpoint(
  'getPage',
  todoList.addWith(paginatedMerge, paginatedFilter(removePageCursor)),
);
const remove = endpoint('remove', new schema.Invalidate(Todo), { sideEffect: true });
const getTodo = endpoint('getTodo', Todo);
const getUser = endpoint('getUser', User);

// ---- Generated operations -------------------------------------------------------------------

type TodoInput = {
  id: number;
  title: string;
  userId: number;
  author?: { id: number; name: string };
};

const userArb = fc.record({
  id: fc.integer({ min: 1, max: 3 }),
  name: fc.constantFrom('ann', 'bob'),
});
const todoArb: fc.Arbitrary<TodoInput> = fc.record(
  {
    id: fc.integer({ min: 1, max: 8 }),
    title: fc.constantFrom('a', 'b', 'c'),
    userId: fc.constantFrom(1, 2),
    author: userArb,
  },
  { requiredKeys: ['id', 'title', 'userId'] },
);
const filterArb = fc.integer({ min: 0, max: FILTERS.length - 1 });
const todosArb = fc.array(todoArb, { maxLength: 5 });

type Op =
  | { kind: 'set'; filter: number; todos: TodoInput[] }
  | { kind: 'push' | 'unshift'; filter: number; todo: TodoInput }
  | { kind: 'page'; filter: number; page: number; todos: TodoInput[] }
  | { kind: 'invalidate'; id: number; as: 'number' | 'string' | 'object' }
  | { kind: 'updateTodo'; todo: TodoInput }
  | { kind: 'updateUser'; user: { id: number; name: string } };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), filter: filterArb, todos: todosArb }),
  fc.record({ kind: fc.constant('push' as const), filter: filterArb, todo: todoArb }),
  fc.record({ kind: fc.constant('unshift' as const), filter: filterArb, todo: todoArb }),
  fc.record({
    kind: fc.constant('page' as const),
    filter: filterArb,
    page: fc.integer({ min: 1, max: 3 }),
    todos: todosArb,
  }),
  fc.record({
    kind: fc.constant('invalidate' as const),
    id: fc.integer({ min: 1, max: 8 }),
    as: fc.constantFrom('number' as const, 'string' as const, 'object' as const),
  }),
  fc.record({ kind: fc.constant('updateTodo' as const), todo: todoArb }),
  fc.record({ kind: fc.constant('updateUser' as const), user: userArb }),
);

// ---- A model of the collection rows ---------------------------------------------------------

/** The members each stored row should hold, by row pk. */
type Model = Map<string, string[]>;

/** Whether a row (its filter) receives a push/unshift made with these params and body. */
function receives(filter: Record<string, number>, params: object, body: object): boolean {
  return Object.entries(filter).every(([key, value]) =>
    [params, body].some(
      (source) =>
        (source as Record<string, unknown>)[key] !== undefined &&
        String((source as Record<string, unknown>)[key]) === String(value),
    ),
  );
}

const unique = (pks: string[]) => [...new Set(pks)];

function applyToModel(model: Model, op: Op) {
  switch (op.kind) {
    case 'set':
      model.set(rowOf(FILTERS[op.filter]!), unique(op.todos.map((t) => String(t.id))));
      return;
    case 'push':
    case 'unshift': {
      const pk = String(op.todo.id);
      const params = FILTERS[op.filter]!;
      for (const filter of FILTERS) {
        const members = model.get(rowOf(filter));
        if (!members || members.includes(pk) || !receives(filter, params, op.todo)) continue;
        model.set(rowOf(filter), op.kind === 'push' ? [...members, pk] : [pk, ...members]);
      }
      return;
    }
    case 'page': {
      const row = rowOf(FILTERS[op.filter]!);
      const members = model.get(row) ?? [];
      model.set(row, unique([...members, ...op.todos.map((t) => String(t.id))]));
      return;
    }
    case 'invalidate':
      for (const [row, members] of model) {
        model.set(
          row,
          members.filter((pk) => pk !== String(op.id)),
        );
      }
      return;
    default:
      return;
  }
}

function run(controller: ReturnType<typeof createStore>['controller'], op: Op) {
  switch (op.kind) {
    case 'set':
      return controller.setResponse(getList, FILTERS[op.filter], op.todos);
    case 'push':
    case 'unshift': {
      const { id: _id, ...body } = op.todo;
      return controller.setResponse(
        op.kind === 'push' ? push : unshift,
        FILTERS[op.filter],
        body,
        op.todo,
      );
    }
    case 'page':
      return controller.setResponse(getPage, { ...FILTERS[op.filter], page: op.page }, op.todos);
    case 'invalidate': {
      const response =
        op.as === 'number' ? op.id : op.as === 'string' ? String(op.id) : { id: op.id };
      return controller.setResponse(remove, { id: op.id }, response);
    }
    case 'updateTodo':
      return controller.setResponse(getTodo, { id: op.todo.id }, op.todo);
    case 'updateUser':
      return controller.setResponse(getUser, { id: op.user.id }, op.user);
  }
}

// ---- Invariants -----------------------------------------------------------------------------

/** Every table row a read of `filter`'s list depends on (the row, its members, their authors). */
function dependencies(state: State, filter: Record<string, number>): unknown[] {
  const table = (key: string) => state.entities.get(key);
  const row = table(todoList.key)?.get(rowOf(filter)) as Iterable<string> | undefined;
  const out: unknown[] = [row];
  for (const pk of row ?? []) {
    const todo = table('Todo')?.get(pk) as { author?: string } | undefined;
    out.push(todo);
    if (todo?.author !== undefined) out.push(table('User')?.get(todo.author));
  }
  return out;
}
const sameRefs = (a: unknown[], b: unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

function checkInvariants(state: State, model: Model) {
  const rows = (plain(state.entities)[todoList.key] ?? {}) as Record<string, string[]>;
  for (const [rowPk, members] of Object.entries(rows)) {
    // No row holds a pk twice.
    expect(new Set(members).size, `row ${rowPk} holds a pk twice: ${members}`).toBe(members.length);
    // No row holds a pk whose entity is INVALID (or missing).
    for (const pk of members) {
      const entity = plain(state.entities).Todo?.[pk];
      expect(entity, `row ${rowPk} holds ${pk}, which is not stored`).toBeDefined();
      expect(isInvalid(entity), `row ${rowPk} holds INVALID ${pk}`).toBe(false);
    }
  }
  // The rows are what push / unshift / page merge / invalidate should have made of them.
  expect(rows).toEqual(Object.fromEntries(model));
  // The state is JSON-serializable.
  expect(JSON.parse(JSON.stringify(state))).toStrictEqual(plain(state));
}

describe('store invariants under random operations', () => {
  it('hold after every push / unshift / page merge / invalidate / update', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 30 }), (ops) => {
        const { controller, getState } = createStore();
        const model: Model = new Map();
        const read = (filter: Record<string, number>) =>
          controller.getResponse(getList, filter, getState()).data;

        for (const op of ops) {
          const before = getState();
          const previous = FILTERS.map((filter) => ({
            data: read(filter),
            dependencies: dependencies(before, filter),
          }));

          run(controller, op);
          applyToModel(model, op);
          const state = getState();
          expect(state.meta.get([...state.meta.keys()].at(-1) ?? '')?.error).toBeUndefined();
          checkInvariants(state, model);

          FILTERS.forEach((filter, i) => {
            const data = read(filter);
            // Reading an unchanged result twice gives the same object.
            expect(read(filter)).toBe(data);
            // The read matches the row, in order.
            const row = model.get(rowOf(filter));
            expect(data?.map((todo) => String(todo.id))).toEqual(row);
            // After a change it does not depend on, the result keeps its identity; after one it
            // depends on, it is a new object.
            const { data: old, dependencies: oldDependencies } = previous[i]!;
            if (old === undefined || data === undefined) return;
            if (sameRefs(oldDependencies, dependencies(state, filter))) expect(data).toBe(old);
            else expect(data).not.toBe(old);
          });
        }
      }),
      { numRuns: 300 },
    );
    // About 2 s alone; the margin is for a machine busy with other test files.
  }, 30_000);
});
