/**
 * How the devtools name an entity: its type, its pk and its label (`Todo 7 "Buy milk"`). The page
 * labels the entities an event touches as it happens; the panel labels the rows it holds. Both
 * read the label here, so that one entity is named alike everywhere.
 */

export { isOptimisticPk } from '../../schema/optimisticPk.js';

/** The fields that usually name an entity, most telling first. */
const LABEL_FIELDS = ['title', 'name', 'label', 'username', 'email', 'text', 'slug'];

/** Longer labels are cut: a label names an entity in one line, it does not show its text. */
const MAX_LABEL_LENGTH = 60;

/**
 * An entity's label, from its fields: the field `labelField` names (an Entity's `static label`),
 * else the first of the usual fields (title, name, …) that holds text or a number; '' when none
 * does.
 */
export function labelOfFields(
  fields: Readonly<Record<string, unknown>>,
  labelField?: string,
): string {
  for (const field of labelField === undefined ? LABEL_FIELDS : [labelField]) {
    const value = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (typeof value === 'string' || typeof value === 'number') {
      const text = String(value);
      return text.length > MAX_LABEL_LENGTH ? `${text.slice(0, MAX_LABEL_LENGTH - 1)}…` : text;
    }
  }
  return '';
}
