import { schemaOf } from '../../normalize/schemaOf.js';
import type { Table } from '../../normalize/tables.js';
import type { DenormalizeContext, EntityStatics } from '../../schema/types.js';

/**
 * What points at what in a store, as the devtools need it to say which results a delete reached:
 * each stored result's direct references (entity rows, collection rows, whole tables) and each
 * entity row's (through the fields its class gives schemas). Nodes are text keys made by the
 * functions below; the index is kept in both directions, so that the referrers of a node are one
 * lookup.
 */
export class ReferenceIndex {
  private readonly outgoing = new Map<string, readonly string[]>();
  private readonly incoming = new Map<string, Set<string>>();

  /** Sets what `from` points at, in place of what it pointed at before. */
  set(from: string, to: readonly string[]): void {
    // A row written again usually points where it did (a refetch, a deleted entity restored).
    if (sameNodes(this.outgoing.get(from), to)) return;
    this.delete(from);
    if (to.length === 0) return;
    this.outgoing.set(from, to);
    for (const node of to) {
      let referrers = this.incoming.get(node);
      if (referrers === undefined) {
        referrers = new Set();
        this.incoming.set(node, referrers);
      }
      referrers.add(from);
    }
  }

  /** Forgets what `from` points at. */
  delete(from: string): void {
    const before = this.outgoing.get(from);
    if (before === undefined) return;
    this.outgoing.delete(from);
    for (const node of before) {
      const referrers = this.incoming.get(node);
      referrers?.delete(from);
      if (referrers?.size === 0) this.incoming.delete(node);
    }
  }

  clear(): void {
    this.outgoing.clear();
    this.incoming.clear();
  }

  /** The nodes that point at `node`. */
  referrersOf(node: string): ReadonlySet<string> {
    return this.incoming.get(node) ?? NONE;
  }
}

const NONE: ReadonlySet<string> = new Set();

function sameNodes(before: readonly string[] | undefined, after: readonly string[]): boolean {
  if (before === undefined) return after.length === 0;
  return before.length === after.length && before.every((node, index) => node === after[index]);
}

/*
 * Node keys: a letter for the kind, then the names. A row's table name is preceded by its length,
 * so that no table and pk can make the key of another pair, whatever text they hold.
 */

/** The node of a stored result, by its key. */
export const resultNode = (key: string): string => `r${key}`;
/** The node of a row: an entity's (table `Todo`, its pk) or a collection's (table `[Todo]`, its args). */
export const rowNode = (table: string, pk: string): string => `e${table.length}:${table}${pk}`;
/** The node of a whole table, which `schema.All` reads. */
export const tableNode = (table: string): string => `t${table}`;
/** The table and pk of a row's node; undefined for other nodes. */
export function rowOf(node: string): { table: string; pk: string } | undefined {
  if (node[0] !== 'e') return undefined;
  const colon = node.indexOf(':');
  const end = colon + 1 + Number(node.slice(1, colon));
  return { table: node.slice(colon + 1, end), pk: node.slice(end) };
}
/** Whether a node is a stored result's. */
export const isResultNode = (node: string): boolean => node[0] === 'r';
/** The result key of a result node. */
export const resultKeyOf = (node: string): string => node.slice(1);

/**
 * The nodes a normalized value points at directly, as its schema reads it: the schema's own
 * denormalize walks the value, and this context notes each row or table it would read instead
 * of building anything (so a list's members are not entered, nor an entity's fields).
 */
export function referencesOf(schema: unknown, value: unknown, args: readonly unknown[]): string[] {
  const collector = new ReferenceCollector(args);
  collector.unvisit(schema, value);
  return collector.nodes;
}

/** The nodes an entity row points at through the fields its class gives schemas. */
export function rowReferencesOf(entity: EntityStatics, row: Record<string, unknown>): string[] {
  const collector = new ReferenceCollector([]);
  for (const field of Object.keys(entity.schema)) {
    if (Object.hasOwn(row, field)) collector.unvisit(entity.schema[field], row[field]);
  }
  return collector.nodes;
}

class ReferenceCollector implements DenormalizeContext {
  readonly nodes: string[] = [];

  constructor(readonly args: readonly unknown[]) {}

  unvisit(schema: unknown, input: unknown): unknown {
    if (input === undefined || input === null) return input;
    return schemaOf(schema)?.denormalize(input, this) ?? input;
  }

  unvisitItems(schema: unknown, items: Iterable<unknown>): unknown[] {
    for (const item of items) this.unvisit(schema, item);
    return [];
  }

  readRow(table: string, pk: string): undefined {
    this.nodes.push(rowNode(table, pk));
    return undefined;
  }

  readList(table: string, pk: string): undefined {
    return this.readRow(table, pk);
  }

  readTable(table: string): Table | undefined {
    this.nodes.push(tableNode(table));
    return undefined;
  }

  entity(entity: EntityStatics, pk: string): undefined {
    this.nodes.push(rowNode(entity.key, pk));
    return undefined;
  }

  /** An entity held as an object points at what its fields point at. */
  entityFromObject(entity: EntityStatics, object: Record<string, unknown>): object {
    for (const field in entity.schema)
      if (Object.hasOwn(object, field)) this.unvisit(entity.schema[field], object[field]);
    return object;
  }
}
