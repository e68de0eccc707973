/**
 * The schema classes under the names users of `@data-client/rest` know: `schema.Collection`,
 * `schema.Invalidate`, … Exported as a module namespace, so each name is both the class and
 * its type (`schema.Invalidate<typeof Todo>`).
 */

/** `schema.Query`: current data-client's name of `Query`, read with `useQuery`. */
export { Query } from '../endpoint/Query.js';
export { AllSchema as All } from './All.js';
export { ArraySchema as Array } from './Array.js';
export { Collection } from './CollectionWithMoves.js';
export { EntityMixin as Entity, type EntityOptions } from './EntityMixin.js';
export { Invalidate } from './Invalidate.js';
export { Lazy, LazyQuery } from './Lazy.js';
export { ObjectSchema as Object } from './Object.js';
export { UnionSchema as Union } from './Union.js';
export { ValuesSchema as Values } from './Values.js';
