import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { StoreEvent } from '../../../../library/src/devtools/protocol/effects.js';
import { isEditEndpoint } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanel, usePanelActions } from '../context.js';
import {
  appendedFrom,
  DEVTOOLS_EDIT,
  eventBySeq,
  eventSummary,
  eventsFrom,
  filterEvents,
  filtersNothing,
  OPTIMISTIC_LABELS,
} from '../derive.js';
import { type EntityLabeler, entityLabel, formatTime } from '../format.js';
import type { StoreView } from '../model.js';
import type { PanelState } from '../store.js';
import { type TimelineRow, TimelineRows } from '../timelineRows.js';
import type { ViewProps } from '../views.js';
import { EventDetail } from './EventDetail.js';
import { ROW_HEIGHT } from './layout.js';
import { memo } from './memo.js';
import { SplitHandle } from './SplitHandle.js';
import { TimelineToolbar } from './TimelineToolbar.js';
import { VirtualList } from './VirtualList.js';

/** Every event, filterable by kind, endpoint and text; Enter or a click expands one. */
export function TimelineView({ store }: ViewProps) {
  const filter = usePanel((state) => state.timelineFilter);
  const reloads = usePanel((state) => state.reloads);
  const { setTimelineFilter, selectEntity, inspectEvent } = usePanelActions();
  const [expanded, toggle] = useExpandedEvents(inspectEvent);
  // The event shown in full beside the list: the one last opened.
  const inspectedSeq = usePanel((state) => state.inspectedEvent);
  const inspected = inspectedSeq === undefined ? undefined : eventBySeq(store.events, inspectedSeq);
  const labelOf = useCallback<EntityLabeler>(
    (entity, pk) => entityLabel(store.entities[entity]?.get(pk)),
    [store.entities],
  );
  const events = useFilteredEvents(store.events, filter, labelOf);
  const rows = useMemo(
    () => new TimelineRows(events, expanded, store.events, labelOf),
    [events, expanded, store.events, labelOf],
  );

  useRequestLabels(store, rows);

  return (
    <div class="timeline">
      <TimelineToolbar
        filter={filter}
        actionValues={store.actionValues}
        shown={events.length}
        total={store.events.length}
        onFilter={setTimelineFilter}
      />
      {reloads > 0 && (
        <p class="notice notice-reload">
          Page reloaded {reloads}×: the history starts at the latest load.
        </p>
      )}
      <div class="timeline-body">
        <TimelineList
          rows={rows}
          empty={store.events.length === 0 ? 'No events yet.' : 'No event matches the filter.'}
          onToggle={toggle}
          onOpenEntity={selectEntity}
        />
        {inspected && (
          <>
            <SplitHandle />
            <section class="pane-event" aria-label="Event detail">
              <EventDetail store={store} event={inspected} />
            </section>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * The events opened in the list (by seq), and a toggle that opens or closes one. Opening one
 * also shows it in full (`inspect`).
 */
function useExpandedEvents(
  inspect: (seq: number) => void,
): [ReadonlySet<number>, (seq: number) => void] {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const toggle = (seq: number) => {
    const opening = !expanded.has(seq);
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(seq)) next.add(seq);
      return next;
    });
    if (opening) inspect(seq);
  };
  return [expanded, toggle];
}

/** The timeline's rows: events, and the lines of the open ones. */
function TimelineList(props: {
  rows: TimelineRows;
  empty: string;
  onToggle(seq: number): void;
  onOpenEntity(entity: string, pk: string): void;
}) {
  const { rows, onToggle } = props;
  return (
    <VirtualList
      id="timeline-events"
      label="Timeline"
      items={rows}
      rowHeight={ROW_HEIGHT}
      // Rows keyed by their place (no rowKey): following the end, each batch moves the
      // timeline by its length, and rows keyed by event would all be made anew.
      followEnd
      rowAttributes={(row) =>
        row.kind === 'event' ? { 'aria-expanded': row.open, 'data-seq': row.event.seq } : {}
      }
      rowClass={timelineRowClass}
      rowTitle={(row) => (row.kind === 'event' ? eventTitle(row.event) : row.text)}
      onExpand={(row) => {
        if (row.kind === 'event' && !row.open) onToggle(row.event.seq);
      }}
      onCollapse={(row) => {
        if (row.kind === 'event') {
          if (row.open) onToggle(row.event.seq);
          return undefined;
        }
        // A line of an expanded event: back to its event.
        return rows.indexOfEvent(row.event);
      }}
      onActivate={(row) => {
        if (row.kind === 'event') onToggle(row.event.seq);
        else if (row.entity) props.onOpenEntity(row.entity.entity, row.entity.pk);
      }}
      empty={props.empty}
      renderRow={(row) => <RowContent row={row} />}
    />
  );
}

/** An event's row is marked by how its optimistic change went and by an error; a line by its tone. */
function timelineRowClass(row: TimelineRow): string {
  if (row.kind !== 'event') return `detail tone-${row.tone}${row.nested ? ' nested' : ''}`;
  const { action } = row.event;
  return `event${action.optimistic ? ` optimistic-${action.optimistic}` : ''}${action.error !== undefined ? ' is-error' : ''}`;
}

/**
 * The events the filter lets through. Kept from one render to the next: when the timeline only
 * gained events at its end and lost some at its start (a batch came), only the new events are
 * matched. Labels that changed under a text filter may change any event's match: all are then
 * matched again.
 */
function useFilteredEvents(
  events: readonly StoreEvent[],
  filter: PanelState['timelineFilter'],
  labelOf: EntityLabeler,
): readonly StoreEvent[] {
  const last = useRef<{
    events: readonly StoreEvent[];
    filter: PanelState['timelineFilter'];
    labelOf: EntityLabeler;
    matched: readonly StoreEvent[];
  }>(undefined);
  const previous = last.current;
  const sameMatch =
    previous?.filter === filter && (previous.labelOf === labelOf || !filter.text.trim());
  const from = sameMatch ? appendedFrom(previous.events, events) : undefined;
  let matched: readonly StoreEvent[];
  if (filtersNothing(filter)) matched = events;
  else if (previous === undefined || from === undefined)
    matched = filterEvents(events, filter, labelOf);
  else {
    const kept = eventsFrom(previous.matched, events[0]?.seq ?? Number.POSITIVE_INFINITY);
    const added = filterEvents(events.slice(from), filter, labelOf);
    matched = added.length === 0 ? kept : kept.concat(added);
  }
  last.current = { events, filter, labelOf, matched };
  return matched;
}

const titles = new WeakMap<StoreEvent, string>();

/** An event's row as one line of text (its tooltip; worked out once per event). */
function eventTitle(event: StoreEvent): string {
  let title = titles.get(event);
  if (title === undefined) {
    const { action } = event;
    title = [
      `#${event.seq}`,
      formatTime(event.time),
      action.type,
      action.endpoint,
      action.method && `${action.method} ${action.url}`,
      action.optimistic && OPTIMISTIC_LABELS[action.optimistic],
      eventSummary(event),
    ]
      .filter(Boolean)
      .join(' · ');
    titles.set(event, title);
  }
  return title;
}

/**
 * What a row shows, rendered again only when the row changed: the rows in view stay while a
 * batch of events comes (an event's row is one object, see TimelineRows).
 */
const RowContent = memo(({ row }: { row: TimelineRow }) =>
  row.kind === 'event' ? (
    <EventLine event={row.event} open={row.open} />
  ) : (
    <span class="detail-text">{row.text}</span>
  ),
);

function EventLine({ event, open }: { event: StoreEvent; open: boolean }) {
  const { action } = event;
  return (
    <>
      <span class="toggle" aria-hidden="true">
        {open ? '▾' : '▸'}
      </span>
      <span class="seq">#{event.seq}</span>
      <span class="time">{formatTime(event.time)}</span>
      <span class={`kind kind-${action.type}`}>{action.type}</span>
      {action.endpoint && <span class="endpoint mono">{action.endpoint}</span>}
      {action.method && (
        <span class="request mono">
          {action.method} {action.url}
        </span>
      )}
      {action.optimistic && (
        <span class={`badge badge-optimistic-${action.optimistic}`}>
          {OPTIMISTIC_LABELS[action.optimistic]}
        </span>
      )}
      {isEditEndpoint(action.endpoint) && <span class="badge badge-edit">{DEVTOOLS_EDIT}</span>}
      {action.error !== undefined && <span class="badge badge-error">error</span>}
      <span class="summary">{eventSummary(event)}</span>
    </>
  );
}

/** Asks the page for the rows of the entities the expanded lines name, to show their labels. */
function useRequestLabels(store: StoreView, rows: TimelineRows) {
  const connection = useConnection();
  useLayoutEffect(() => {
    const byTable = new Map<string, string[]>();
    for (const line of rows.lines())
      if (line.entity) {
        const pks = byTable.get(line.entity.entity) ?? [];
        byTable.set(line.entity.entity, [...pks, line.entity.pk]);
      }
    for (const [table, pks] of byTable) connection.requestRows(store.id, table, pks);
  }, [connection, store, rows]);
}
