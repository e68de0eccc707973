// @vitest-environment jsdom
import { afterEach, beforeEach, expect, it } from 'vitest';
import { connectDevtools, type DevtoolsConnection } from '../../src/devtools/index.js';
import {
  type CommandErrorMessage,
  extensionCommand,
} from '../../src/devtools/protocol/messages.js';
import { createResource, createStore, Entity, type Store } from '../../src/index.js';
import { dispatchFrom, nextTask, PanelStandIn } from './support.js';

// An edit whose new row the entity's own pk() cannot read: the pk is worked out from a field the
// edit replaces (here by null), and pk() throws on it.

class Membership extends Entity {
  team = { id: '' };
  role = '';
  pk() {
    return this.team.id;
  }
  static override key = 'Membership';
}

const Memberships = createResource({
  path: '/memberships/:id',
  schema: Membership,
  urlPrefix: 'http://api.test',
});

let store: Store;
let panel: PanelStandIn;
let connection: DevtoolsConnection;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeEach(() => {
  rejections.length = 0;
  process.on('unhandledRejection', onRejection);
  store = createStore();
  panel = new PanelStandIn();
  connection = connectDevtools(store, { batchInterval: 1 });
  panel.connect(0, connection.storeId);
  store.controller.setResponse(Memberships.get, { id: 't1' }, { team: { id: 't1' }, role: 'a' });
});
afterEach(() => {
  connection.disconnect();
  panel.restore();
  process.off('unhandledRejection', onRejection);
});

async function edit(field: string, value: unknown) {
  const mark = panel.mark;
  dispatchFrom(
    window,
    extensionCommand({
      kind: 'edit',
      storeId: connection.storeId,
      entity: 'Membership',
      pk: 't1',
      field,
      value: value as never,
    }),
  );
  await nextTask(5);
  return panel
    .since(mark, connection.storeId)
    .filter((message): message is CommandErrorMessage => message.kind === 'command-error')
    .map((message) => message.error);
}

it('the harness: an edit the pk allows is written', async () => {
  expect(await edit('role', 'b')).toEqual([]);
  expect(store.getState().entities.get('Membership')?.get('t1')).toMatchObject({ role: 'b' });
});

it('an edit whose row pk() throws on is refused, naming why; nothing written, nothing thrown', async () => {
  const before = store.getState();
  const errors = await edit('team', null);
  await nextTask(5);
  expect(rejections).toEqual([]);
  expect(errors).toEqual([
    expect.stringMatching(
      /^edit: the pk of Membership "t1" cannot be worked out once "team" is changed: /,
    ),
  ]);
  expect(store.getState()).toBe(before);
});
