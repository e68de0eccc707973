import { describe, expect, it } from 'vitest';
import { ExpiryStatus, Query, schema } from '../../src/index.js';
import { endpoint, Todo, User } from '../fixtures.js';
import { ids, todoStorePerTest } from './support.js';

const { server, api, store } = todoStorePerTest();

const todosOf = new Query(new schema.All(Todo), (todos, { userId }: { userId?: number } = {}) =>
  userId === undefined ? todos : todos.filter((todo) => todo.userId === userId),
);
const todoCount = new Query(new schema.All(Todo), (todos) => todos.length);
const everyTodo = new Query(new schema.All(Todo));

describe('Query', () => {
  it('has the key data-client gives it', () => {
    expect(todosOf.key({ userId: 1 })).toBe('QUERY [{"userId":1}]');
    expect(todoCount.key()).toBe('QUERY []');
  });

  it('getResponse reads the schema from the tables and runs process with the args', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const requests = server.requests.length;
    expect(ids(controller.getResponse(todosOf, { userId: 1 }, getState()).data)).toEqual([1, 2]);
    expect(ids(controller.getResponse(todosOf, { userId: 2 }, getState()).data)).toEqual([3]);
    expect(ids(controller.getResponse(todosOf, getState()).data)).toEqual([1, 2, 3]);
    const count = controller.getResponse(todoCount, getState());
    expect(count.data).toBe(3);
    expect(count.expiryStatus).toBe(ExpiryStatus.Valid);
    // Reading a query fetches nothing.
    expect(server.requests.length).toBe(requests);
  });

  it('reads undefined (without running process) before any todo is stored', () => {
    const { controller, getState } = store;
    expect(controller.getResponse(todoCount, getState()).data).toBeUndefined();
    expect(controller.getResponse(todosOf, null, getState()).data).toBeUndefined();
  });

  it('without process, reads the schema as it is', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const everything = new Query(new schema.All(Todo));
    expect(ids(controller.getResponse(everything, getState()).data)).toEqual([1, 2, 3]);
  });

  it('gives the same output while nothing it read changed', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const first = controller.getResponse(todosOf, { userId: 1 }, getState()).data;
    expect(controller.getResponse(todosOf, { userId: 1 }, getState()).data).toBe(first);
    // An unrelated entity type changes: the same filtered array.
    controller.setResponse(endpoint('user', User), { id: 1 }, { id: 1, name: 'Ann' });
    expect(controller.getResponse(todosOf, { userId: 1 }, getState()).data).toBe(first);
    // Other arguments are another output.
    expect(controller.getResponse(todosOf, { userId: 2 }, getState()).data).not.toBe(first);
  });

  it('follows a push and a delete', async () => {
    const { controller, getState } = store;
    await controller.fetch(api.getTodos, {});
    const before = controller.getResponse(todosOf, { userId: 2 }, getState()).data;
    await controller.fetch(api.createTodo, {}, { title: 'new', userId: 2 });
    const afterPush = controller.getResponse(todosOf, { userId: 2 }, getState()).data;
    expect(ids(afterPush)).toEqual([3, 4]);
    expect(afterPush).not.toBe(before);
    expect(controller.getResponse(todoCount, getState()).data).toBe(4);

    await controller.fetch(api.deleteTodo, { id: 3 });
    expect(ids(controller.getResponse(todosOf, { userId: 2 }, getState()).data)).toEqual([4]);
    expect(controller.getResponse(todoCount, getState()).data).toBe(3);
  });

  it('reads an object schema holding a schema.All, schema.Object or plain, as the All alone', async () => {
    const { controller, getState } = store;
    const byTitle = (todos: Todo[]) => [...todos].sort((a, b) => a.title.localeCompare(b.title));
    const asObject = new Query(
      new schema.Object({ results: new schema.All(Todo), label: '' }),
      ({ results }) => ({ sorted: byTitle(results), count: results.length }),
    );
    const asPlain = new Query({ results: new schema.All(Todo) }, ({ results }) => results.length);
    expect(controller.getResponse(asObject, getState()).data).toBeUndefined();
    await controller.fetch(api.getTodos, {});
    const read = controller.getResponse(asObject, getState()).data;
    expect(read?.count).toBe(3);
    expect(read?.sorted.map((todo) => todo.title)).toEqual(
      byTitle(controller.getResponse(everyTodo, getState()).data ?? []).map((todo) => todo.title),
    );
    expect(read?.sorted[0]).toBeInstanceOf(Todo);
    expect(controller.getResponse(asPlain, getState()).data).toBe(3);
    // Read again over the same rows: the same output.
    expect(controller.getResponse(asObject, getState()).data).toBe(read);
  });

  it('reads an object schema holding a Collection: the stored list of those arguments', async () => {
    const { controller, getState } = store;
    const inList = new Query(
      { results: api.getTodos.schema },
      ({ results }, _args: { userId?: number }) => results.map((todo) => todo.id),
    );
    expect(controller.getResponse(inList, { userId: 1 }, getState()).data).toBeUndefined();
    await controller.fetch(api.getTodos, { userId: 1 });
    expect(controller.getResponse(inList, { userId: 1 }, getState()).data).toEqual([1, 2]);
    expect(controller.getResponse(inList, { userId: 2 }, getState()).data).toBeUndefined();
  });

  it('cannot be fetched', async () => {
    const fetchQuery = store.controller.fetch as (query: unknown) => Promise<unknown>;
    await expect(fetchQuery(todoCount)).rejects.toThrow(/only endpoints can be fetched/);
  });
});
