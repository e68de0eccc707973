import { type Dict, dict } from '../../src/panel/dict.js';
import { PersistentMap } from '../../src/panel/tables.js';

/** A table of the panel's copy as a plain object (absent: empty), to compare with `toEqual`. */
export function plainTable<V>(table: PersistentMap<V> | undefined): Record<string, V> {
  return table?.toObject() ?? {};
}

/** Tables by name (entity types, collections), each as a plain object. */
export function plainTables<V>(
  tables: Readonly<Dict<PersistentMap<V>>>,
): Record<string, Record<string, V>> {
  return Object.fromEntries(
    Object.entries(tables).map(([name, table]) => [name, plainTable(table)]),
  );
}

/** A table's keys, in its order. */
export function keysOf(table: PersistentMap<unknown> | undefined): string[] {
  return table ? [...table.keys()] : [];
}

/** A table holding the entries of `record`, as the copy keeps it. */
export function tableOf<V>(record: Record<string, V>): PersistentMap<V> {
  return PersistentMap.from(Object.entries(record));
}

/** Tables by name holding the entries of `records`, as the copy keeps them. */
export function tablesOf<V>(records: Record<string, Record<string, V>>): Dict<PersistentMap<V>> {
  return dict(Object.entries(records).map(([name, record]) => [name, tableOf(record)]));
}
