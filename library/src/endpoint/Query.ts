import type { Denormalize, Schema } from '../schema/denormalizeTypes.js';

/**
 * A value computed from what the store holds, as data-client's `Query`:
 * `new Query(new schema.All(Todo), (todos, { userId }) => todos.filter(…))`. It is read like an
 * endpoint, `useCache(query, { userId: 1 })` or `controller.getResponse(query, args, state)`, but
 * never fetched: `schema` is found from the tables (see `queryKey`), then `process` runs on its
 * reading with the arguments. Nothing found reads as undefined, without running `process`.
 */
export class Query<S extends Schema, P extends readonly unknown[] = [], R = Denormalize<S>> {
  readonly schema: S;
  /** `declare`: no field may hide a `process` that a subclass defines as a method. */
  declare readonly process: (entries: Denormalize<S>, ...args: P) => R;

  /**
   * Outputs by the reading they were computed from, then by the arguments' key. The MemoCache
   * keeps a reading the same object while its rows are unchanged, so the output is the same too:
   * a component that filters todos does not get a new array (and re-render) at every read.
   */
  private readonly outputs = new WeakMap<object, Map<string, R>>();

  constructor(schema: S, process?: (entries: Denormalize<S>, ...args: P) => R) {
    this.schema = schema;
    // A subclass's own `process` method stays, as in data-client ("inheritance overrides").
    // Without either, R is the schema's reading (the default of R): it is shown as read.
    if (process || !this.process)
      this.process = process ?? ((entries: Denormalize<S>, ..._args: P) => entries as unknown as R);
  }

  key(...args: P): string {
    return `QUERY ${JSON.stringify(args)}`;
  }

  /** `process` of a reading of the schema, the same output for the same reading and arguments. */
  processed(entries: Denormalize<S>, args: P): R {
    if (typeof entries !== 'object' || entries === null) return this.process(entries, ...args);
    let byArgs = this.outputs.get(entries);
    if (!byArgs) {
      byArgs = new Map();
      this.outputs.set(entries, byArgs);
    }
    const key = this.key(...args);
    if (!byArgs.has(key)) byArgs.set(key, this.process(entries, ...args));
    return byArgs.get(key) as R;
  }
}
