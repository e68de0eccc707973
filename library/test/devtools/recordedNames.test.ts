// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  connectDevtools,
  type DevtoolsConnection,
  replaySession,
} from '../../src/devtools/index.js';
import type { RecordedMutation } from '../../src/devtools/protocol/messages.js';
import { SESSION_FORMAT, SESSION_VERSION } from '../../src/devtools/protocol/session.js';
import { createResource, createStore, Endpoint, Entity, type Store } from '../../src/index.js';
import { Todo, User } from '../fixtures.js';
import { serverPerTest } from '../helpers/perTest.js';
import { PanelStandIn } from './support.js';

/** The summary-class pattern: a partial Todo, stored in the same table (`static key`). */
class TodoSummary extends Entity {
  id = 0;
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const server = serverPerTest();
/** Both resources name their members `Todo.…`; only their paths tell them apart. */
let Todos: ReturnType<typeof todos>;
let Summaries: ReturnType<typeof summaries>;
const todos = () => createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
// The test server's /paged/todos/:id acts as /todos/:id: the path a request went to tells which
// endpoint sent it.
const summaries = () =>
  createResource({ path: '/paged/todos/:id', schema: TodoSummary, urlPrefix: server.url });

let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;

beforeEach(() => {
  Todos = todos();
  Summaries = summaries();
  store = createStore();
  panel = new PanelStandIn();
  connection = connectDevtools(store, { batchInterval: 1, sliceMs: 60_000 });
  panel.connect(0, connection.storeId);
});
afterEach(() => {
  connection.disconnect();
  panel.restore();
});

/** The mutations the panel was told of, as its Recorder keeps them. */
function recorded(): RecordedMutation[] {
  connection.flush();
  return panel
    .events(connection.storeId)
    .filter(({ action }) => action.type === 'setResponse' && action.mutation)
    .map(({ action }) => ({ endpoint: action.endpoint ?? '', args: action.args ?? [] }));
}

const session = (mutations: unknown[]) => ({
  format: SESSION_FORMAT,
  version: SESSION_VERSION,
  mutations,
});
const requests = () => server.requests.map(({ method, url }) => `${method} ${url}`);

describe('endpoints of one name at different paths', () => {
  it('are recorded by their name and path', async () => {
    await store.controller.fetch(Todos.partialUpdate, { id: 1 }, { title: 'full' });
    await store.controller.fetch(Summaries.partialUpdate, { id: 2 }, { title: 'summary' });
    expect(recorded().map(({ endpoint }) => endpoint)).toEqual([
      'Todo.partialUpdate@/todos/:id',
      'Todo.partialUpdate@/paged/todos/:id',
    ]);
  });

  it('replay (send) each to the path it was recorded at, in another store too', async () => {
    await store.controller.fetch(Todos.partialUpdate, { id: 1 }, { title: 'full' });
    await store.controller.fetch(Summaries.partialUpdate, { id: 2 }, { title: 'summary' });
    const mutations = recorded();
    server.requests.length = 0;
    for (const target of [store, createStore({ resources: [Todos, Summaries] })]) {
      const outcomes = await replaySession(target.controller, session(mutations), {
        mode: 'send',
      });
      expect(outcomes.map(({ ok }) => ok)).toEqual([true, true]);
    }
    expect(requests()).toEqual([
      'PATCH /todos/1',
      'PATCH /paged/todos/2',
      'PATCH /todos/1',
      'PATCH /paged/todos/2',
    ]);
  });

  it('a bare name they share is refused, naming them, and nothing is sent', async () => {
    const [outcome] = await replaySession(
      createStore({ resources: [Todos, Summaries] }).controller,
      session([{ endpoint: 'Todo.partialUpdate', args: [{ id: 1 }, { title: 'which?' }] }]),
      { mode: 'send' },
    );
    expect(outcome).toMatchObject({ endpoint: 'Todo.partialUpdate', ok: false });
    expect(outcome?.error).toBe(
      '"Todo.partialUpdate" names 2 endpoints, at different paths: "Todo.partialUpdate@/todos/:id", "Todo.partialUpdate@/paged/todos/:id"; name the one meant in the session',
    );
    expect(requests()).toEqual([]);
  });
});

describe('names no other endpoint bears', () => {
  it('are recorded bare and replay as sessions recorded before', async () => {
    const Users = createResource({ path: '/users/:id', schema: User, urlPrefix: server.url });
    await store.controller.fetch(Users.partialUpdate, { id: 1 }, { name: 'Ada L.' });
    expect(recorded()).toEqual([
      { endpoint: 'User.partialUpdate', args: [{ id: 1 }, { name: 'Ada L.' }] },
    ]);
    const [outcome] = await replaySession(
      createStore({ resources: [Users] }).controller,
      session([{ endpoint: 'User.partialUpdate', args: [{ id: 2 }, { name: 'Alan T.' }] }]),
      { mode: 'send' },
    );
    expect(outcome?.ok).toBe(true);
    expect(requests()).toEqual(['PATCH /users/1', 'PATCH /users/2']);
  });

  it('an endpoint that ran in one store is found in that store only', async () => {
    const rename = new Endpoint(
      async (params: { id: number }, body: { title: string }) => ({ ...params, ...body }),
      { name: 'renameTodo', schema: Todo, sideEffect: true },
    );
    await store.controller.fetch(rename, { id: 1 }, { title: 'renamed' });
    const mutation = { endpoint: 'renameTodo', args: [{ id: 3 }, { title: 'again' }] };
    const [here] = await replaySession(store.controller, session([mutation]), { mode: 'send' });
    expect(here?.ok).toBe(true);
    expect(store.getState().entities.get('Todo')?.get('3')).toMatchObject({ title: 'again' });
    const [elsewhere] = await replaySession(createStore().controller, session([mutation]), {
      mode: 'send',
    });
    expect(elsewhere).toMatchObject({ ok: false, endpoint: 'renameTodo' });
    expect(elsewhere?.error).toBe(
      'unknown endpoint "renameTodo": no endpoint of its resource ran in this store, and it was not given to createStore({ resources })',
    );
  });
});
