import { describe, expect, it } from 'vitest';
import { createStore, Endpoint, ExpiryStatus, SchemaError, schema } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, row, rows, Todo, todoResource, track } from '../rest/support.js';

const server = serverPerTest({ todos: FOUR_TODOS });

const doneTodos = new schema.Query(new schema.All(Todo), (todos, { done }: { done: boolean }) =>
  todos.filter((todo) => todo.completed === done),
);

describe('controller.set', () => {
  it('writes an entity given as a value: every result holding it reads the new fields', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(Todos.getList, { userId: 1 });
    await controller.set(Todo, { id: 1 }, { id: 1, title: 'set by hand', userId: 1 });
    const list = controller.getResponse(Todos.getList, { userId: 1 }, getState()).data;
    expect(list?.map((todo) => todo.title)).toEqual(['set by hand', 'fix bugs']);
    expect(row(getState(), '1')).toMatchObject({ title: 'set by hand', completed: false });
    // No result of its own: only the list's.
    expect([...getState().endpoints.keys()]).toEqual([Todos.getList.key({ userId: 1 })]);
    expect(server.requests).toHaveLength(1);
  });

  it('takes an updater, given what get reads now', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(Todos.get, { id: 2 });
    const seen: unknown[] = [];
    await controller.set(Todo, { id: 2 }, (todo) => {
      seen.push(todo);
      return { ...todo, completed: !todo?.completed };
    });
    expect(seen[0]).toBeInstanceOf(Todo);
    expect(controller.get(Todo, { id: 2 }, getState())?.completed).toBe(false);
  });

  it("replaces a Collection's row named by the arguments", async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(Todos.getList, { userId: 2 });
    await controller.set(Todos.getList.schema, { userId: 2 }, (todos) => [
      ...(todos ?? []).slice(1),
      { id: 9, title: 'added by set', completed: false, userId: 2 },
    ]);
    expect(rows(getState())).toEqual({ '{"userId":"2"}': ['4', '9'] });
  });

  it('rejects a value that does not fit the schema with a SchemaError, writing nothing', async () => {
    const { controller, getState } = createStore();
    const before = getState().entities;
    await expect(controller.set(Todo, { id: 1 }, { title: 'no id' })).rejects.toThrow(SchemaError);
    expect(getState().entities).toBe(before);
  });

  it('refuses what is not a schema, by name', async () => {
    const { controller } = createStore();
    await expect(controller.set(5 as never, {})).rejects.toThrow(
      /controller.set: the first argument must be a schema .* not 5/,
    );
  });
});

describe('controller.get, getQueryMeta and getResponseMeta', () => {
  it('get and getQueryMeta read a schema.Query over the tables', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    expect(controller.get(doneTodos, { done: true }, getState())).toBeUndefined();
    await controller.fetch(Todos.getList, {});
    const done = controller.get(doneTodos, { done: true }, getState());
    expect(done?.map((todo) => todo.id)).toEqual([2]);
    // The same output while nothing changed, as useQuery relies on.
    expect(controller.getQueryMeta(doneTodos, { done: true }, getState()).data).toBe(done);
    expect(controller.getQueryMeta(Todo, { id: 3 }, getState()).data?.title).toBe('ship');
  });

  it("getResponseMeta is getResponse's reading, with its expiry", async () => {
    const Todos = todoResource(server.url);
    const { controller, getState } = createStore();
    await controller.fetch(Todos.get, { id: 4 });
    const meta = controller.getResponseMeta(Todos.get, { id: 4 }, getState());
    expect(meta).toEqual(controller.getResponse(Todos.get, { id: 4 }, getState()));
    expect(meta.data?.title).toBe('celebrate');
    expect(meta.expiryStatus).toBe(ExpiryStatus.Valid);
    expect(meta.expiresAt).toBeGreaterThan(Date.now());
    // @ts-expect-error the state is missing
    expect(() => controller.getResponseMeta(Todos.get, { id: 4 })).toThrow(
      /controller.getResponseMeta: the last argument must be the state/,
    );
  });
});

describe('snapshot.abort', () => {
  it('thrown from getOptimisticResponse shows nothing until the answer, which commits', async () => {
    const Todos = todoResource(server.url);
    const { controller, getState, observe } = createStore();
    const rename = new Endpoint(
      async ({ id }: { id: number }, body: { title: string }) => {
        const response = await fetch(`${server.url}/todos/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return response.json();
      },
      {
        name: 'rename',
        schema: Todo,
        sideEffect: true,
        getOptimisticResponse(snapshot, { id }: { id: number }, body: { title: string }) {
          // Only a todo already shown is renamed at once.
          if (snapshot.getResponse(Todos.get, { id }).data === undefined) throw snapshot.abort;
          return { id, ...body };
        },
      },
    );
    // An abort is no error: nothing is reported for the call.
    const reported: unknown[] = [];
    observe(({ changes }) => {
      for (const change of changes.results)
        if (change.type === 'result-error') reported.push(change.error);
    });
    server.setDelay(100);
    const pending = track(controller.fetch(rename, { id: 3 }, { title: 'later' }));
    expect(row(getState(), '3')).toBeUndefined();
    expect(getState().optimistic).toHaveLength(1);
    expect(reported).toEqual([]);
    await pending.promise;
    expect(row(getState(), '3')).toMatchObject({ title: 'later' });
  });
});
