// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import type { StoreEvent } from '../../src/devtools/protocol/effects.js';
import { createResource, createStore, Entity, type Store, schema } from '../../src/index.js';
import { effectsOf, PanelStandIn } from './support.js';

/**
 * Which stored results a delete reached (`result-suspends`, `result-lost-member`): worked out
 * from the change-set and what points at what, whether or not anything read the results.
 */

class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

/** A todo cannot be shown without its author: its default is an author, not null. */
class Todo extends Entity {
  id = '';
  title = '';
  userId = '';
  author = User.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  static override schema = { author: User };
}

/** A note may lack its author: null by default. */
class Note extends Entity {
  id = '';
  author: User | null = null;
  pk() {
    return this.id;
  }
  static override key = 'Note';
  static override schema = { author: User };
}

const ada = { id: 'u1', name: 'Ada' };
const bob = { id: 'u2', name: 'Bob' };
const todo = (id: string, userId: string, author = userId === 'u1' ? ada : bob) => ({
  id,
  title: `todo ${id}`,
  userId,
  author: { ...author },
});

const Todos = createResource({ path: '/users/:userId/todos/:id', schema: Todo });
const Users = createResource({ path: '/users/:id', schema: User });
const Notes = createResource({ path: '/notes/:id', schema: Note });
const Page = createResource({ path: '/todos/:id', schema: Todo }).extend('getPageObject', {
  path: '/todo-pages',
  schema: { results: new schema.Collection([Todo]), total: 0 },
});

let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;
let seen = 0;

beforeEach(() => {
  store = createStore();
  panel = new PanelStandIn();
  connection = connectDevtools(store, { sliceMs: 60_000 });
  seen = 0;
});
afterEach(() => {
  connection.disconnect();
  panel.restore();
});

/** The last event since the previous call. */
function lastEvent(): StoreEvent {
  const events = panel.pull(connection.storeId, seen);
  seen = events.at(-1)?.seq ?? seen;
  const last = events.at(-1);
  if (last === undefined) throw new Error('no event');
  return last;
}

const readers = (event: StoreEvent) =>
  effectsOf(event, 'result-suspends', 'result-lost-member').map(({ type, key }) => ({
    type,
    key,
  }));

describe('a delete names the results it reached', () => {
  it('of many lists, only the one holding the entity, never read by anyone', async () => {
    for (let user = 0; user < 200; user++) {
      const userId = `u${user}`;
      await store.controller.setResponse(Todos.getList, { userId }, [
        todo(`t${user}a`, userId, ada),
        todo(`t${user}b`, userId, ada),
      ]);
    }
    lastEvent();
    await store.controller.setResponse(Todos.delete, { userId: 'u57', id: 't57b' }, { id: 't57b' });
    expect(readers(lastEvent())).toEqual([
      { type: 'result-lost-member', key: Todos.getList.key({ userId: 'u57' }) },
    ]);
  });

  it('a result of the entity itself suspends; a list only loses it', async () => {
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [
      todo('1', 'u1'),
      todo('2', 'u1'),
    ]);
    await store.controller.setResponse(Todos.get, { userId: 'u1', id: '1' }, todo('1', 'u1'));
    await store.controller.setResponse(Todos.get, { userId: 'u1', id: '2' }, todo('2', 'u1'));
    lastEvent();
    await store.controller.setResponse(Todos.delete, { userId: 'u1', id: '1' }, { id: '1' });
    expect(readers(lastEvent())).toEqual([
      { type: 'result-lost-member', key: Todos.getList.key({ userId: 'u1' }) },
      { type: 'result-suspends', key: Todos.get.key({ userId: 'u1', id: '1' }) },
    ]);
  });

  it("a mutation's answer is no reader: an update, a push or an earlier delete of it is not named", async () => {
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [todo('1', 'u1')]);
    await store.controller.setResponse(
      Todos.partialUpdate,
      { userId: 'u1', id: '1' },
      { title: 'renamed' },
      { ...todo('1', 'u1'), title: 'renamed' },
    );
    await store.controller.setResponse(Todos.delete, { userId: 'u1', id: '1' }, { id: '1' });
    await store.controller.setResponse(
      Todos.getList.push,
      { userId: 'u1' },
      { title: 'again' },
      todo('1', 'u1'),
    );
    lastEvent();
    await store.controller.setResponse(Todos.delete, { userId: 'u1', id: '1' }, { id: '1' });
    // The list is the one reader: the store keeps no result for the update's, the push's or the
    // first delete's answer, which no component reads.
    expect(readers(lastEvent())).toEqual([
      { type: 'result-lost-member', key: Todos.getList.key({ userId: 'u1' }) },
    ]);
  });

  it('through a nested entity: deleting an author reaches what shows its todos and notes', async () => {
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [
      todo('1', 'u1', ada),
      todo('2', 'u1', bob),
    ]);
    await store.controller.setResponse(Todos.get, { userId: 'u1', id: '1' }, todo('1', 'u1', ada));
    await store.controller.setResponse(Todos.get, { userId: 'u1', id: '2' }, todo('2', 'u1', bob));
    await store.controller.setResponse(Users.get, { id: 'u1' }, ada);
    await store.controller.setResponse(Notes.get, { id: 'n1' }, { id: 'n1', author: ada });
    lastEvent();
    await store.controller.setResponse(Users.delete, { id: 'u1' }, { id: 'u1' });
    expect(readers(lastEvent())).toEqual([
      // Todo 1 cannot be shown without Ada: the list drops it, its own result suspends.
      { type: 'result-lost-member', key: Todos.getList.key({ userId: 'u1' }) },
      { type: 'result-suspends', key: Todos.get.key({ userId: 'u1', id: '1' }) },
      { type: 'result-suspends', key: Users.get.key({ id: 'u1' }) },
      // A note may lack its author: it is still shown.
      { type: 'result-lost-member', key: Notes.get.key({ id: 'n1' }) },
    ]);
  });

  it('a list inside an object schema loses the member; the object is still shown', async () => {
    await store.controller.setResponse(Page.getPageObject, {
      results: [todo('1', 'u1'), todo('2', 'u1')],
      total: 2,
    });
    lastEvent();
    await store.controller.setResponse(Page.delete, { id: '2' }, { id: '2' });
    expect(readers(lastEvent())).toEqual([
      { type: 'result-lost-member', key: Page.getPageObject.key() },
    ]);
  });

  it('a result invalidated, or a store reset, is no longer reached', async () => {
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [todo('1', 'u1')]);
    await store.controller.setResponse(Todos.getList, { userId: 'u2' }, [todo('2', 'u2')]);
    await store.controller.invalidate(Todos.getList, { userId: 'u1' });
    lastEvent();
    await store.controller.setResponse(Todos.delete, { userId: 'u1', id: '1' }, { id: '1' });
    expect(readers(lastEvent())).toEqual([]);
    await store.controller.resetEntireStore();
    await store.controller.setResponse(Todos.delete, { userId: 'u2', id: '2' }, { id: '2' });
    expect(readers(lastEvent())).toEqual([]);
  });

  it('after more changes than wait to be indexed, the index is made again from the store', async () => {
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [
      todo('1', 'u1', ada),
      todo('2', 'u1', bob),
    ]);
    await store.controller.setResponse(Todos.get, { userId: 'u1', id: '1' }, todo('1', 'u1', ada));
    // More writes than the describer keeps waiting, none of them a delete.
    for (let n = 0; n < 1200; n++)
      await store.controller.setResponse(Notes.get, { id: `n${n}` }, { id: `n${n}`, author: bob });
    lastEvent();
    await store.controller.setResponse(Users.delete, { id: 'u1' }, { id: 'u1' });
    expect(readers(lastEvent())).toEqual([
      { type: 'result-lost-member', key: Todos.getList.key({ userId: 'u1' }) },
      { type: 'result-suspends', key: Todos.get.key({ userId: 'u1', id: '1' }) },
    ]);
  });

  it('rows written before a delete that did not need them are indexed for a later one', async () => {
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [todo('1', 'u1', bob)]);
    const pushed = todo('2', 'u1', ada);
    await store.controller.setResponse(
      Todos.getList.push,
      { userId: 'u1' },
      { title: pushed.title },
      pushed,
    );
    // Many rows of one table waiting (more than are kept one write at a time).
    for (let n = 0; n < 300; n++)
      await store.controller.setResponse(Notes.get, { id: `n${n}` }, { id: `n${n}`, author: ada });
    // Nothing points at a todo: this delete leaves the waiting rows to a delete that needs them.
    await store.controller.setResponse(Todos.delete, { userId: 'u1', id: '1' }, { id: '1' });
    expect(readers(lastEvent())).toEqual([
      { type: 'result-lost-member', key: Todos.getList.key({ userId: 'u1' }) },
    ]);
    await store.controller.setResponse(Users.delete, { id: 'u1' }, { id: 'u1' });
    expect(readers(lastEvent())).toEqual([
      { type: 'result-lost-member', key: Todos.getList.key({ userId: 'u1' }) },
      ...Array.from({ length: 300 }, (_, n) => ({
        type: 'result-lost-member',
        key: Notes.get.key({ id: `n${n}` }),
      })),
    ]);
  });

  it('a list fetched again without the entity is no longer reached by its delete', async () => {
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [
      todo('1', 'u1'),
      todo('2', 'u1'),
    ]);
    await store.controller.setResponse(Todos.getList, { userId: 'u1' }, [todo('2', 'u1')]);
    await store.controller.setResponse(Todos.get, { userId: 'u1', id: '1' }, todo('1', 'u1'));
    lastEvent();
    await store.controller.setResponse(Todos.delete, { userId: 'u1', id: '1' }, { id: '1' });
    expect(readers(lastEvent())).toEqual([
      { type: 'result-suspends', key: Todos.get.key({ userId: 'u1', id: '1' }) },
    ]);
  });
});
