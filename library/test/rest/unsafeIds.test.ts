import { describe, expect, it } from 'vitest';
import { createResource, createStore, Entity, SchemaError, schema } from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { Todo } from './support.js';

/**
 * Integer ids beyond Number.MAX_SAFE_INTEGER lose digits when JSON.parse reads them: 2^53 + 1
 * (9007199254740993) reads as 2^53 (9007199254740992). Two such entities would be stored as one,
 * so the response is refused with a SchemaError naming the entity, the field and the value.
 */

const server = serverPerTest();

/** Two todos whose ids differ in the text the server sent and not once parsed. */
const TWO_HUGE_IDS =
  '[{"id":9007199254740993,"title":"first","completed":false,"userId":1},' +
  '{"id":9007199254740992,"title":"second","completed":false,"userId":1}]';

/** What the message says for `where` holding 2^53. */
const BEYOND =
  /is 9007199254740992 \(as parsed\), beyond Number\.MAX_SAFE_INTEGER \(9007199254740991\)/;

/** A todo whose pk is the text of its id, the pattern data-client's docs use. */
class TextPkTodo extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'TextPkTodo';
}

class TodoFields {
  id = 0;
  title = '';
}
/** `schema.Entity` with no pk option: the pk is the `id` field. */
class MixinTodo extends schema.Entity(TodoFields, { key: 'MixinTodo' }) {}

async function loadFails(EntityClass: typeof Todo | typeof TextPkTodo | typeof MixinTodo) {
  const R = createResource({ path: '/todos/:id', schema: EntityClass, urlPrefix: server.url });
  const { controller, getState } = createStore();
  server.respondNext({ rawBody: TWO_HUGE_IDS });
  const error = await controller.fetch(R.getList).catch((e: unknown) => e);
  return { error, R, controller, state: getState() };
}

describe('a pk beyond Number.MAX_SAFE_INTEGER', () => {
  it.each([
    ['pk() returns the number', Todo, 'Todo.id'],
    ['pk() returns the text of the id', TextPkTodo, 'TextPkTodo.id'],
    ["schema.Entity's default pk reads id", MixinTodo, 'MixinTodo.id'],
  ] as const)(
    'fails the response when %s, storing nothing but the error',
    async (_how, EntityClass, where) => {
      const { error, R, controller, state } = await loadFails(EntityClass);
      expect(error).toBeInstanceOf(SchemaError);
      const message = (error as Error).message;
      expect(message.startsWith(`${where} `)).toBe(true);
      expect(message).toMatch(BEYOND);
      expect(message).toMatch(/Send such ids as strings/);
      expect(message).toMatch(/parseResponse/);
      expect(state.entities.get(EntityClass.key)).toBeUndefined();
      expect(state.entities.get(R.getList.schema.key)).toBeUndefined();
      expect(state.endpoints.size).toBe(0);
      expect(controller.getError(R.getList, state)).toBe(error);
    },
  );

  it('is refused below -Number.MAX_SAFE_INTEGER too', async () => {
    const R = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
    const { controller } = createStore();
    server.respondNext({ rawBody: '{"id":-9007199254740993,"title":"below"}' });
    const error = await controller.fetch(R.get, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(/^Todo\.id is -9007199254740992 \(as parsed\)/);
  });

  it('names the field pk() read when it is not id', async () => {
    class Account extends Entity {
      accountNumber = 0;
      pk() {
        return this.accountNumber;
      }
      static override key = 'Account';
    }
    const R = createResource({ path: '/todos/:id', schema: Account, urlPrefix: server.url });
    const { controller } = createStore();
    server.respondNext({ rawBody: '{"accountNumber":12345678901234567890}' });
    const error = await controller.fetch(R.get, { id: 1 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^Account\.accountNumber is 12345678901234567000 \(as parsed\), beyond/,
    );
  });

  it('is refused in a relation given by its id', async () => {
    class Author extends Entity {
      id = 0;
      pk() {
        return this.id;
      }
      static override key = 'Author';
    }
    class Post extends Entity {
      id = 0;
      author: Author | null = null;
      pk() {
        return this.id;
      }
      static override key = 'Post';
      static override schema = { author: Author };
    }
    const R = createResource({ path: '/todos/:id', schema: Post, urlPrefix: server.url });
    const { controller, getState } = createStore();
    server.respondNext({ rawBody: '{"id":1,"author":9007199254740993}' });
    const error = await controller.fetch(R.get, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(/^the Author in author is 9007199254740992/);
    expect(getState().entities.get('Post')).toBeUndefined();
  });

  it('is refused when a delete answers with the bare id', async () => {
    const R = createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url });
    const deleteAnsweredById = R.delete.extend({
      schema: new schema.Invalidate(Todo),
      process: (value: unknown) => value,
    });
    const { controller } = createStore();
    server.respondNext({ rawBody: '9007199254740993' });
    const error = await controller.fetch(deleteAnsweredById, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(/^the Todo pk is 9007199254740992 \(as parsed\)/);
  });

  it('is stored when it is Number.MAX_SAFE_INTEGER itself, or sent as text', async () => {
    const R = createResource({ path: '/todos/:id', schema: TextPkTodo, urlPrefix: server.url });
    const { controller, getState } = createStore();
    server.respondNext({
      rawBody: '[{"id":9007199254740991,"title":"safe"},{"id":"9007199254740993","title":"text"}]',
    });
    const list = await controller.fetch(R.getList);
    expect(list.map((todo) => todo.title)).toEqual(['safe', 'text']);
    expect([...(getState().entities.get('TextPkTodo')?.keys() ?? [])]).toEqual([
      '9007199254740991',
      '9007199254740993',
    ]);
  });
});
