import type { ChangeSet, EntityChanges } from '../../normalize/changes.js';
import { isInvalid } from '../../schema/invalid.js';
import type { EntityStatics } from '../../schema/types.js';
import type { State } from '../../store/state.js';
import { labelOfFields } from '../protocol/labels.js';

/**
 * Past this many entities of one type in one change, none is labelled and no row is carried: a
 * page of a large list is said as its count, and reading a label per row would cost every big
 * write, panel or not (the rows a panel shows it asks for).
 */
export const DESCRIBED_PER_GROUP = 100;

/**
 * The labels of the entities of one type a change added and updated, in the order of its
 * change-set's pks; absent for a large group.
 */
export interface EntityLabels {
  added?: string[];
  updated?: string[];
}

/** The labels of a change that added and updated nothing. */
const NO_LABELS: readonly (EntityLabels | undefined)[] = [];

/** An entity class's label for a stored row ('' for none: absent, INVALID, no label field). */
export function labelOfRow(row: unknown, entityClass: EntityStatics | undefined): string {
  return typeof row === 'object' && row !== null && !isInvalid(row)
    ? labelOfFields(row as Readonly<Record<string, unknown>>, entityClass?.label)
    : '';
}

/**
 * Read as the change happens, from the state after it (it may be gone when the change is
 * described): the labels of the entities it added and updated, by the index of their group in
 * its change-set's `entities` (none for a group that only deleted). A deleted entity's label is read when it is
 * described, from the fields the change-set kept of it.
 */
export function entityLabelsOf(
  changes: ChangeSet,
  after: State,
  classOf: (type: string) => EntityStatics | undefined,
): readonly (EntityLabels | undefined)[] {
  let labels: (EntityLabels | undefined)[] | undefined;
  // A loop, not forEach: a delete (which labels nothing here) then costs no closure.
  for (let index = 0; index < changes.entities.length; index++) {
    const { entity, added, updated } = changes.entities[index] as EntityChanges;
    if (added.length === 0 && updated.length === 0) continue;
    const rows = after.entities.get(entity);
    const entityClass = classOf(entity);
    const labelsOf = (pks: readonly string[]) =>
      pks.length <= DESCRIBED_PER_GROUP
        ? pks.map((pk) => labelOfRow(rows?.get(pk), entityClass))
        : undefined;
    labels ??= [];
    labels[index] = {
      added: labelsOf(added),
      updated: labelsOf(updated.map(({ pk }) => pk)),
    };
  }
  return labels ?? NO_LABELS;
}
