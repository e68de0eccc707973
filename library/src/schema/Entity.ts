import { type EntityMeta, requestedBefore } from '../normalize/tables.js';
import { SchemaError, setOwn } from './describe.js';
import { asPk, pkOf } from './entityPk.js';
import { normalizeEntity, refusal } from './entityRows.js';
import type { DenormalizeContext, EntityStatics, NormalizeContext, QueryContext } from './types.js';

// Where the devtools' entity editor finds it (the pk helpers live in entityPk.ts).
export { pkOf } from './entityPk.js';

/**
 * The base class of every entity. Declare the fields with defaults and a `pk()`:
 *
 *   class Todo extends Entity {
 *     id = 0; title = ''; completed = false;
 *     pk() { return `${this.id}`; }
 *     static key = 'Todo';
 *   }
 *
 * The table stores only the fields a response carried (a partial response keeps the other stored
 * fields); defaults are applied when an instance is built.
 */
export abstract class Entity {
  /** The unique identifier of this entity: a string, or a number that is stored as a string. */
  abstract pk(
    parent?: unknown,
    key?: string,
    args?: readonly unknown[],
  ): string | number | undefined;

  /**
   * Names the entity type; the table key. Defaults to the class name, which minifiers change. A
   * class without a name (`class extends Entity {}` written inline) must declare one: every such
   * class would otherwise share one table.
   */
  static get key(): string {
    if (this.name === '') {
      throw new TypeError(
        process.env.NODE_ENV !== 'production'
          ? 'An Entity class without a name must define `static key`: the key names its table, and classes without a name would share one'
          : 'An Entity class without a name must define `static key`',
      );
    }
    return this.name;
  }

  /** The entity's key, as data-client gives it: `${Todo}` in a message or a key names the type. */
  static toString(): string {
    return this.key;
  }

  /** What `JSON.stringify` writes for the class (e.g. a schema logged or sent), as in data-client. */
  static toJSON() {
    return { name: this.name, schema: this.schema, key: this.key };
  }

  /**
   * What happens when a response gives a list where this entity's object belongs: refused with
   * a SchemaError by default; `'warn'` reads the list as the object and warns, `'silent'` only
   * reads it, as in data-client.
   */
  static automaticValidation?: 'warn' | 'silent';

  /** Nested schemas by field name, e.g. `{ author: User }`. */
  static schema: Readonly<Record<string, unknown>> = {};

  /** Fields to look entities up by besides the pk (kept in `state.indexes`). */
  static indexes?: readonly string[];

  /**
   * The field the devtools name an entity by, beside its type and pk (`Todo 7 "Buy milk"`); by
   * default the first of title, name, label, username, email, text and slug that it has.
   */
  static label?: string;

  /** Turns a response object into the row to store; a shallow copy by default. */
  static process(
    input: Record<string, unknown>,
    _parent?: unknown,
    _key?: string,
    _args?: readonly unknown[],
  ) {
    return { ...input };
  }

  /** Computes the pk of a plain object, as a string; undefined when it has none. */
  static pk(
    value: Record<string, unknown>,
    parent?: unknown,
    key?: string,
    args?: readonly unknown[],
  ) {
    const pkMethod = (this.prototype as Partial<Entity>).pk;
    // pk() is abstract, so only plain JavaScript (or a cast) gets here without one: say so,
    // rather than fail on calling undefined.
    if (typeof pkMethod !== 'function') {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `${this.key} has no pk() method: an Entity class must define pk(), which returns its identifier`
          : `${this.key} has no pk()`,
        value,
      );
    }
    return asPk(this, pkMethod.call(value as unknown as Entity, parent, key, args), value);
  }

  /** Combines a stored row with a newer one: fields absent from `incoming` keep their values. */
  static merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
    return { ...existing, ...incoming };
  }

  /**
   * Whether a response's row is merged into the stored one at all; false keeps the stored row
   * (e.g. compare version fields). Always by default.
   */
  static useIncoming(
    _existingMeta: EntityMeta,
    _incomingMeta: EntityMeta,
    _existing: Record<string, unknown>,
    _incoming: Record<string, unknown>,
  ): boolean {
    return true;
  }

  /**
   * Whether the incoming row is the older one, so that it only fills the stored row's gaps
   * (`merge(incoming, existing)`): by default, when its request was made before the stored one's
   * (two requests of one millisecond by the order they were made in).
   */
  static shouldReorder(
    existingMeta: EntityMeta,
    incomingMeta: EntityMeta,
    _existing: Record<string, unknown>,
    _incoming: Record<string, unknown>,
  ): boolean {
    return requestedBefore(incomingMeta, existingMeta);
  }

  /** The row to store when a response brings one for a stored entity (see the two above). */
  static mergeWithStore(
    existingMeta: EntityMeta,
    incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): Record<string, unknown> {
    // biome-ignore lint/correctness/useHookAtTopLevel: data-client's name for a merge rule, not a React hook
    if (!this.useIncoming(existingMeta, incomingMeta, existing, incoming)) return existing;
    return this.shouldReorder(existingMeta, incomingMeta, existing, incoming)
      ? this.merge(incoming, existing)
      : this.merge(existing, incoming);
  }

  /** The meta (fetched at, expires at) to keep with the merged row: the newer one's. */
  static mergeMetaWithStore(
    existingMeta: EntityMeta,
    incomingMeta: EntityMeta,
    existing: Record<string, unknown>,
    incoming: Record<string, unknown>,
  ): EntityMeta {
    return this.shouldReorder(existingMeta, incomingMeta, existing, incoming)
      ? existingMeta
      : incomingMeta;
  }

  /**
   * A reason the processed row cannot be stored, or undefined when it can: a response holding an
   * invalid entity fails with that reason (status 400) and stores nothing.
   */
  static validate(_processed: Record<string, unknown>): string | undefined {
    return undefined;
  }

  /**
   * Builds an instance: the class defaults, then `props`. The constructor is given `props` too,
   * as data-client's is, for classes whose constructor derives fields from them.
   */
  static fromJS<T extends Entity>(this: new () => T, props: Partial<T> = {}): T {
    const instance = new (this as new (props: Partial<T>) => T)(props);
    // A field named `__proto__` (JSON.parse makes it an own key) is data: assigning it would
    // set the instance's prototype instead.
    if (!Object.hasOwn(props, '__proto__')) return Object.assign(instance, props);
    for (const field of Object.keys(props))
      setOwn(instance, field, (props as Record<string, unknown>)[field]);
    return instance;
  }

  /**
   * The instance a read builds from a stored row, or undefined when `validate` refuses the row
   * (the read is then Invalid, so it is fetched before it is shown): a row stored by a class with
   * fewer fields (a list's summary) is not shown as the fuller class that shares its key.
   */
  static createIfValid<T extends Entity>(
    this: (new () => T) & Pick<typeof Entity, 'validate' | 'fromJS'>,
    row: Record<string, unknown>,
  ): T | undefined {
    return refusal(this, row) === undefined ? this.fromJS(row as Partial<T>) : undefined;
  }

  /** An instance holding only the declared defaults. */
  static get defaults(): Readonly<Record<string, unknown>> {
    let defaults = defaultsByClass.get(this);
    if (!defaults) {
      defaults = new (this as unknown as new () => Record<string, unknown>)();
      defaultsByClass.set(this, defaults);
    }
    return defaults;
  }

  static normalize(
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): string {
    return normalizeEntity(this, input, parent, key, ctx);
  }

  static denormalize(pk: unknown, ctx: DenormalizeContext): unknown {
    if (pk === undefined || pk === null) return pk;
    // The entity itself, not its pk: a response read on its own, or an object stored before a
    // `define()` gave this member its schema. It reads as an instance, as in data-client.
    if (typeof pk === 'object')
      return ctx.entityFromObject(this as unknown as EntityStatics, pk as Record<string, unknown>);
    return ctx.entity(this, String(pk));
  }

  /**
   * `get({ id })` can be answered from the table when the entity is already there, and
   * `get({ username })` too when `username` is one of the entity's `static indexes`. An INVALID
   * row is found too: the read is then Invalid (the entity was deleted, so it is fetched before
   * it is shown), as data-client's, rather than merely unknown.
   */
  static queryKey(args: readonly unknown[], ctx: QueryContext): string | undefined {
    const params = args[0];
    if (typeof params !== 'object' || params === null) return undefined;
    const fields = params as Record<string, unknown>;
    let pk: string | undefined;
    try {
      pk = pkOf(this, fields, undefined, undefined, args);
    } catch {
      // Arguments that make no valid pk find nothing.
    }
    if (pk === undefined) {
      const field = this.indexes?.find((name) => fields[name] !== undefined);
      if (field !== undefined) pk = ctx.findByIndex(this.key, field, fields[field]);
    }
    if (pk === undefined) return undefined;
    const row = ctx.getRow(this.key, pk);
    return row !== undefined ? pk : undefined;
  }
}

/** Each Entity class's defaults (`Entity.defaults`), made once per class. */
const defaultsByClass = new WeakMap<Function, Record<string, unknown>>();

/** An Entity class (its statics and the instances it builds). */
export type EntityClass<T extends Entity = Entity> = (abstract new (
  ...args: any[]
) => T) &
  Omit<typeof Entity, 'prototype'>;
