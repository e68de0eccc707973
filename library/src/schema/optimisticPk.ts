/**
 * The pk an entity of an optimistic response gets when the response has none yet (a created
 * entity: the server gives it its own). Its own module: the devtools name such an entity "new
 * Todo (pending)" without taking in the Entity class.
 */
export const OPTIMISTIC_PK_PREFIX = 'optimistic-';

/** Whether a pk stands in for one the server has not given yet (see OPTIMISTIC_PK_PREFIX). */
export const isOptimisticPk = (pk: string): boolean => pk.startsWith(OPTIMISTIC_PK_PREFIX);
