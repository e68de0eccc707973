import { ArraySchema } from './Array.js';
import { Collection } from './Collection.js';
import { Invalidate } from './Invalidate.js';
import { ObjectSchema } from './Object.js';
import { UnionSchema } from './Union.js';
import { ValuesSchema } from './Values.js';

/** The schema classes, under the names users of `@data-client/rest` know. */
export const schema = {
  Array: ArraySchema,
  Object: ObjectSchema,
  Values: ValuesSchema,
  Union: UnionSchema,
  Collection,
  Invalidate,
};

export {
  CollectionAdder,
  type CollectionFilter,
  type CollectionMerge,
  type CollectionOptions,
  type CreateCollectionFilter,
  paginatedFilter,
  paginatedMerge,
  pushMerge,
  unshiftMerge,
} from './Collection.js';
export { SchemaError } from './describe.js';
export { Entity, type EntityClass } from './Entity.js';
export { INVALID, type Invalid, isInvalid } from './invalid.js';
export type {
  DenormalizeContext,
  EntityStatics,
  NormalizeContext,
  QueryContext,
  SchemaClass,
} from './types.js';
export { ArraySchema, Collection, Invalidate, ObjectSchema, UnionSchema, ValuesSchema };
