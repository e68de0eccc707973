import { describe, expect, it } from 'vitest';
import type { StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import { TimelineRows } from '../../src/panel/timelineRows.js';

const event = (seq: number): StoreEvent => ({
  seq,
  time: seq,
  action: { type: 'fetch', endpoint: 'Todo.get', key: `GET /todos/${seq}` },
  effects: [{ type: 'entities-added', entity: 'Todo', pks: [String(seq)] }],
});
const timeline = [1, 2, 3, 4, 5].map(event);
const rowsOf = (shown: readonly StoreEvent[], expanded: number[]) =>
  new TimelineRows(shown, new Set(expanded), timeline, (_entity, pk) => `todo ${pk}`);
/** Each row as `#seq` for an event, `  text` for a line. */
const texts = (rows: TimelineRows) =>
  Array.from({ length: rows.length }, (_, index) => {
    const row = rows.at(index);
    return row?.kind === 'event' ? `#${row.event.seq}${row.open ? ' open' : ''}` : `  ${row?.text}`;
  });

describe('the rows of the timeline', () => {
  it('put the lines of each expanded event after it, read by index', () => {
    const rows = rowsOf(timeline, [4, 2]);
    expect(texts(rows)).toEqual([
      '#1',
      '#2 open',
      '  key GET /todos/2',
      '  added Todo 2 "todo 2"',
      '#3',
      '#4 open',
      '  key GET /todos/4',
      '  added Todo 4 "todo 4"',
      '#5',
    ]);
    expect(rows.at(-1)).toBeUndefined();
    expect(rows.at(rows.length)).toBeUndefined();
    expect(rows.indexOfEvent(timeline[3] as StoreEvent)).toBe(5);
    expect(rows.indexOfEvent(timeline[0] as StoreEvent)).toBe(-1);
    // The lines that name an entity say which (the page is asked for its row).
    expect(rows.lines().map((line) => line.entity?.pk)).toEqual([undefined, '2', undefined, '4']);
  });

  it('leave out an expanded event the filter or the timeline does not show', () => {
    expect(texts(rowsOf([timeline[0], timeline[2]] as StoreEvent[], [2, 3, 9]))).toEqual([
      '#1',
      '#3 open',
      '  key GET /todos/3',
      '  added Todo 3 "todo 3"',
    ]);
  });

  it('give an event the same row object for as long as it is shown, open or not', () => {
    const before = rowsOf(timeline, []);
    const after = rowsOf([...timeline.slice(1), event(6)], [5]);
    expect(after.at(0)).toBe(before.at(1));
    expect(after.at(3)).not.toBe(before.at(4));
    expect(after.at(3)).toBe(rowsOf(timeline, [5]).at(4));
  });
});
