import { Controller as DataClientController } from '@data-client/core';
import { describe, expect, it } from 'vitest';
import { Controller, createStore, type State } from '../../src/index.js';
import { ids, todoStorePerTest } from './support.js';

const { server, api, store } = todoStorePerTest();

/** A controller with a method of the app's own, as data-client's docs extend theirs. */
class AppController extends Controller {
  titles = (): string[] => {
    const { data } = this.getResponse(api.getTodos, {}, this.getState());
    return data?.map((todo) => todo.title) ?? [];
  };
}

describe('createStore options', () => {
  it('initialState: the store starts from another store’s state, and reads it without a request', async () => {
    await store.controller.fetch(api.getTodos, {});
    const copy = createStore({ initialState: store.getState() });
    expect(copy.getState()).toBe(store.getState());
    expect(ids(copy.controller.getResponse(api.getTodos, {}, copy.getState()).data)).toEqual([
      1, 2, 3,
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it('initialState of data-client’s shape (plain objects) is refused, by name', () => {
    const dataClientState = {
      entities: {},
      indexes: {},
      results: {},
      meta: {},
      entityMeta: {},
      optimistic: [],
      lastReset: 0,
    } as unknown as State;
    expect(() => createStore({ initialState: dataClientState })).toThrow(
      new TypeError(
        "initialState is not a RestLens State (another store's getState(), or initialState()): a data-client state, of plain objects, cannot be read",
      ),
    );
  });

  it.each([null, 'state', 5, []])('initialState %j is refused with the same message', (value) => {
    expect(() => createStore({ initialState: value as unknown as State })).toThrow(
      /initialState is not a RestLens State/,
    );
  });

  it('Controller: the store runs with that class, whose own methods read the store', async () => {
    const { controller } = createStore({ Controller: AppController });
    expect(controller).toBeInstanceOf(AppController);
    await controller.fetch(api.getTodos, {});
    expect((controller as AppController).titles()).toEqual(['write tests', 'fix bugs', 'ship']);
  });

  it('a Controller that does not extend RestLens’s is refused, by name', () => {
    const foreign = DataClientController as unknown as typeof Controller;
    expect(() => createStore({ Controller: foreign })).toThrow(
      new TypeError(
        "Controller must be RestLens's Controller (exported by restlens and restlens/react) or a class that extends it",
      ),
    );
  });
});
