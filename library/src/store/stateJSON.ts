import { MemberList } from '../normalize/memberList.js';
import { PersistentMap } from '../normalize/persistentMap.js';
import { type Holders, holdingRows, type RowRef, withRow } from '../normalize/rowsHolding.js';
import { type EntityMeta, type Tables, TablesDraft } from '../normalize/tables.js';
import { describeValue } from '../schema/describe.js';
import { RowsByFilter } from '../schema/rowArgs.js';
import { parseUnionRef } from '../schema/unionRef.js';
import type { EndpointMeta, State } from './state.js';

/**
 * A store's state as JSON, to carry a server render's data to the client (`stateToJSON` on the
 * server, `stateFromJSON` on the client). It holds the data: rows, lists, results and their
 * meta. The indexes the store keeps to find what a write reaches (`rowsHolding`, `rowsByFilter`)
 * are made again from the lists when it is read: that costs one pass over the lists, and keeps
 * them out of the page.
 */
export interface StateJSON {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  /** Entity rows by entity key, then pk; a deleted one is the INVALID marker. */
  entities: Record<string, Record<string, object>>;
  /** Collection rows by collection key (`[Todo]`). */
  collections: Record<string, CollectionJSON>;
  /** When each entity row and collection row was written, by the same keys. */
  entitiesMeta: Record<string, Record<string, EntityMetaJSON>>;
  /** Pks by the value of an indexed field (`static indexes`): entity key, then index key. */
  indexes: Record<string, Record<string, string>>;
  /** Normalized results by endpoint key. */
  endpoints: Record<string, unknown>;
  meta: Record<string, EndpointMetaJSON>;
  lastReset: number;
  /** The last number of the store's sequence: a store made from this numbers on after it. */
  sequence: number;
}

/** One collection's rows in a state's JSON form. */
export interface CollectionJSON {
  /** The rows (by their serialized filtering arguments): their members' pks, in order. */
  rows: Record<string, string[]>;
  /** A `schema.Union`'s lists name their members by union reference (`["Post","5"]`). */
  union?: true;
}

/** A time; `"Infinity"` for one that never comes (an expiry of `Infinity`), which JSON lacks. */
export type TimeJSON = number | 'Infinity';

/** When a row was written, in a state's JSON form. */
export interface EntityMetaJSON {
  date: number;
  fetchedAt: number;
  expiresAt: TimeJSON;
  /** The request's and the write's numbers in the store's sequence (see EntityMeta). */
  requestId?: number;
  sequence?: number;
}

/** A stored result's meta (its times, its error), in a state's JSON form. */
export interface EndpointMetaJSON extends Omit<EndpointMeta, 'expiresAt' | 'error'> {
  expiresAt: TimeJSON;
  /** An Error as its name, message, and `status` and `body` when it has them (see ErrorJSON). */
  error?: unknown;
}

/** How an Error is written: JSON would write it as `{}`. */
export interface ErrorJSON {
  '@@restlens/error': { name: string; message: string; status?: number; body?: unknown };
}

export const STATE_FORMAT = 'restlens-state';
export const STATE_VERSION = 1;
const ERROR_MARKER = '@@restlens/error' as const;

/**
 * The state as JSON (`JSON.stringify` it to send it). Pending optimistic updates cannot go: their
 * endpoints are code, and their answers are not the server's data yet.
 */
export function stateToJSON(state: State): StateJSON {
  if (state.optimistic.length > 0) {
    throw new Error(
      `stateToJSON: the state has ${state.optimistic.length} optimistic update(s) pending; their endpoints cannot be written as JSON: write the state once they have settled`,
    );
  }
  const entities: StateJSON['entities'] = Object.create(null);
  const collections: StateJSON['collections'] = Object.create(null);
  state.entities.forEach((table, key) => {
    if (isCollectionTable(table))
      collections[key] = collectionJSON(key, table as PersistentMap<MemberList>, state.rowsHolding);
    else entities[key] = table.toObject() as Record<string, object>;
  });
  const entitiesMeta: StateJSON['entitiesMeta'] = Object.create(null);
  state.entitiesMeta.forEach((table, key) => {
    entitiesMeta[key] = mapValues(table, (meta) => ({
      ...meta,
      expiresAt: timeJSON(meta.expiresAt),
    }));
  });
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    entities,
    collections,
    entitiesMeta,
    indexes: mapValues(state.indexes, (table) => table.toObject()),
    endpoints: state.endpoints.toObject(),
    meta: mapValues(state.meta, endpointMetaJSON),
    lastReset: state.lastReset,
    sequence: state.sequence,
  };
}

/**
 * The state written by `stateToJSON`, as its object or its JSON text, for
 * `createStore({ initialState })`. Refuses, naming the part, anything that is not such a state.
 */
export function stateFromJSON(json: string | StateJSON): State {
  const file = readHeader(typeof json === 'string' ? parseText(json) : json);
  const { entities, entityKeys } = readEntities(file.entities);
  const collections = readCollections(file.collections, entities, entityKeys);
  const tables = entities.finish();
  // An entity type's meta and list memberships share its rows' index of keys, as written.
  const rowsOf = (table: string) => tables.get(table);
  const entitiesMeta = new TablesDraft<EntityMeta>(PersistentMap.empty(), rowsOf);
  for (const [key, table] of entriesOf(file.entitiesMeta, 'entitiesMeta'))
    for (const [pk, meta] of entriesOf(table, `entitiesMeta[${quote(key)}]`))
      entitiesMeta.set(key, pk, readEntityMeta(meta, `entitiesMeta[${quote(key)}][${quote(pk)}]`));
  const { rowsHolding, rowsByFilter } = indexCollections(collections, rowsOf);
  return {
    entities: tables,
    entitiesMeta: entitiesMeta.finish(),
    indexes: readIndexes(file.indexes),
    rowsHolding,
    rowsByFilter,
    endpoints: PersistentMap.from(entriesOf(file.endpoints, 'endpoints')),
    meta: PersistentMap.from(
      entriesOf(file.meta, 'meta').map(([key, meta]) => [
        key,
        readEndpointMeta(meta, `meta[${quote(key)}]`),
      ]),
    ),
    optimistic: [],
    lastReset: readNumber(file.lastReset, '"lastReset"'),
    sequence: readNumber(file.sequence, '"sequence"'),
  };
}

/** The file, once its format and version are this RestLens's. */
function readHeader(file: unknown): Record<string, unknown> {
  if (!isObject(file) || file.format !== STATE_FORMAT) {
    fail(
      'the value',
      `is not a RestLens state written by stateToJSON(state): its "format" must be "${STATE_FORMAT}"`,
    );
  }
  if (file.version !== STATE_VERSION) {
    fail(
      '"version"',
      typeof file.version === 'number' && file.version > STATE_VERSION
        ? `is ${file.version}, written by a newer RestLens; this one reads version ${STATE_VERSION}`
        : `must be ${STATE_VERSION}, not ${describeValue(file.version)}`,
    );
  }
  return file;
}

/** The entity tables, each row an object, and their keys. */
function readEntities(written: unknown) {
  const entities = new TablesDraft<unknown>(PersistentMap.empty());
  const tables = entriesOf(written, 'entities');
  for (const [key, rows] of tables) {
    for (const [pk, row] of entriesOf(rows, `entities[${quote(key)}]`)) {
      if (!isObject(row))
        fail(
          `entities[${quote(key)}][${quote(pk)}]`,
          `must be an entity row (an object), not ${describeValue(row)}`,
        );
      entities.set(key, pk, row);
    }
  }
  return { entities, entityKeys: new Set(tables.map(([key]) => key)) };
}

/** The indexes the store keeps of the collections: which rows hold each entity, rows by filter. */
function indexCollections(
  collections: ReturnType<typeof readCollections>,
  rowsOf: (table: string) => PersistentMap<unknown> | undefined,
): Pick<State, 'rowsHolding' | 'rowsByFilter'> {
  const rowsHolding = new TablesDraft<Holders>(PersistentMap.empty(), rowsOf);
  const rowsByFilter = PersistentMap.empty<RowsByFilter>().draft();
  for (const { key, union, rows } of collections) {
    let byFilter = RowsByFilter.empty;
    for (const [row, members] of rows) {
      byFilter = byFilter.with(row);
      const ref: RowRef = { collection: key, row, union };
      for (const member of members) {
        const [entity, pk] = union ? (parseUnionRef(member) ?? []) : [key.slice(1, -1), member];
        if (entity === undefined || pk === undefined)
          fail(
            `collections[${quote(key)}].rows[${quote(row)}]`,
            `holds ${quote(member)}, which is not a union reference such as ["Post","5"]`,
          );
        rowsHolding.set(entity, pk, withRow(rowsHolding.get(entity, pk), ref));
      }
    }
    rowsByFilter.set(key, byFilter);
  }
  return { rowsHolding: rowsHolding.finish(), rowsByFilter: rowsByFilter.finish() };
}

/** The entities' `static indexes`: for each, pks by the indexed field's value. */
function readIndexes(written: unknown): State['indexes'] {
  return PersistentMap.from(
    entriesOf(written, 'indexes').map(([key, table]) => [
      key,
      PersistentMap.from(
        entriesOf(table, `indexes[${quote(key)}]`).map(([indexKey, pk]) => {
          if (typeof pk !== 'string')
            fail(
              `indexes[${quote(key)}][${quote(indexKey)}]`,
              `must be a pk (a string), not ${describeValue(pk)}`,
            );
          return [indexKey, pk];
        }),
      ),
    ]),
  );
}

/** A table of collection rows (entity tables hold objects; a collection's, MemberLists). */
function isCollectionTable(table: PersistentMap<unknown>): boolean {
  for (const row of table.values()) return row instanceof MemberList;
  return false;
}

function collectionJSON(
  key: string,
  table: PersistentMap<MemberList>,
  rowsHolding: Tables<Holders>,
): CollectionJSON {
  const rows: Record<string, string[]> = Object.create(null);
  let union: true | undefined;
  table.forEach((members, row) => {
    const pks = members.toArray();
    rows[row] = pks;
    // The index of the rows holding each entity knows how this collection names its members.
    const first = pks[0];
    if (first !== undefined && union === undefined && namesByUnionRef(key, row, first, rowsHolding))
      union = true;
  });
  return union ? { rows, union } : { rows };
}

function namesByUnionRef(
  collection: string,
  row: string,
  member: string,
  rowsHolding: Tables<Holders>,
): boolean {
  const named = parseUnionRef(member);
  if (named === undefined) return false;
  const holders = holdingRows(rowsHolding.get(named[0])?.get(named[1]));
  return holders.some((held) => held.collection === collection && held.row === row && held.union);
}

/** The collections, checked, with their rows written into `entities` as MemberLists. */
function readCollections(
  value: unknown,
  entities: TablesDraft<unknown>,
  entityKeys: ReadonlySet<string>,
) {
  return entriesOf(value, 'collections').map(([key, collection]) => {
    const where = `collections[${quote(key)}]`;
    if (!isObject(collection))
      fail(where, `must be an object with "rows", not ${describeValue(collection)}`);
    if (collection.union !== undefined && collection.union !== true)
      fail(`${where}.union`, `must be true or absent, not ${describeValue(collection.union)}`);
    if (!collection.union && !/^\[.+\]$/.test(key))
      fail(where, 'is not named as a collection of an entity type, e.g. "[Todo]"');
    if (entityKeys.has(key)) fail(where, 'is also an entity table');
    const rows = entriesOf(collection.rows, `${where}.rows`).map(([row, members]) => {
      const rowWhere = `${where}.rows[${quote(row)}]`;
      if (!Array.isArray(members) || !members.every((pk) => typeof pk === 'string'))
        fail(rowWhere, `must be a list of pks (strings), not ${describeValue(members)}`);
      const list = MemberList.from(members);
      if (list.length !== members.length) fail(rowWhere, 'lists a pk more than once');
      entities.set(key, row, list);
      return [row, members as string[]] as const;
    });
    return { key, union: collection.union === true, rows };
  });
}

function readEntityMeta(value: unknown, where: string): EntityMeta {
  if (!isObject(value)) fail(where, `must be an object of times, not ${describeValue(value)}`);
  const meta: EntityMeta = {
    date: readNumber(value.date, `${where}.date`),
    fetchedAt: readNumber(value.fetchedAt, `${where}.fetchedAt`),
    expiresAt: readTime(value.expiresAt, `${where}.expiresAt`),
  };
  if (value.requestId !== undefined)
    meta.requestId = readNumber(value.requestId, `${where}.requestId`);
  if (value.sequence !== undefined) meta.sequence = readNumber(value.sequence, `${where}.sequence`);
  return meta;
}

function readEndpointMeta(value: unknown, where: string): EndpointMeta {
  const meta: EndpointMeta = readEntityMeta(value, where);
  const { error, errorPolicy, invalidated } = value as Record<string, unknown>;
  if (error !== undefined) meta.error = readError(error);
  if (errorPolicy !== undefined) {
    if (errorPolicy !== 'soft' && errorPolicy !== 'hard')
      fail(`${where}.errorPolicy`, `must be "soft" or "hard", not ${describeValue(errorPolicy)}`);
    meta.errorPolicy = errorPolicy;
  }
  if (invalidated !== undefined) {
    if (invalidated !== true)
      fail(`${where}.invalidated`, `must be true or absent, not ${describeValue(invalidated)}`);
    meta.invalidated = true;
  }
  return meta;
}

function endpointMetaJSON(meta: EndpointMeta): EndpointMetaJSON {
  const { error, ...rest } = meta;
  return {
    ...rest,
    expiresAt: timeJSON(meta.expiresAt),
    ...(error === undefined ? {} : { error: errorJSON(error) }),
  };
}

function errorJSON(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { status, body } = error as { status?: unknown; body?: unknown };
  const written: ErrorJSON = {
    [ERROR_MARKER]: {
      name: error.name,
      message: error.message,
      ...(typeof status === 'number' ? { status } : {}),
      ...(body === undefined ? {} : { body }),
    },
  };
  return written;
}

/** An error as written: an Error again (of class Error: the class itself is code), or as it was. */
function readError(value: unknown): unknown {
  if (!isObject(value) || !Object.hasOwn(value, ERROR_MARKER)) return value;
  const written = value[ERROR_MARKER] as Partial<ErrorJSON[typeof ERROR_MARKER]>;
  const error = new Error(String(written?.message ?? ''));
  error.name = String(written?.name ?? 'Error');
  if (typeof written?.status === 'number') Object.assign(error, { status: written.status });
  if (written?.body !== undefined) Object.assign(error, { body: written.body });
  return error;
}

const timeJSON = (time: number): TimeJSON =>
  time === Number.POSITIVE_INFINITY ? 'Infinity' : time;

function readTime(value: unknown, where: string): number {
  return value === 'Infinity' ? Number.POSITIVE_INFINITY : readNumber(value, where);
}

function readNumber(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    fail(where, `must be a number, not ${describeValue(value)}`);
  return value;
}

/** The own entries of a JSON object (`__proto__` among them, as any key), checked to be one. */
function entriesOf(value: unknown, where: string): [string, unknown][] {
  if (!isObject(value)) fail(where, `must be an object, not ${describeValue(value)}`);
  return Object.entries(value);
}

function mapValues<V, T>(map: PersistentMap<V>, make: (value: V) => T): Record<string, T> {
  const object: Record<string, T> = Object.create(null);
  map.forEach((value, key) => {
    object[key] = make(value);
  });
  return object;
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail('the text', `is not JSON (${(error as Error).message})`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const quote = (key: string) => JSON.stringify(key);

function fail(where: string, problem: string): never {
  throw new TypeError(`stateFromJSON: ${where} ${problem}`);
}
