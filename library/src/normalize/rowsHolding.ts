/**
 * Which collection rows hold an entity: kept in the tables (`rowsHolding`, by entity key then
 * pk) so that a delete removes the entity from exactly those rows, whatever the number of lists.
 */

import type { CollectionTable } from '../schema/types.js';
import { parseUnionRef } from '../schema/unionRef.js';
import type { TablesDraft } from './tables.js';

/** A collection row, and how it names its members. */
export interface RowRef {
  /** The collection's table key, e.g. `[Todo]`. */
  readonly collection: string;
  /** The row: its serialized filtering arguments, e.g. `{"userId":"1"}`. */
  readonly row: string;
  /** A collection of a schema.Union's members names them by union reference (`["Post","5"]`). */
  readonly union: boolean;
}

/** The rows holding one entity: most entities are in one list, so one row is stored as itself. */
export type Holders = RowRef | readonly RowRef[];

function sameRow(a: RowRef, b: RowRef): boolean {
  return a.row === b.row && a.collection === b.collection;
}

/** The rows as a list. */
export function holdingRows(holders: Holders | undefined): readonly RowRef[] {
  if (holders === undefined) return [];
  return isRowRef(holders) ? [holders] : holders;
}

function isRowRef(holders: Holders): holders is RowRef {
  return !Array.isArray(holders);
}

/** `holders` with `row` among them (the very value when it already is). */
export function withRow(holders: Holders | undefined, row: RowRef): Holders {
  if (holders === undefined) return row;
  const rows = holdingRows(holders);
  if (rows.some((held) => sameRow(held, row))) return holders;
  return [...rows, row];
}

/** `holders` without `row` (the very value when it is not among them; undefined when none is left). */
export function withoutRow(holders: Holders | undefined, row: RowRef): Holders | undefined {
  const rows = holdingRows(holders);
  const kept = rows.filter((held) => !sameRow(held, row));
  if (kept.length === rows.length) return holders;
  if (kept.length === 0) return undefined;
  return kept.length === 1 ? kept[0] : kept;
}

/** The entity type and pk a collection member names: a union's members name their own type. */
export function memberEntity(table: CollectionTable, member: string): [string, string] | undefined {
  return table.entity === undefined ? parseUnionRef(member) : [table.entity, member];
}

/** Notes in `rowsHolding` that `row` now holds (or no longer holds) the entity `member` names. */
export function noteHolding(
  rowsHolding: TablesDraft<Holders>,
  table: CollectionTable,
  member: string,
  row: RowRef,
  holds: boolean,
): void {
  const named = memberEntity(table, member);
  if (named === undefined) return;
  const [entity, pk] = named;
  const holders = rowsHolding.get(entity, pk);
  const next = holds ? withRow(holders, row) : withoutRow(holders, row);
  if (next !== holders) rowsHolding.set(entity, pk, next);
}
