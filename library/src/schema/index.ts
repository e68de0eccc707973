import { AllSchema } from './All.js';
import { ArraySchema } from './Array.js';
import { Collection } from './CollectionWithMoves.js';
import { Invalidate } from './Invalidate.js';
import { ObjectSchema } from './Object.js';
import { UnionSchema } from './Union.js';
import { ValuesSchema } from './Values.js';

export {
  /**
   * The collection `createResource` builds its lists of: `schema.Collection` without `remove`
   * and `move` (an app that does not use them does not ship them).
   */
  type Collection as CollectionBase,
  CollectionAdder,
  type CollectionFilter,
  type CollectionMerge,
  type CollectionOptions,
  type CollectionSchema,
  type CreateCollectionFilter,
  type MemberOf,
  paginatedFilter,
  paginatedMerge,
  pushMerge,
  unshiftMerge,
  /** data-client's name of the merge that prepends, for `moveWith(unshift)` and `addWith`. */
  unshiftMerge as unshift,
} from './Collection.js';
export { CollectionMover, CollectionRemover } from './CollectionWithMoves.js';
export { SchemaError } from './describe.js';
export { Entity, type EntityClass } from './Entity.js';
export { INVALID, type Invalid, isInvalid } from './invalid.js';
/** The schema classes under data-client's names: `schema.Collection`, `schema.Invalidate`, … */
export * as schema from './schemaNamespace.js';
export type {
  DenormalizeContext,
  EntityStatics,
  NormalizeContext,
  PolymorphicInterface,
  QueryContext,
  SchemaClass,
} from './types.js';
export { validateRequired } from './validateRequired.js';
export { AllSchema, ArraySchema, Collection, Invalidate, ObjectSchema, UnionSchema, ValuesSchema };
