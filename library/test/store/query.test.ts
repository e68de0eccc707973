import { describe, expect, it } from 'vitest';
import { ExpiryStatus, Query, schema } from '../../src/index.js';
import { endpoint, Todo, User } from '../fixtures.js';
import { ids, todoStorePerTest } from './support.js';

const { server, api, store } = todoStorePerTest();

const todosOf = new Query(new schema.All(Todo), (todos, { userId }: { userId?: number } = {}) =>
  userId === undefined ? todos : todos.filter((todo) => todo.userId === userId),
);
const todoCount = new Query(new schema.All(Todo), (todos) => todos.length);

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

  it('cannot be fetched', async () => {
    const fetchQuery = store.controller.fetch as (query: unknown) => Promise<unknown>;
    await expect(fetchQuery(todoCount)).rejects.toThrow(/only endpoints can be fetched/);
  });
});
