import { denormalize } from './denormalize.js';
import { normalize } from './normalize.js';

/**
 * A response as its schema reads it on its own, whatever the store holds: entities are built
 * from what the response carried (class instances with their defaults), a list or a page is what
 * the response listed, and the entity a delete names reads as that entity (undefined when the
 * answer was a bare pk). It is normalized into empty tables and read back from them.
 *
 * `controller.fetch` resolves to this, as data-client's does: `getPage` to the page it fetched,
 * `push` to the entity it created, `delete` to the entity it removed.
 */
export function readResponse(
  schema: unknown,
  response: unknown,
  args: readonly unknown[],
): unknown {
  const { result, entities } = normalize(schema, response, args, undefined, {
    invalidatedAsRows: true,
  });
  return denormalize(schema, result, entities, args);
}
