import type { Effect, StoreEvent } from '../../../library/src/devtools/protocol/effects.js';
import type { ListItems } from './components/VirtualList.js';
import { indexBySeq } from './derive.js';
import {
  EFFECTS_OMITTED,
  type EntityLabeler,
  effectLines,
  eventNamer,
  formatValue,
  rollbackLines,
} from './format.js';
import { optimisticOrigin } from './model.js';

/** An event's row on the timeline. */
export interface EventRow {
  kind: 'event';
  event: StoreEvent;
  /** Whether its lines show below it. */
  open: boolean;
}

/** One line of an expanded event: a detail of its action, or an effect. */
export interface DetailRow {
  kind: 'detail';
  event: StoreEvent;
  index: number;
  text: string;
  tone: string;
  entity?: { entity: string; pk: string };
  nested?: boolean;
}

export type TimelineRow = EventRow | DetailRow;

const closedRows = new WeakMap<StoreEvent, EventRow>();
const openRows = new WeakMap<StoreEvent, EventRow>();

/**
 * An event's row: one object per event (open or not) for as long as the event is on the
 * timeline, so that a row in view renders again only when it changed.
 */
function eventRow(event: StoreEvent, open: boolean): EventRow {
  const rows = open ? openRows : closedRows;
  let row = rows.get(event);
  if (row === undefined) {
    row = { kind: 'event', event, open };
    rows.set(event, row);
  }
  return row;
}

/** An expanded event among those shown: where it is, and its lines. */
interface OpenEvent {
  index: number;
  lines: DetailRow[];
}

/**
 * The timeline's rows: the events shown, each expanded one followed by its lines. Read by index
 * and never built whole: the timeline holds 10,000 events, and a batch of events must cost what
 * it adds, while only the few expanded events have lines to place.
 */
export class TimelineRows implements ListItems<TimelineRow> {
  readonly length: number;
  private readonly open: OpenEvent[] = [];

  /**
   * `events`: those shown (sorted by seq); `expanded`: the seqs of the expanded ones; `timeline`:
   * every event (a rollback's lines name the event it undid).
   */
  constructor(
    private readonly events: readonly StoreEvent[],
    expanded: ReadonlySet<number>,
    timeline: readonly StoreEvent[],
    labelOf: EntityLabeler,
  ) {
    let lines = 0;
    for (const seq of expanded) {
      const index = indexBySeq(events, seq);
      if (index < 0) continue;
      const open = { index, lines: detailRows(events[index] as StoreEvent, timeline, labelOf) };
      this.open.push(open);
      lines += open.lines.length;
    }
    this.open.sort((a, b) => a.index - b.index);
    this.length = events.length + lines;
  }

  at(index: number): TimelineRow | undefined {
    // The lines of the expanded events before the row push it down.
    let linesBefore = 0;
    for (const { index: eventIndex, lines } of this.open) {
      const rowIndex = eventIndex + linesBefore;
      if (index < rowIndex) break;
      if (index === rowIndex) return eventRow(this.events[eventIndex] as StoreEvent, true);
      if (index <= rowIndex + lines.length) return lines[index - rowIndex - 1];
      linesBefore += lines.length;
    }
    const event = this.events[index - linesBefore];
    return event === undefined ? undefined : eventRow(event, false);
  }

  /** The row index of an expanded event (-1 for another): ArrowLeft on a line goes to it. */
  indexOfEvent(event: StoreEvent): number {
    let linesBefore = 0;
    for (const { index, lines } of this.open) {
      if (this.events[index] === event) return index + linesBefore;
      linesBefore += lines.length;
    }
    return -1;
  }

  /** The lines of every expanded event. */
  lines(): DetailRow[] {
    return this.open.flatMap(({ lines }) => lines);
  }
}

function effectTone(effect: Effect): string {
  switch (effect.type) {
    case 'entities-added':
      return 'add';
    case 'entity-invalidated':
    case 'result-invalidated':
    case 'store-reset':
      return 'remove';
    case 'collection-changed':
      return effect.kind === 'invalidate' ? 'remove' : 'add';
    case 'result-suspends':
    case 'result-error':
      return 'error';
    case 'result-lost-member':
    case 'result-expired':
      return 'warn';
    case 'replay-result':
      return effect.ok ? 'add' : 'error';
    default:
      return 'info';
  }
}

/**
 * The lines an expanded event shows: its call (args, body, answer, timing), then each effect,
 * then (for a rollback) what it undid.
 */
function detailRows(
  event: StoreEvent,
  events: readonly StoreEvent[],
  labelOf: EntityLabeler,
): DetailRow[] {
  const { action } = event;
  const lines: Omit<DetailRow, 'kind' | 'event' | 'index'>[] = [];
  if (action.key) lines.push({ text: `key ${action.key}`, tone: 'info' });
  if (action.args) lines.push({ text: `args ${formatValue(action.args, 300)}`, tone: 'info' });
  if (action.body !== undefined)
    lines.push({ text: `body ${formatValue(action.body, 300)}`, tone: 'info' });
  if (action.response !== undefined)
    lines.push({ text: `response ${formatValue(action.response, 300)}`, tone: 'info' });
  if (action.error !== undefined)
    lines.push({ text: `error ${formatValue(action.error, 300)}`, tone: 'error' });
  if (action.duration !== undefined)
    lines.push({ text: `answered in ${action.duration} ms`, tone: 'info' });
  if (event.effectsOmitted) lines.push({ text: EFFECTS_OMITTED, tone: 'warn' });
  else if (event.effects.length === 0) lines.push({ text: 'no effect on the store', tone: 'info' });
  for (const effect of event.effects) {
    const tone = effectTone(effect);
    for (const line of effectLines(effect, eventNamer(event, labelOf)))
      lines.push({ ...line, tone });
  }
  const undone = optimisticOrigin(events, event);
  if (undone)
    for (const line of rollbackLines(undone, eventNamer(undone, labelOf)))
      lines.push({ ...line, tone: 'remove' });
  return lines.map((line, index) => ({ kind: 'detail', event, index, ...line }));
}
