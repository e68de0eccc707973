/**
 * The timed scenarios, each run on both libraries with the 1,000-item list mounted, and what a
 * library that renders exactly the components whose reading changed would render for each.
 */
import type { BenchPage } from './page.js';
import { LIST_SIZE, type Sample } from './protocol.js';

export type ScenarioId =
  | 'mount'
  | 'update-todo'
  | 'update-author'
  | 'unshift'
  | 'delete'
  | 'unrelated';

export interface Scenario {
  id: ScenarioId;
  name: string;
  /** Components whose reading the update changes (rows mounted by it included); none for a mount. */
  readersChanged?: number;
  /** One timed sample (the `n`th on this page); the list is mounted, at full size, before and after. */
  sample(page: BenchPage, n: number): Promise<Sample>;
}

export const scenarios: readonly Scenario[] = [
  {
    id: 'mount',
    name: 'mount the list (fetch, 1,002 components)',
    async sample(page) {
      await page.call('unmount');
      return page.call('mount');
    },
  },
  {
    id: 'update-todo',
    name: 'update one todo',
    readersChanged: 2, // its row and the list
    // Spread over the list, so that no row stays hot in the caches.
    sample: (page, n) => page.call('updateTodo', (n * 389) % LIST_SIZE),
  },
  {
    id: 'update-author',
    name: 'update the author all todos share',
    readersChanged: LIST_SIZE + 1, // every row and the list
    sample: (page) => page.call('updateAuthor'),
  },
  {
    id: 'unshift',
    name: 'unshift a todo',
    readersChanged: 2, // the list and the new row
    async sample(page) {
      const sample = await page.call('unshiftTodo');
      await page.call('deleteTodo', 0);
      return sample;
    },
  },
  {
    id: 'delete',
    name: 'delete a todo',
    readersChanged: 1, // the list
    async sample(page) {
      const sample = await page.call('deleteTodo', LIST_SIZE / 2);
      await page.call('unshiftTodo');
      return sample;
    },
  },
  {
    id: 'unrelated',
    name: 'update another resource (1 reader)',
    readersChanged: 1, // the project's reader; no todo reader
    sample: (page) => page.call('updateProject'),
  },
];
