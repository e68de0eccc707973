import { describe, expect, it } from 'vitest';
import { createStore, Endpoint } from '../../src/index.js';
import { Todo, todoList } from '../fixtures.js';

const getTodos = new Endpoint(async (_params: object) => null, {
  name: 'getTodos',
  schema: todoList,
  key: () => 'getTodos',
});
const patchTodo = new Endpoint(async (_params: { id: number }, _body: object) => null, {
  name: 'patchTodo',
  schema: Todo,
  sideEffect: true,
  key: (params: { id: number }) => `PATCH /todos/${params.id}`,
});

describe('a long-running store', () => {
  it('keeps no result or meta for mutations, so it does not grow with every mutation key', async () => {
    const { controller, getState } = createStore();
    const todos = Array.from({ length: 2000 }, (_, i) => ({ id: i, title: `todo ${i}` }));
    await controller.setResponse(getTodos, {}, todos);
    const before = getState();
    for (const { id } of todos)
      await controller.setResponse(patchTodo, { id }, {}, { id, title: `patched ${id}` });
    await controller.setError(patchTodo, { id: 1 }, {}, new Error('refused'));
    const after = getState();
    // The entities took the writes; the results and meta hold what they held before.
    expect(after.entities.get('Todo')?.get('1999')).toEqual({ id: 1999, title: 'patched 1999' });
    expect([...after.endpoints.keys()]).toEqual([...before.endpoints.keys()]);
    expect([...after.meta.keys()]).toEqual([...before.meta.keys()]);
  });

  it('still tells whoever waits for a mutation what came of it', async () => {
    const { controller, observe } = createStore();
    const outcomes: string[] = [];
    observe(({ changes }) => {
      for (const change of changes.results) outcomes.push(`${change.type} ${change.key}`);
    });
    await controller.setResponse(patchTodo, { id: 7 }, {}, { id: 7, title: 'seven' });
    await controller.setError(patchTodo, { id: 8 }, {}, new Error('refused'));
    expect(outcomes).toEqual(['result-stored PATCH /todos/7', 'result-error PATCH /todos/8']);
  });
});
