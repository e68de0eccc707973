import type { MemberList } from '../normalize/memberList.js';
import { pkOf } from './Entity.js';
import { isInvalid } from './invalid.js';
import { parseRowArgs } from './rowArgs.js';
import type { CollectionTable, EntityStatics, NormalizeContext } from './types.js';

/**
 * How `Collection.remove` and `Collection.move` take members out of rows: only the rows that hold
 * the member are looked at (the tables' index of the rows holding each entity), whatever the
 * number of rows the collection keeps.
 */

/** Whether a stored row, given its filtering arguments, is chosen. */
type RowTest = (rowArgs: Readonly<Record<string, string>>) => boolean;

/** Takes `member` out of every row of `table` that holds it and passes `leaves`. */
export function removeFromRows(
  ctx: NormalizeContext,
  table: CollectionTable,
  member: string,
  leaves: RowTest,
): void {
  for (const rowPk of ctx.rowsWithMember(table, member)) {
    if (!leaves(parseRowArgs(rowPk))) continue;
    const members = ctx.getRow(table.key, rowPk) as MemberList;
    ctx.writeCollectionRow(table, rowPk, members.remove(member), 'remove', [member]);
  }
}

/** What a moved entity was before the move, and what it is moved to (`Collection.move`). */
export interface MovedEntity {
  /** The entity as stored before the move; undefined when it was not (or was deleted). */
  before: Record<string, unknown> | undefined;
  /** Its values after the move: the call's last argument under what the response says. */
  after: Record<string, unknown>;
}

/**
 * The stored row of the entity `input` names and the values it moves to, read before the input
 * is normalized (which overwrites the stored row). A list member's own fields decide its
 * lists; the call's last argument (the body) fills in what the entity does not carry.
 */
export function movedEntity(
  entity: EntityStatics,
  input: Record<string, unknown>,
  parent: unknown,
  key: string | undefined,
  ctx: NormalizeContext,
): MovedEntity {
  const processed = entity.process(input, parent, key, ctx.args);
  const pk = pkOf(entity, processed, parent, key, ctx.args);
  const stored = pk === undefined ? undefined : ctx.getRow(entity.key, pk);
  const lastArg = ctx.args.length > 1 ? ctx.args.at(-1) : undefined;
  const after = { ...(lastArg as object | undefined), ...processed };
  const before =
    stored === undefined || isInvalid(stored) ? undefined : (stored as Record<string, unknown>);
  return { before, after };
}
