import { entityLabel } from '../format.js';
import { type Row, UNLOADED } from '../model.js';

/** An entity's label in a list row: a quiet "loading…" until its row has come from the page. */
export function RowLabel({ row }: { row: Row | undefined }) {
  return row === UNLOADED ? (
    <span class="label is-loading">loading…</span>
  ) : (
    <span class="label">{entityLabel(row)}</span>
  );
}
