/**
 * Two stores share nothing they did not share explicitly: what one learned by running endpoints
 * (the endpoints it knows by name) and what it numbered stay its own.
 */
import { describe, expect, it } from 'vitest';
import { createResource, createStore, Endpoint } from '../../src/index.js';
import { Todo } from '../fixtures.js';

const todos = () =>
  createResource({ path: '/todos/:id', schema: Todo, urlPrefix: 'http://127.0.0.1:1' });

describe('the endpoints a store knows by name', () => {
  it('are those that ran in it and the rest of their resource, in that store only', () => {
    const Todos = todos();
    const [first, second] = [createStore(), createStore()];
    first.controller.setResponse(Todos.get, { id: 1 }, { id: 1, title: 'one' });
    expect(first.controller.endpoints?.named('Todo.get')).toEqual([Todos.get]);
    expect(first.controller.endpoints?.named('Todo.getList.push')).toEqual([Todos.getList.push]);
    expect(second.controller.endpoints?.named('Todo.get')).toEqual([]);
    expect(second.controller.endpoints?.named('Todo.getList.push')).toEqual([]);
  });

  it('include the resources given to createStore, in each store given them', () => {
    const Todos = todos();
    const shared = [createStore({ resources: [Todos] }), createStore({ resources: [Todos] })];
    for (const { controller } of shared)
      expect(controller.endpoints?.named('Todo.update')).toEqual([Todos.update]);
    expect(createStore().controller.endpoints?.named('Todo.update')).toEqual([]);
  });

  it('prefer the endpoint that ran to its definition at the same path', () => {
    const Todos = todos();
    const withHeaders = Todos.update.extend({ getHeaders: () => ({ 'x-app': '1' }) });
    const { controller } = createStore({ resources: [Todos] });
    controller.setResponse(withHeaders, { id: 1 }, {}, { id: 1, title: 'one' });
    expect(controller.endpoints?.named('Todo.update')).toEqual([withHeaders]);
  });

  it('refuses, naming it, a resource that holds no endpoint', () => {
    expect(() => createStore({ resources: [todos(), { getList: 'not an endpoint' }] })).toThrow(
      'createStore: resources[1] is neither a resource nor an endpoint: it holds no endpoint',
    );
  });
});

describe('placeholder pks of optimistic responses', () => {
  it("are numbered by each store's own requests, and stay the same while the response is applied", () => {
    const create = new Endpoint(
      (_body: { title: string }): Promise<{ id: number; title: string }> => new Promise(() => {}),
      {
        name: 'createTodo',
        schema: Todo,
        sideEffect: true,
        getOptimisticResponse: (_snapshot, body: { title: string }) => body,
      },
    );
    const placeholders = [createStore(), createStore()].map(({ controller, getState }) => {
      void controller.fetch(create, { title: 'new' });
      const first = [...(getState().entities.get('Todo')?.keys() ?? [])];
      // Another action applies the pending optimistic response again.
      controller.setResponse(create, { title: 'other' }, { id: 7, title: 'other' });
      const again = [...(getState().entities.get('Todo')?.keys() ?? [])];
      expect(again).toEqual(expect.arrayContaining(first));
      return first;
    });
    expect(placeholders).toEqual([['optimistic-1-1'], ['optimistic-1-1']]);
  });
});
