import {
  type ExtensionCommandBody,
  MAX_ROWS_PER_REQUEST,
} from '../../../library/src/devtools/protocol/messages.js';
import { needsRow } from './model.js';
import type { PanelStore } from './store.js';

/** Per store, per table: pks. */
type PerTable<T> = Map<string, Map<string, T>>;

function entry<T>(map: PerTable<T>, storeId: string, table: string, create: () => T): T {
  let tables = map.get(storeId);
  if (!tables) {
    tables = new Map();
    map.set(storeId, tables);
  }
  let value = tables.get(table);
  if (value === undefined) {
    value = create();
    tables.set(table, value);
  }
  return value;
}

/**
 * Asks the page for the entity rows the views show. Views ask whenever they render; the page
 * is asked once per row: only for rows the copy lacks or holds out of date (`needsRow`), not
 * already asked for, gathered over one tick and sent in commands of at most
 * MAX_ROWS_PER_REQUEST pks.
 */
export class RowRequests {
  /** What the views asked for since the last flush (lists of pks, checked when sent). */
  private asked: PerTable<(readonly string[])[]> = new Map();
  /** Sent and not answered yet. */
  private readonly inFlight: PerTable<Set<string>> = new Map();
  private flushScheduled = false;

  constructor(
    private readonly store: PanelStore,
    private readonly send: (command: ExtensionCommandBody) => void,
  ) {}

  request(storeId: string, table: string, pks: readonly string[]): void {
    if (pks.length === 0) return;
    entry(this.asked, storeId, table, () => []).push(pks);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => this.flush());
  }

  /** The page answered for these pks: returns those that were asked for (and were waiting). */
  answered(storeId: string, table: string, pks: readonly string[]): string[] {
    const flying = this.inFlight.get(storeId)?.get(table);
    return flying ? pks.filter((pk) => flying.delete(pk)) : [];
  }

  /**
   * Forgets what is in flight (for one store, or all): its answer may never come (the port or
   * the page went away) or no longer matters (a snapshot brought every row). Views ask again
   * for what they still miss.
   */
  forget(storeId?: string): void {
    if (storeId === undefined) this.inFlight.clear();
    else this.inFlight.delete(storeId);
  }

  private flush(): void {
    this.flushScheduled = false;
    const asked = this.asked;
    this.asked = new Map();
    const { stores } = this.store.getState();
    for (const [storeId, tables] of asked) {
      const view = stores[storeId];
      if (!view) continue;
      for (const [table, lists] of tables) {
        const flying = entry(this.inFlight, storeId, table, () => new Set<string>());
        const due: string[] = [];
        for (const pks of lists)
          for (const pk of pks)
            if (!flying.has(pk) && needsRow(view, table, pk)) {
              flying.add(pk);
              due.push(pk);
            }
        for (let start = 0; start < due.length; start += MAX_ROWS_PER_REQUEST)
          this.send({
            kind: 'rows',
            storeId,
            table,
            pks: due.slice(start, start + MAX_ROWS_PER_REQUEST),
          });
      }
    }
  }
}
