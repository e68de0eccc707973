import { ListSchema } from '../schema/List.js';
import { ObjectSchema } from '../schema/Object.js';
import { isSchemaClass, type SchemaClass } from '../schema/types.js';

const wrapped = new WeakMap<object, SchemaClass>();

/**
 * The schema class for a schema value: classes as they are, `[S]` as a ListSchema and plain
 * objects as an ObjectSchema (wrapped once each); undefined for primitives, which pass through.
 */
export function schemaOf(schema: unknown): SchemaClass | undefined {
  if (isSchemaClass(schema)) return schema;
  if (typeof schema !== 'object' || schema === null) return undefined;
  let wrapper = wrapped.get(schema);
  if (!wrapper) {
    if (Array.isArray(schema) && schema.length > 1) {
      // `[Cat, User]` would read as a list of cats alone; data-client refuses it too.
      throw new TypeError(
        process.env.NODE_ENV !== 'production'
          ? `A list schema holds one schema, but found ${schema.length}: for a list of several entity types, use new schema.Array({ cat: Cat, user: User }, 'type') or [new schema.Union(...)]`
          : `A list schema holds one schema, but found ${schema.length}`,
      );
    }
    wrapper = Array.isArray(schema)
      ? new ListSchema(schema[0])
      : new ObjectSchema(schema as Record<string, unknown>);
    wrapped.set(schema, wrapper);
  }
  return wrapper;
}
