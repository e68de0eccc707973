import type { ChangeSet, EntityChanges } from '../../normalize/changes.js';
import { isInvalid } from '../../schema/invalid.js';
import type { EntityStatics } from '../../schema/types.js';
import type { State } from '../../store/state.js';
import { labelOfFields } from '../protocol/labels.js';

/**
 * Past this many entities of one type in one change, none is labelled: a page of a large list
 * is said as its count, and reading a label per row would cost every big write, panel or not.
 */
const LABELLED_PER_GROUP = 100;

/** What the panel is told of the entities of one type a change touched, besides their pks. */
export interface EntityFacts {
  /** The labels of the pks added, in their order; absent for a large group. */
  added?: string[];
  /** The labels of the entities updated, in their order; absent for a large group. */
  updated?: string[];
  /** For each entity invalidated, in order: its label and its fields just before. */
  invalidated: { label: string; last?: Readonly<Record<string, unknown>> }[];
}

const NO_FACTS: ReadonlyMap<EntityChanges, EntityFacts> = new Map();

/** A stored row's fields, or undefined for none (absent, INVALID). */
function fieldsOf(row: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof row === 'object' && row !== null && !isInvalid(row)
    ? (row as Record<string, unknown>)
    : undefined;
}

/**
 * Read as the change happens, from the states around it (they may be gone when it is described):
 * the labels of the entities it wrote, and what each entity it deleted held. Rows are kept by
 * reference: the store never changes a row it holds.
 */
export function entityFactsOf(
  changes: ChangeSet,
  before: State,
  after: State,
  classOf: (type: string) => EntityStatics | undefined,
): ReadonlyMap<EntityChanges, EntityFacts> {
  if (changes.entities.length === 0) return NO_FACTS;
  const facts = new Map<EntityChanges, EntityFacts>();
  for (const group of changes.entities) {
    const labelField = classOf(group.entity)?.label;
    const labelIn = (state: State, pk: string) => {
      const fields = fieldsOf(state.entities.get(group.entity)?.get(pk));
      return fields ? labelOfFields(fields, labelField) : '';
    };
    const labelsOf = (pks: readonly string[]) =>
      pks.length <= LABELLED_PER_GROUP ? pks.map((pk) => labelIn(after, pk)) : undefined;
    facts.set(group, {
      added: labelsOf(group.added),
      updated: labelsOf(group.updated.map(({ pk }) => pk)),
      invalidated: group.invalidated.map(({ pk }) => {
        const last = fieldsOf(before.entities.get(group.entity)?.get(pk));
        return { label: last ? labelOfFields(last, labelField) : '', last };
      }),
    });
  }
  return facts;
}
