import { describe, expect, it } from 'vitest';
import { Collection, type CollectionFilter, createResource, createStore } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, ids, rows, Todo, type TodoBody } from './support.js';

/**
 * Spec 2.4: a Collection subclass's nonFilterArgumentKeys(key) names the arguments that do not
 * change which results a list holds; push (and unshift, create) then add to stored lists whatever
 * those arguments' values. createResource.test.ts checks it for a search parameter and push;
 * here for a path parameter, for the other adders, for an override written as a field, and for
 * a subclass that replaces the whole filter.
 */

const server = serverPerTest({ todos: FOUR_TODOS });

/** Lists of every user receive every new todo: `userId` (a path parameter) does not filter. */
class EveryUsersList extends Collection<any> {
  override nonFilterArgumentKeys = (key: string) => key === 'userId' || key.startsWith('order');
}

function userTodos() {
  return createResource({
    path: '/users/:userId/todos/:id',
    schema: Todo,
    urlPrefix: server.url,
    body: {} as TodoBody,
    paginationField: 'page',
    Collection: EveryUsersList,
  });
}

describe('a custom Collection class (2.4)', () => {
  it('builds the list schema of getList and of the members derived from it', () => {
    const UserTodos = userTodos();
    expect(UserTodos.getList.schema).toBeInstanceOf(EveryUsersList);
    expect(UserTodos.getList.push.schema.nonFilterArgumentKeys('userId')).toBe(true);
    expect(UserTodos.create.schema.nonFilterArgumentKeys('userId')).toBe(true);
    expect(UserTodos.getList.getPage.schema.nonFilterArgumentKeys('title')).toBe(false);
  });

  it('push, unshift and create reach the lists whatever the non-filter path parameter holds', async () => {
    const UserTodos = userTodos();
    const { controller, getState } = createStore();
    await controller.fetch(UserTodos.getList, { userId: 1 });
    await controller.fetch(UserTodos.getList, { userId: 2, orderBy: 'title' });
    await controller.fetch(UserTodos.getList.push, { userId: 2 }, { title: 'pushed' });
    await controller.fetch(UserTodos.getList.unshift, { userId: 1 }, { title: 'unshifted' });
    await controller.fetch(UserTodos.create, { userId: 1, orderBy: 'id' }, { title: 'created' });
    expect(rows(getState())).toEqual({
      '{"userId":"1"}': ['6', '1', '2', '5', '7'],
      '{"orderBy":"title","userId":"2"}': ['6', '4', '3', '5', '7'],
    });
    // The entities themselves belong to the user the request named.
    expect(server.todos.slice(4).map((todo) => [todo.id, todo.userId])).toEqual([
      [5, 2],
      [6, 1],
      [7, 1],
    ]);
    expect(ids(controller.getResponse(UserTodos.getList, { userId: 1 }, getState()).data)).toEqual([
      6, 1, 2, 5, 7,
    ]);
  });

  it('other arguments still filter: a push with another search value reaches only its lists', async () => {
    const UserTodos = userTodos();
    const { controller, getState } = createStore();
    await controller.fetch(UserTodos.getList, { userId: 1, tag: 'home' });
    await controller.fetch(UserTodos.getList, { userId: 1, tag: 'work' });
    await controller.fetch(UserTodos.getList.push, { userId: 2, tag: 'work' }, { title: 'p' });
    expect(rows(getState())).toEqual({
      '{"tag":"home","userId":"1"}': ['1', '2'],
      '{"tag":"work","userId":"1"}': ['1', '2', '5'],
    });
  });

  it('a subclass may replace the whole filter with createCollectionFilter(...args)', async () => {
    /** Lists of done todos receive completed ones, the others the rest. */
    class ByCompletion extends Collection<any> {
      override createCollectionFilter(...args: readonly unknown[]): CollectionFilter {
        const done = String((args[1] as TodoBody | undefined)?.completed ?? false);
        return (rowArgs) => rowArgs.done === done;
      }
    }
    const TodoResource = createResource({
      path: '/todos/:id',
      schema: Todo,
      urlPrefix: server.url,
      body: {} as TodoBody,
      Collection: ByCompletion,
    });
    const { controller, getState } = createStore();
    await controller.fetch(TodoResource.getList, { done: true });
    await controller.fetch(TodoResource.getList, { done: false });
    await controller.fetch(TodoResource.getList.push, {}, { title: 'p', completed: true });
    await controller.fetch(TodoResource.getList.unshift, {}, { title: 'u' });
    expect(rows(getState())).toEqual({
      '{"done":"true"}': ['1', '2', '3', '4', '5'],
      '{"done":"false"}': ['6', '1', '2', '3', '4'],
    });
  });
});
