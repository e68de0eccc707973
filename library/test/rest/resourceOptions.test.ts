import { describe, expect, it } from 'vitest';
import type { RestGenerics } from '../../src/index.js';
import {
  Collection,
  createResource,
  createStore,
  Entity,
  RestEndpoint,
  schema,
} from '../../src/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { FOUR_TODOS, received, Todo } from './support.js';

/**
 * The createResource argument object (spec 2.2) and the Entity it is given (2.1): what a wrong
 * option, or an entity without its required pk(), gets. Each is refused with an error naming
 * the option, before any request is sent and with the store left as it was.
 */

const server = serverPerTest({ todos: FOUR_TODOS });
const path = '/todos/:id';

describe('createResource refuses a wrong argument object by name (2.2)', () => {
  it('an argument that is not an object', () => {
    for (const wrong of [undefined, null, '/todos/:id', 7]) {
      expect(() => (createResource as (options: unknown) => unknown)(wrong)).toThrow(
        /^createResource takes one options object \(\{ path, schema, \.\.\. \}\), not /,
      );
    }
  });

  it('an Endpoint that is not RestEndpoint or a class derived from it', () => {
    class NotAnEndpoint {
      constructor(options: object) {
        Object.assign(this, options);
      }
    }
    const cases: [unknown, string][] = [
      ['RestEndpoint', 'not "RestEndpoint"'],
      [NotAnEndpoint, 'not the class or function NotAnEndpoint'],
      [() => ({}), 'not the class or function'],
      [{}, 'not {}'],
    ];
    for (const [Endpoint, named] of cases) {
      expect(() => createResource({ path, schema: Todo, Endpoint: Endpoint as never })).toThrow(
        `createResource: Endpoint must be RestEndpoint or a class that extends it, ${named}`,
      );
    }
  });

  it('an endpoint instance given as the Endpoint class: refused, and nothing is requested', async () => {
    // An endpoint is callable: calling it with `new` would send a request with the options as
    // its query.
    const instance = new RestEndpoint({ path: '/todos', urlPrefix: server.url });
    expect(() =>
      createResource({ path, schema: Todo, urlPrefix: server.url, Endpoint: instance as never }),
    ).toThrow(
      'createResource: Endpoint must be RestEndpoint or a class that extends it, not an instance of RestEndpoint (pass the class itself)',
    );
    // A request made anyway would have arrived by the time a request of our own has.
    await fetch(`${server.url}/todos/1`);
    expect(received(server)).toEqual(['GET /todos/1']);
  });

  it('a Collection that is not schema.Collection or a class derived from it', () => {
    const cases: [unknown, string][] = [
      [schema.Array, 'not the class or function ArraySchema'],
      [class Collection {}, 'not the class or function Collection'],
      [new Collection([Todo]), 'not an instance of Collection (pass the class itself)'],
      ['Collection', 'not "Collection"'],
    ];
    for (const [CollectionClass, named] of cases) {
      expect(() =>
        createResource({ path, schema: Todo, Collection: CollectionClass as never }),
      ).toThrow(
        `createResource: Collection must be schema.Collection or a class that extends it, ${named}`,
      );
    }
  });

  it('derived classes, however deep, are accepted and build the members', () => {
    class AppEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {}
    class AuthEndpoint<O extends RestGenerics = any> extends AppEndpoint<O> {}
    class Sorted extends Collection<any> {}
    class SortedByDate extends Sorted {}
    const TodoResource = createResource({
      path,
      schema: Todo,
      Endpoint: AuthEndpoint,
      Collection: SortedByDate,
    });
    expect(TodoResource.get).toBeInstanceOf(AuthEndpoint);
    expect(TodoResource.getList.push).toBeInstanceOf(AuthEndpoint);
    expect(TodoResource.getList.schema).toBeInstanceOf(SortedByDate);
  });

  it('a paginationField that names no query parameter', () => {
    for (const [paginationField, named] of [
      [5, '5'],
      ['', '""'],
      [true, 'true'],
      [{ name: 'page' }, '{"name":"page"}'],
    ] as const) {
      expect(() =>
        createResource({ path, schema: Todo, paginationField: paginationField as never }),
      ).toThrow(
        `createResource: paginationField must name the page's query parameter, not ${named}`,
      );
    }
  });

  it('a urlPrefix that is not a string, naming the member', () => {
    for (const [urlPrefix, named] of [
      [8080, '8080'],
      [{ base: 'http://a' }, '{"base":"http://a"}'],
      [new URL('http://127.0.0.1'), '"http://127.0.0.1/"'],
    ] as const) {
      expect(() => createResource({ path, schema: Todo, urlPrefix: urlPrefix as never })).toThrow(
        `Todo.get: urlPrefix must be a string like "https://api.example.com", not ${named}`,
      );
    }
    expect(() => new RestEndpoint({ path: '/todos', urlPrefix: 1 as never })).toThrow(
      '/todos: urlPrefix must be a string',
    );
    // Left out, or undefined (an unset environment variable): relative URLs.
    expect(createResource({ path, schema: Todo, urlPrefix: undefined }).get.url({ id: 1 })).toBe(
      '/todos/1',
    );
  });
});

describe('an Entity without pk() (2.1: pk() is required)', () => {
  /** What plain JavaScript (or a cast) can declare: fields, a key, no pk(). */
  const NoPk = class NoPk extends (Entity as unknown as new () => object) {
    id = 0;
    title = '';
    static key = 'NoPk';
  } as unknown as typeof Todo;

  it('a fetch rejects with an error naming the class and the missing method; nothing is stored', async () => {
    const NoPkResource = createResource({ path, schema: NoPk, urlPrefix: server.url });
    const { controller, getState } = createStore();
    const message =
      'NoPk has no pk() method: an Entity class must define pk(), which returns its identifier';
    await expect(controller.fetch(NoPkResource.get, { id: 1 })).rejects.toThrow(message);
    await expect(controller.fetch(NoPkResource.getList, {})).rejects.toThrow(message);
    expect(getState().entities.get('NoPk')).toBeUndefined();
    expect(getState().endpoints.get(NoPkResource.get.key({ id: 1 }))).toBeUndefined();
    expect(getState().meta.get(NoPkResource.get.key({ id: 1 }))?.error).toMatchObject({ message });
  });
});
