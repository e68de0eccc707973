import { createResource } from '../../src/index.js';
import { Todo } from '../rest/support.js';

/** Shared declarations of the type tests (this file holds no tests). */

export { Todo };

/** The body of the typed todo resources: `title` is required, so leaving it out is an error. */
export type TodoBody = { title: string; completed?: boolean };

/** What a URL parameter accepts. */
export type Id = string | number;

/** `/todos/:id` with typed search parameters and body, paginated by `page`. */
export const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  urlPrefix: 'http://api.test',
  searchParams: {} as { userId?: number },
  body: {} as TodoBody,
  paginationField: 'page',
});
