import { createStore } from '../../src/index.js';
import type { Todo } from '../fixtures.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { todoApi } from '../helpers/todoApi.js';

/** Shared setup of the store tests (this file holds no tests). */

/**
 * For each test: the test server (three todos), the todo endpoints against it, and an empty
 * store; the server is closed after the test.
 */
export function todoStorePerTest() {
  const server = serverPerTest();
  const api = perTest(() => todoApi(server.url));
  const store = perTest(() => createStore());
  return { server, api, store };
}

/** The ids of a list of todos (undefined when there is no list). */
export const ids = (data: readonly Todo[] | undefined) => data?.map((todo) => todo.id);
