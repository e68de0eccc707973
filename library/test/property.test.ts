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

/** An id as a server sends it: a number or a string; `5` and `"5"` name one entity. */
type Id = number | string;
/** The arguments of a stored list: one collection row per filter. */
type Filter = Record<string, Id | Record<string, string>>;

type TodoInput = {
  id: Id;
  title: string;
  userId: Id;
  author?: { id: Id; name: string };
};

type Op =
  | { kind: 'set'; filter: number; todos: TodoInput[] }
  | { kind: 'push' | 'unshift'; filter: number; todo: TodoInput }
  | { kind: 'page'; filter: number; page: number; todos: TodoInput[] }
  | { kind: 'invalidate'; id: Id; as: 'number' | 'string' | 'object' }
  | { kind: 'updateTodo'; todo: TodoInput }
  | { kind: 'updateUser'; user: { id: Id; name: string } };

/** What the operations are made of: the ids of todos and users, the filters and their values. */
interface Domain {
  todoIds: fc.Arbitrary<Id>;
  userIds: fc.Arbitrary<Id>;
  /** The values of the `userId` field, the field the filters select on. */
  owners: fc.Arbitrary<Id>;
  filters: readonly Filter[];
}

function operations({ todoIds, userIds, owners, filters }: Domain): fc.Arbitrary<Op> {
  const userArb = fc.record({ id: userIds, name: fc.constantFrom('ann', 'bob') });
  const todoArb: fc.Arbitrary<TodoInput> = fc.record(
    { id: todoIds, title: fc.constantFrom('a', 'b', 'c'), userId: owners, author: userArb },
    { requiredKeys: ['id', 'title', 'userId'] },
  );
  const filterArb = fc.integer({ min: 0, max: filters.length - 1 });
  const todosArb = fc.array(todoArb, { maxLength: 5 });
  return fc.oneof(
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
      // Invalidating needs a pk: an unusable one is a push's or a list's concern here.
      id: todoIds.filter(isUsablePk),
      as: fc.constantFrom('number' as const, 'string' as const, 'object' as const),
    }),
    fc.record({ kind: fc.constant('updateTodo' as const), todo: todoArb }),
    fc.record({ kind: fc.constant('updateUser' as const), user: userArb }),
  );
}

/**
 * Whether an id identifies an entity: '' and 'undefined' (what `${this.id}` makes of a missing
 * id) are no pk, and a response holding one is refused as a whole.
 */
function isUsablePk(id: Id): boolean {
  return String(id) !== '' && String(id) !== 'undefined';
}

/** Whether the store accepts the operation's response (every entity in it has a usable pk). */
function accepted(op: Op): boolean {
  const todoOk = (todo: TodoInput) =>
    isUsablePk(todo.id) && (todo.author === undefined || isUsablePk(todo.author.id));
  switch (op.kind) {
    case 'set':
    case 'page':
      return op.todos.every(todoOk);
    case 'push':
    case 'unshift':
    case 'updateTodo':
      return todoOk(op.todo);
    case 'invalidate':
      return isUsablePk(op.id);
    case 'updateUser':
      return isUsablePk(op.user.id);
  }
}

// ---- A model of the collection rows ---------------------------------------------------------

/**
 * The members each stored list should hold, by the index of its filter: the model tells filters
 * apart by themselves, not by the row key the store makes of them.
 */
type Model = Map<number, string[]>;

const rowOf = (filter: Filter) => todoList.pk([filter]);

/** A filter value as text: 5 and "5" are one value; objects by their members. */
const asText = (value: unknown) =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** Whether a row (its filter) receives a push/unshift made with these params and body. */
function receives(filter: Filter, params: object, body: object): boolean {
  return Object.entries(filter).every(([key, value]) =>
    [params, body].some(
      (source) =>
        Object.hasOwn(source, key) &&
        (source as Record<string, unknown>)[key] !== undefined &&
        asText((source as Record<string, unknown>)[key]) === asText(value),
    ),
  );
}

const unique = (pks: string[]) => [...new Set(pks)];

function applyToModel(model: Model, filters: readonly Filter[], op: Op) {
  switch (op.kind) {
    case 'set':
      model.set(op.filter, unique(op.todos.map((t) => String(t.id))));
      return;
    case 'push':
    case 'unshift': {
      const pk = String(op.todo.id);
      const params = filters[op.filter]!;
      filters.forEach((filter, i) => {
        const members = model.get(i);
        if (!members || members.includes(pk) || !receives(filter, params, op.todo)) return;
        model.set(i, op.kind === 'push' ? [...members, pk] : [pk, ...members]);
      });
      return;
    }
    case 'page': {
      const members = model.get(op.filter) ?? [];
      model.set(op.filter, unique([...members, ...op.todos.map((t) => String(t.id))]));
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

/** The call an operation stands for: the endpoint, its arguments and the response it stores. */
function callOf(filters: readonly Filter[], op: Op) {
  switch (op.kind) {
    case 'set':
      return { endpoint: getList, args: [filters[op.filter]], response: op.todos };
    case 'push':
    case 'unshift': {
      const { id: _id, ...body } = op.todo;
      return {
        endpoint: op.kind === 'push' ? push : unshift,
        args: [filters[op.filter], body],
        response: op.todo,
      };
    }
    case 'page':
      return {
        endpoint: getPage,
        args: [{ ...filters[op.filter], page: op.page }],
        response: op.todos,
      };
    case 'invalidate': {
      const response =
        op.as === 'number' ? op.id : op.as === 'string' ? String(op.id) : { id: op.id };
      return { endpoint: remove, args: [{ id: op.id }], response };
    }
    case 'updateTodo':
      return { endpoint: getTodo, args: [{ id: op.todo.id }], response: op.todo };
    case 'updateUser':
      return { endpoint: getUser, args: [{ id: op.user.id }], response: op.user };
  }
}

// ---- Invariants -----------------------------------------------------------------------------

/** Every table row a read of `filter`'s list depends on (the row, its members, their authors). */
function dependencies(state: State, filter: Filter): unknown[] {
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

/** The tables of a state (everything but the results' meta, which may hold errors). */
const tablesOf = ({ entities, entitiesMeta, indexes, endpoints }: State) => ({
  entities,
  entitiesMeta,
  indexes,
  endpoints,
});

function checkInvariants(state: State, model: Model, filters: readonly Filter[]) {
  const entities = plain(state.entities);
  const rows = (entities[todoList.key] ?? {}) as Record<string, string[]>;
  for (const [rowPk, members] of Object.entries(rows)) {
    // No row holds a pk twice.
    expect(new Set(members).size, `row ${rowPk} holds a pk twice: ${members}`).toBe(members.length);
    // No row holds a pk whose entity is INVALID (or missing).
    for (const pk of members) {
      const entity = Object.hasOwn(entities.Todo ?? {}, pk) ? entities.Todo[pk] : undefined;
      expect(entity, `row ${rowPk} holds ${pk}, which is not stored`).toBeDefined();
      expect(isInvalid(entity), `row ${rowPk} holds INVALID ${pk}`).toBe(false);
    }
  }
  // The rows are what push / unshift / page merge / invalidate should have made of them.
  expect(rows).toEqual(Object.fromEntries([...model].map(([i, row]) => [rowOf(filters[i]!), row])));
  // The tables are JSON-serializable. (Not toStrictEqual: it compares `constructor` members,
  // which a table keyed by the pk 'constructor' holds as data.)
  const tables = tablesOf(state);
  expect(JSON.parse(JSON.stringify(tables))).toEqual(plain(tables));
}

/** Runs random operations against a store and the model, checking the invariants after each. */
function holdUnderRandomOperations(domain: Domain, numRuns: number) {
  const { filters } = domain;
  fc.assert(
    fc.property(fc.array(operations(domain), { minLength: 1, maxLength: 30 }), (ops) => {
      const { controller, getState } = createStore();
      const model: Model = new Map();
      const read = (filter: Filter) => controller.getResponse(getList, filter, getState()).data;

      for (const op of ops) {
        const before = getState();
        const previous = filters.map((filter) => ({
          data: read(filter),
          dependencies: dependencies(before, filter),
        }));

        const { endpoint, args, response } = callOf(filters, op);
        controller.setResponse(endpoint, ...(args as [unknown]), response);
        const state = getState();
        const error = state.meta.get(endpoint.key(...args))?.error;
        if (accepted(op)) {
          applyToModel(model, filters, op);
          expect(error).toBeUndefined();
        } else {
          // A refused response changes nothing but its own result's error.
          expect(tablesOf(state)).toEqual(tablesOf(before));
          for (const [name, table] of Object.entries(tablesOf(state)))
            expect(table, `${name} changed`).toBe(tablesOf(before)[name as 'entities']);
          if (!endpoint.sideEffect) expect(error).toBeInstanceOf(Error);
        }
        checkInvariants(state, model, filters);

        filters.forEach((filter, i) => {
          const data = read(filter);
          // Reading an unchanged result twice gives the same object.
          expect(read(filter)).toBe(data);
          // The read matches the row, in order.
          const row = model.get(i);
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
    { numRuns },
  );
}

describe('store invariants under random operations', () => {
  it('hold after every push / unshift / page merge / invalidate / update', () => {
    holdUnderRandomOperations(
      {
        todoIds: fc.integer({ min: 1, max: 8 }),
        userIds: fc.integer({ min: 1, max: 3 }),
        owners: fc.constantFrom(1, 2),
        filters: [{}, { userId: 1 }, { userId: 2 }],
      },
      300,
    );
    // About 2 s alone; the margin is for a machine busy with other test files.
  }, 30_000);

  /** Names that a plain object would find on its prototype, and text a URL must escape. */
  const SPECIAL = [
    '__proto__',
    'constructor',
    'prototype',
    'hasOwnProperty',
    'toString',
    'valueOf',
    '0',
    '-1',
    '1.5',
    'a b',
    'a/b?c#d',
    '%2e',
    '&=+',
    'ü',
    '😀',
    '550e8400-e29b-41d4-a716-446655440000',
  ];
  /** Strings of every kind, and numbers: `5` and `"5"` are one entity. Few, so that they meet. */
  const anyId: fc.Arbitrary<Id> = fc.oneof(
    fc.constantFrom(...SPECIAL, '', 'undefined'),
    fc.string({ unit: 'binary', maxLength: 3 }),
    fc.string({ maxLength: 2 }),
    fc.integer({ min: -2, max: 2 }),
    fc.integer({ min: -2, max: 2 }).map(String),
  );

  it('hold for pks and filter values of any string (and numbers that equal them as text)', () => {
    holdUnderRandomOperations(
      {
        todoIds: anyId,
        userIds: anyId,
        owners: fc.constantFrom<Id>('__proto__', 'constructor', 1, '1', ''),
        filters: [
          {},
          { userId: '__proto__' },
          { userId: 1 },
          { userId: 'constructor' },
          { userId: '' },
          // Nested filter values: a member named __proto__ is data (JSON gives it as one).
          { tag: Object.fromEntries([['__proto__', 'x']]) },
          { tag: {} },
          Object.fromEntries([['constructor', 1]]),
        ],
      },
      300,
    );
  }, 30_000);
});
