import { describe, expect, it } from 'vitest';
import { createStore, Endpoint, Entity, SchemaError, schema } from '../../src/index.js';
import { endpoint, plain, Todo, User } from '../fixtures.js';

const allTodos = new schema.All(Todo);
const todo = (id: number, userId = 1) => ({ id, title: `todo ${id}`, completed: false, userId });

/** Endpoints that never fetch: responses are stored with setResponse. */
function todoEndpoints() {
  return {
    list: endpoint('list', [Todo]),
    get: endpoint('get', Todo),
    all: endpoint('all', allTodos),
    remove: endpoint('remove', new schema.Invalidate(Todo), { sideEffect: true }),
    user: endpoint('user', User),
  };
}

describe('schema.All', () => {
  it('reads every todo of the table, in the table order, whoever stored them', () => {
    const { controller, getState } = createStore();
    const api = todoEndpoints();
    controller.setResponse(api.list, { userId: 1 }, [todo(2), todo(1)]);
    controller.setResponse(api.get, { id: 7 }, todo(7, 2));
    const todos = controller.get(allTodos, getState());
    expect(todos?.map((t) => t.id)).toEqual([2, 1, 7]);
    expect(todos?.[2]).toBeInstanceOf(Todo);
    expect(todos?.[2]?.userId).toBe(2);
  });

  it('leaves deleted todos out', () => {
    const { controller, getState } = createStore();
    const api = todoEndpoints();
    controller.setResponse(api.list, {}, [todo(1), todo(2), todo(3)]);
    controller.setResponse(api.remove, { id: 2 }, { id: 2 });
    expect(controller.get(allTodos, getState())?.map((t) => t.id)).toEqual([1, 3]);
  });

  it('reads nothing before any todo was stored, and [] once every todo was deleted', () => {
    const { controller, getState } = createStore();
    const api = todoEndpoints();
    controller.setResponse(api.user, { id: 1 }, { id: 1, name: 'Ann' });
    expect(controller.get(allTodos, getState())).toBeUndefined();
    controller.setResponse(api.list, {}, [todo(1)]);
    controller.setResponse(api.remove, { id: 1 }, { id: 1 });
    expect(controller.get(allTodos, getState())).toEqual([]);
  });

  it('as an endpoint schema: stores the list like [Todo] and reads the whole table', () => {
    const { controller, getState } = createStore();
    const api = todoEndpoints();
    controller.setResponse(api.get, { id: 9 }, todo(9));
    controller.setResponse(api.all, [todo(1), todo(2)]);
    expect(plain(getState().entities).Todo).toEqual({
      '1': todo(1),
      '2': todo(2),
      '9': todo(9),
    });
    expect(controller.getResponse(api.all, getState()).data?.map((t) => t.id)).toEqual([9, 1, 2]);
    // A todo stored later by another endpoint is read too: the read is the table, not the answer.
    controller.setResponse(api.get, { id: 3 }, todo(3));
    expect(controller.getResponse(api.all, getState()).data?.map((t) => t.id)).toEqual([
      9, 1, 2, 3,
    ]);
  });

  it('fetch resolves to the entities of the answer', async () => {
    const { controller } = createStore();
    const fetchAll = new Endpoint(async () => [todo(4), todo(5)], {
      name: 'fetchAll',
      schema: allTodos,
      key: () => 'fetchAll',
    });
    const data = await controller.fetch(fetchAll);
    expect(data.map((t) => t.id)).toEqual([4, 5]);
  });

  it('gives the same array while the table is unchanged, a new one when a todo changes', () => {
    const { controller, getState } = createStore();
    const api = todoEndpoints();
    controller.setResponse(api.list, {}, [todo(1), todo(2)]);
    const first = controller.get(allTodos, getState());
    controller.setResponse(api.user, { id: 1 }, { id: 1, name: 'Ann' });
    const afterUser = controller.get(allTodos, getState());
    expect(afterUser).toBe(first);
    controller.setResponse(api.get, { id: 2 }, { ...todo(2), title: 'renamed' });
    const afterUpdate = controller.get(allTodos, getState());
    expect(afterUpdate).not.toBe(first);
    expect(afterUpdate?.[1]?.title).toBe('renamed');
    // The unchanged todo keeps its instance.
    expect(afterUpdate?.[0]).toBe(first?.[0]);
  });

  it('polymorphic form: the tables of every member, in the order of the definition', () => {
    class Post extends Entity {
      id = 0;
      type = 'post';
      pk() {
        return this.id;
      }
      static override key = 'Post';
    }
    class Comment extends Entity {
      id = 0;
      type = 'comment';
      pk() {
        return this.id;
      }
      static override key = 'Comment';
    }
    const feed = new schema.All({ post: Post, comment: Comment }, 'type');
    const { controller, getState } = createStore();
    const getFeed = endpoint('feed', feed);
    controller.setResponse(getFeed, [
      { id: 1, type: 'comment' },
      { id: 1, type: 'post' },
      { id: 2, type: 'comment' },
    ]);
    const items = controller.getResponse(getFeed, getState()).data;
    expect(items?.map((item) => `${item.type} ${item.id}`)).toEqual([
      'post 1',
      'comment 1',
      'comment 2',
    ]);
    expect(items?.[0]).toBeInstanceOf(Post);
    expect(items?.[1]).toBeInstanceOf(Comment);
  });

  it('refuses a definition that is not entities', () => {
    expect(() => new schema.All({ n: 5 } as never)).toThrow(SchemaError);
  });
});
