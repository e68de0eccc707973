import { describe, expect, it } from 'vitest';
import { createStore, Endpoint, Entity, schema } from '../src/index.js';

class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}
class Todo extends Entity {
  id = 0;
  title = '';
  userId = 0;
  author: User | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  static override schema = { author: User };
}

describe('smoke', () => {
  it('works end to end', async () => {
    const list = new schema.Collection([Todo]);
    const getList = new Endpoint(async (_p: { userId?: number }) => [], { schema: list, name: 'getList' });
    const push = new Endpoint(async (_p: { userId?: number }, _b: object) => ({}), {
      schema: list.push,
      name: 'push',
      sideEffect: true,
    });
    const del = new Endpoint(async (_p: { id: number }) => '', { schema: new schema.Invalidate(Todo), name: 'del', sideEffect: true });
    const store = createStore();
    const c = store.controller;
    c.setResponse(getList, { userId: 1 }, [{ id: 1, title: 'a', userId: 1, author: { id: 9, name: 'x' } }, { id: 2, title: 'b', userId: 1 }]);
    c.setResponse(getList, {}, [{ id: 1, title: 'a' }, { id: 3, title: 'c', userId: 2 }]);
    c.setResponse(push, { userId: 1 }, {}, { id: 4, title: 'd', userId: 1 });
    const r1 = c.getResponse(getList, { userId: 1 }, store.getState());
    expect(r1.data?.map((t) => t.id)).toEqual([1, 2, 4]);
    expect(r1.data?.[0]?.author?.name).toBe('x');
    expect(c.getResponse(getList, {}, store.getState()).data?.map((t) => t.id)).toEqual([1, 3, 4]);
    c.setResponse(del, { id: 1 }, { id: 1 });
    const r2 = c.getResponse(getList, { userId: 1 }, store.getState());
    expect(r2.data?.map((t) => t.id)).toEqual([2, 4]);
    expect(r2.data?.[0]).toBe(r1.data?.[1]);
    console.log(JSON.stringify(store.getState(), null, 1).slice(0, 1500));
  });
});
