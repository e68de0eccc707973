import { type EntityStatics, isEntity } from '../../schema/types.js';

/**
 * The Entity classes a schema holds, nested ones included, each once: through entities' field
 * schemas, lists, plain object schemas and schema instances (Collection, Union…), whose fields
 * hold the schemas nested in them.
 */
export function entityClassesIn(schema: unknown): EntityStatics[] {
  const found: EntityStatics[] = [];
  const seen = new Set<unknown>();
  const pending = [schema];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' && typeof next !== 'function') continue;
    if (next === null || seen.has(next)) continue;
    seen.add(next);
    if (isEntity(next)) {
      found.push(next);
      for (const nested of Object.values(next.schema)) pending.push(nested);
    } else if (typeof next === 'object') {
      for (const nested of Object.values(next)) pending.push(nested);
    }
  }
  return found;
}
