import { describe, expect, it } from 'vitest';
import { createResource, createStore, Entity, schema } from '../../src/index.js';
import { Task } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { rows } from './support.js';

const server = serverPerTest({ todos: [] });

/** A user whose todos come nested in it, one list per user (data-client's documented form). */
class Owner extends Entity {
  id = 0;
  name = '';
  tasks: Task[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Owner';
  static override schema = {
    tasks: new schema.Collection([Task], {
      nestKey: (parent: { id: number }) => ({ userId: parent.id }),
    }),
  };
}

const owners = [
  { id: 1, name: 'ada', tasks: [{ id: 10, title: 'write', userId: 1 }] },
  {
    id: 2,
    name: 'alan',
    tasks: [
      { id: 20, title: 'decode', userId: 2 },
      { id: 21, title: 'compute', userId: 2 },
    ],
  },
];

function resources() {
  return {
    Owners: createResource({ path: '/owners/:id', schema: Owner, urlPrefix: server.url }),
    Tasks: createResource({
      path: '/todos/:id',
      schema: Task,
      urlPrefix: server.url,
      searchParams: {} as { userId?: number },
    }),
  };
}

describe('schema.Collection with nestKey', () => {
  it('gives each parent its own list, keyed by what nestKey returns', async () => {
    const { Owners } = resources();
    const { controller, getState } = createStore();
    server.respondNext({ body: owners });
    const read = await controller.fetch(Owners.getList, {});
    expect(read.map((owner) => owner.tasks.map((task) => task.id))).toEqual([[10], [20, 21]]);
    expect(rows(getState(), '[Task]')).toEqual({
      '{"userId":"1"}': ['10'],
      '{"userId":"2"}': ['20', '21'],
    });
    const stored = controller.getResponse(Owners.getList, {}, getState()).data;
    expect(stored?.[0]?.tasks.map((task) => task.title)).toEqual(['write']);
    expect(stored?.[1]?.tasks.map((task) => task.title)).toEqual(['decode', 'compute']);
  });

  it('a push whose arguments match a parent’s key lands in that parent’s list only', async () => {
    const { Owners, Tasks } = resources();
    const { controller, getState } = createStore();
    server.respondNext({ body: owners });
    await controller.fetch(Owners.getList, {});
    const created = await controller.fetch(Tasks.getList.push, { userId: 2 }, { title: 'think' });
    expect(server.requests.at(-1)?.url).toBe('/todos?userId=2');
    expect(created).toBeInstanceOf(Task);
    const read = controller.getResponse(Owners.getList, {}, getState()).data;
    expect(read?.map((owner) => owner.tasks.map((task) => task.title))).toEqual([
      ['write'],
      ['decode', 'compute', 'think'],
    ]);
  });

  it('the same list read through the parent and through a list endpoint is one row', async () => {
    const { Owners, Tasks } = resources();
    const { controller, getState } = createStore();
    server.respondNext({ body: owners[0] });
    await controller.fetch(Owners.get, { id: 1 });
    // A later fetch of the user's list (keyed by its arguments) replaces the nested row.
    server.respondNext({
      body: [
        { id: 10, title: 'write', userId: 1 },
        { id: 11, title: 'review', userId: 1 },
      ],
    });
    await controller.fetch(Tasks.getList, { userId: 1 });
    const owner = controller.getResponse(Owners.get, { id: 1 }, getState()).data;
    expect(owner?.tasks.map((task) => task.title)).toEqual(['write', 'review']);
  });

  it('without nestKey a nested list is keyed by the call’s arguments', async () => {
    class Plain extends Entity {
      id = 0;
      tasks: Task[] = [];
      pk() {
        return this.id;
      }
      static override key = 'PlainOwner';
      static override schema = { tasks: new schema.Collection([Task]) };
    }
    const Plains = createResource({ path: '/plain/:id', schema: Plain, urlPrefix: server.url });
    const { controller, getState } = createStore();
    server.respondNext({ body: { id: 1, tasks: [{ id: 10 }] } });
    await controller.fetch(Plains.get, { id: 1 });
    expect(rows(getState(), '[Task]')).toEqual({ '{"id":"1"}': ['10'] });
  });
});
