import { MemberList } from '../normalize/memberList.js';
import {
  CollectionAdder,
  Collection as CollectionCore,
  type CollectionMerge,
  type CollectionSchema,
  entityRefs,
  pushMerge,
} from './Collection.js';
import { movedEntity, removeFromRows } from './collectionMoves.js';
import { describeValue, SchemaError } from './describe.js';
import { parseRowArgs } from './rowArgs.js';
import { isEntity, type NormalizeContext } from './types.js';

/**
 * `schema.Collection` as data-client's current releases have it: the list schema with `remove`,
 * `move` and `moveWith(merge)` besides `push`, `unshift` and `addWith`.
 *
 * It extends the collection `createResource` builds its lists of, which leaves these members out
 * so that an app that does not use them does not ship them. Every Collection is one for
 * `instanceof` (see below), as `createResource`'s lists were Collections before these members
 * came.
 */
export class Collection<
  S extends CollectionSchema = any,
  _Args extends readonly unknown[] = [urlParams: Record<string, any>, body?: Record<string, any>],
> extends CollectionCore<S, _Args> {
  /**
   * `x instanceof schema.Collection` holds for every collection, including those `createResource`
   * makes (of the class without `remove` and `move`); a subclass tests its own instances.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === Collection
      ? value instanceof CollectionCore
      : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  private removeSchema: CollectionRemover<S> | undefined;
  private moveSchema: CollectionMover<S> | undefined;

  /**
   * Takes its input's entities out of the stored rows that hold them and whose filtering
   * arguments match the call's (as `push` chooses rows), and stores the entities as they come.
   */
  get remove(): CollectionRemover<S> {
    this.removeSchema ??= new CollectionRemover(this);
    return this.removeSchema;
  }

  /**
   * Moves its input's entities between rows: out of the rows their stored values match, into the
   * rows their new values match (the call's last argument under the response), appended. A
   * subclass may set it to `this.moveWith(unshift)` to prepend instead.
   */
  get move(): CollectionMover<S> {
    this.moveSchema ??= this.moveWith(pushMerge);
    return this.moveSchema;
  }

  set move(mover: CollectionMover<S>) {
    this.moveSchema = mover;
  }

  /** A `move` that adds to the rows it reaches with `merge` (`unshift` to prepend). */
  moveWith(merge: CollectionMerge): CollectionMover<S> {
    return new CollectionMover(this, merge);
  }
}

/** Refuses what a remove or a move cannot take members out of rows by: anything but objects. */
function checkObjects(collection: CollectionCore, member: string, input: unknown): void {
  if (typeof input === 'object' && input !== null) return;
  throw new SchemaError(
    process.env.NODE_ENV !== 'production'
      ? `${collection.key}.${member} expects an object or a list of objects but received ${describeValue(input)}`
      : `${collection.key}.${member} expects objects`,
    input,
  );
}

/**
 * The schema of `collection.remove`: stores its input's entities, and takes them out of the
 * stored rows that hold them and whose filtering arguments match the call's. Reads as the
 * entity (or entities) removed.
 */
export class CollectionRemover<S extends CollectionSchema = any> extends CollectionAdder<
  S,
  'single'
> {
  constructor(collection: CollectionCore<S>) {
    super(collection, pushMerge);
  }

  override normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): unknown {
    checkObjects(this.collection, 'remove', input);
    const single = !Array.isArray(input);
    const removed = entityRefs(
      this.collection.schema.normalize(single ? [input] : input, parent, key, ctx),
    );
    const chosen = this.collection.createCollectionFilter(...ctx.args);
    for (const member of removed) removeFromRows(ctx, this.collection.table, member, chosen);
    return single ? removed[0] : removed;
  }
}

/**
 * The schema of `collection.move` (and `moveWith(merge)`): stores its input's entities, takes
 * each out of the rows its stored values match and adds it with `merge` to the rows its new
 * values match (a row both match keeps it where it is). Reads as the entity (or entities) moved.
 */
export class CollectionMover<S extends CollectionSchema = any> extends CollectionAdder<
  S,
  'single'
> {
  override normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): unknown {
    checkObjects(this.collection, 'move', input);
    const entity = this.collection.schema.schema;
    if (!isEntity(entity)) {
      throw new TypeError(
        process.env.NODE_ENV !== 'production'
          ? `${this.collection.key}.move takes entities of one Entity class (their lists are chosen by the entity's own fields), not the members of a schema.Union`
          : `${this.collection.key}.move takes entities of one Entity class`,
      );
    }
    const single = !Array.isArray(input);
    const items = (single ? [input] : input) as Record<string, unknown>[];
    // Read before the entities are stored: the stored values say which rows hold them now.
    const moves = items.map((item) => movedEntity(entity, item, parent, key, ctx));
    const moved = entityRefs(this.collection.schema.normalize(items, parent, key, ctx));
    const { table } = this.collection;
    const [urlParams] = ctx.args;
    moves.forEach(({ before, after }, index) => {
      const member = moved[index];
      if (member === undefined) return;
      const values = before === undefined ? after : { ...before, ...after };
      const addArgs = [{ ...(urlParams as object), ...after }, values];
      const joins = this.collection.createCollectionFilter(...addArgs);
      const stays =
        before === undefined
          ? () => false
          : this.collection.createCollectionFilter({ ...(urlParams as object), ...before }, before);
      removeFromRows(ctx, table, member, (rowArgs) => stays(rowArgs) && !joins(rowArgs));
      for (const rowPk of this.rowsReached(ctx, addArgs)) {
        if (stays(parseRowArgs(rowPk))) continue;
        const existing =
          (ctx.getRow(table.key, rowPk) as MemberList | undefined) ?? MemberList.empty();
        ctx.writeCollectionRow(table, rowPk, this.merged(existing, [member]), this.insertKind(), [
          member,
        ]);
      }
    });
    return single ? moved[0] : moved;
  }
}
