import { ownFields } from '../normalize/ownValues.js';
import { type EntityMeta, requestedBefore } from '../normalize/tables.js';
import { describeValue, getOwn, SchemaError, setOwn } from './describe.js';
import { INVALID, type Invalid, isInvalid } from './invalid.js';
import type { DenormalizeContext, EntityStatics, NormalizeContext, QueryContext } from './types.js';

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

/**
 * The pk the tables key an entity by: `entity.pk(...)` as text, undefined when missing. A class
 * may override the static `pk` (data-client documents it), which may return a number or an empty
 * value: every caller goes through here so that such an entity is stored and found under one key.
 */
export function pkOf(
  entity: Pick<EntityStatics, 'key' | 'pk'>,
  value: Record<string, unknown>,
  parent?: unknown,
  key?: string,
  args?: readonly unknown[],
): string | undefined {
  return asPk(entity, entity.pk(value, parent, key, args), value);
}

/** A pk() result as text; undefined for the forms a missing identifier takes. */
function asPk(
  entity: Pick<EntityStatics, 'key'>,
  pk: unknown,
  value: Record<string, unknown>,
): string | undefined {
  // 'undefined' is what the documented `${this.id}` pattern yields for a missing id; the
  // reference library treats it as missing too (rather than storing an entity under "undefined").
  if (
    pk === undefined ||
    pk === null ||
    pk === '' ||
    pk === 'undefined' ||
    (typeof pk === 'number' && Number.isNaN(pk))
  )
    return undefined;
  // Anything else would be stored under its text, `[object Object]` or `1,2`, where
  // different values meet.
  if (typeof pk !== 'string' && typeof pk !== 'number') {
    throw new SchemaError(
      process.env.NODE_ENV !== 'production'
        ? `${entity.key}.pk() returned ${describeValue(pk)} for ${describeValue(value)}: a pk must be a string or a number`
        : `${entity.key}.pk() returned no string or number`,
      value,
    );
  }
  // The number to check: the pk, or the id that `${this.id}` made the text of (already rounded).
  const number = typeof pk === 'number' ? pk : value.id;
  if (typeof number === 'number' && !isSafePk(number) && String(number) === String(pk)) {
    const field = process.env.NODE_ENV !== 'production' ? `.${fieldHolding(value, number)}` : '';
    throw unsafePkError(entity.key + field, number, value);
  }
  return String(pk);
}

/**
 * A pk given as itself rather than computed by `pk()` (a relation's `author: 9` in `field`, a
 * delete answered with the id), as text.
 */
export function givenPk(
  entity: Pick<EntityStatics, 'key'>,
  pk: string | number,
  field: string | undefined,
  input: unknown,
): string {
  if (typeof pk === 'number' && !isSafePk(pk))
    throw unsafePkError(
      `the ${entity.key} ${field === undefined ? 'pk' : `in ${field}`}`,
      pk,
      input,
    );
  return String(pk);
}

/**
 * Whether a numeric pk is exact. JSON.parse rounds integers beyond Number.MAX_SAFE_INTEGER to a
 * neighbour (9007199254740993 reads as 9007199254740992), so two entities would meet under one pk.
 */
function isSafePk(pk: number): boolean {
  return Math.abs(pk) <= Number.MAX_SAFE_INTEGER;
}

/** The field of `value` holding `pk` (what a `pk()` returning a number most likely read). */
function fieldHolding(value: Record<string, unknown>, pk: number): string {
  return Object.keys(value).find((field) => value[field] === pk) ?? 'pk()';
}

/** `where` names the value, e.g. `Todo.id` or `the User in author`. */
function unsafePkError(where: string, pk: number, input: unknown): SchemaError {
  return new SchemaError(
    process.env.NODE_ENV !== 'production'
      ? `${where} is ${pk} (as parsed), beyond Number.MAX_SAFE_INTEGER (${Number.MAX_SAFE_INTEGER}): ` +
          'a JSON number that large loses digits when it is parsed, so different entities could be ' +
          "stored as one. Send such ids as strings, or override the endpoint's parseResponse to " +
          'read the body as text and keep such ids as strings'
      : `${where} is ${pk}, beyond Number.MAX_SAFE_INTEGER`,
    input,
  );
}

/**
 * `Entity.normalize`: stores a response object as the entity's row (processed, its nested
 * schemas normalized in turn) and gives its pk.
 */
function normalizeEntity(
  entity: EntityStatics,
  input: unknown,
  parent: unknown,
  key: string | undefined,
  ctx: NormalizeContext,
): string {
  // A nested relation given as its id (e.g. `author: 9`) refers to a stored entity.
  if (parent !== undefined && (typeof input === 'string' || typeof input === 'number')) {
    return givenPk(entity, input, key, parent);
  }
  if (Array.isArray(input) && entity.automaticValidation !== undefined) {
    // The class asked for a list to be read as its object (data-client's escape hatch).
    if (process.env.NODE_ENV !== 'production' && entity.automaticValidation === 'warn')
      console.warn(`${entity.key} expects an object but received ${describeValue(input)}`);
  } else if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new SchemaError(
      process.env.NODE_ENV !== 'production'
        ? `${entity.key} expects an object but received ${describeValue(input)}${
            typeof input === 'string' ? ' (a text response where JSON was expected?)' : ''
          }`
        : `${entity.key} expects an object`,
      input,
    );
  }
  let row = entity.process(input as Record<string, unknown>, parent, key, ctx.args);
  // The row is stored, and its schema fields are written below: a `process` that returns the
  // object it was given would make the caller's object the store's.
  if (row === input) row = { ...row };
  let pk = pkOf(entity, row, parent, key, ctx.args);
  if (pk === undefined) {
    if (!ctx.optimistic) {
      throw new SchemaError(
        process.env.NODE_ENV !== 'production'
          ? `${entity.key}.pk() returned undefined for ${describeValue(input)}: the response lacks the ${entity.key} identifier`
          : `${entity.key}.pk() returned undefined`,
        input,
      );
    }
    pk = ctx.placeholderPk();
  }
  // Met inside itself (a cycle, as in a read written back): it is stored where met first.
  if (!ctx.enterEntity(input)) return pk;
  try {
    const problem = refusal(entity, row);
    if (problem !== undefined) {
      throw new SchemaError(`${entity.key} ${JSON.stringify(pk)} is not valid: ${problem}`, input);
    }
    // `for…in` over the schema (a plain object of fields) lists its fields without making an
    // array of them for every entity of a response.
    for (const field in entity.schema) {
      const value = getOwn(row, field);
      if (value !== undefined && value !== null)
        row[field] = ctx.visit(entity.schema[field], value, row, field);
    }
    // After the schema's fields: they hold pks now, which cost `ownFields` a `typeof` each.
    ownFields(row, entity.schema);
    ctx.mergeEntity(entity, pk, row);
  } finally {
    ctx.leaveEntity();
  }
  return pk;
}

/**
 * Fills an instance built from a stored row with its nested entities read from the tables;
 * INVALID when a required one (a non-null default) cannot be read.
 */
export function denormalizeFields(
  entity: EntityStatics,
  instance: object,
  row: Record<string, unknown>,
  ctx: DenormalizeContext,
): object | Invalid {
  const target = instance as Record<string, unknown>;
  for (const field in entity.schema) {
    const stored = getOwn(row, field);
    if (stored === undefined) continue;
    const value = ctx.unvisit(entity.schema[field], stored, row, field);
    if (isInvalid(value)) {
      // A required relation (non-null default) cannot be shown without its entity.
      const fallback = getOwn(entity.defaults, field);
      if (fallback !== undefined && fallback !== null) return INVALID;
      target[field] = undefined;
    } else {
      target[field] = value;
    }
  }
  return instance;
}

/**
 * Why `validate` refuses a processed row (a non-empty message), or undefined. Any falsy return
 * accepts it, as in data-client: `return !row.title && 'title is required'` gives false for a
 * valid row, and plain JavaScript may return null.
 */
function refusal(
  entity: Pick<EntityStatics, 'validate'>,
  row: Record<string, unknown>,
): string | undefined {
  return entity.validate(row) || undefined;
}
