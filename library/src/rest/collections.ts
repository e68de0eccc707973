import { Collection, type CollectionAdder } from '../schema/Collection.js';
import { ObjectSchema } from '../schema/Object.js';
import { isSchemaClass } from '../schema/types.js';

/** The Collection a response schema holds: itself, or a member of an object schema. */
export function findCollection(schema: unknown): Collection | undefined {
  if (schema instanceof Collection) return schema;
  const members = schema instanceof ObjectSchema ? schema.schema : plainObject(schema);
  if (!members) return undefined;
  for (const member of Object.values(members)) {
    const found = findCollection(member);
    if (found) return found;
  }
  return undefined;
}

/** The Collection an endpoint's schema holds; refused, naming `member`, when it holds none. */
export function requireCollection(endpoint: { name: string; schema: unknown }, member: string) {
  const collection = findCollection(endpoint.schema);
  if (!collection)
    throw new TypeError(`${endpoint.name}.${member}: the schema holds no schema.Collection`);
  return collection;
}

/** The schema with every Collection replaced, e.g. by its page-merging adder. */
export function mapCollections(
  schema: unknown,
  replace: (collection: Collection) => CollectionAdder,
): unknown {
  if (schema instanceof Collection) return replace(schema);
  if (schema instanceof ObjectSchema) return new ObjectSchema(mapMembers(schema.schema, replace));
  const members = plainObject(schema);
  return members ? mapMembers(members, replace) : schema;
}

function mapMembers(
  members: Record<string, unknown>,
  replace: (collection: Collection) => CollectionAdder,
) {
  return Object.fromEntries(
    Object.entries(members).map(([key, member]) => [key, mapCollections(member, replace)]),
  );
}

function plainObject(schema: unknown): Record<string, unknown> | undefined {
  return typeof schema === 'object' &&
    schema !== null &&
    !Array.isArray(schema) &&
    !isSchemaClass(schema)
    ? (schema as Record<string, unknown>)
    : undefined;
}
