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
import { FilterInput } from './FilterInput.js';
import { ROW_HEIGHT } from './layout.js';
import { memo } from './memo.js';
import { SplitHandle } from './SplitHandle.js';
import { VirtualList } from './VirtualList.js';

/** Every event, filterable by kind, endpoint and text; Enter or a click expands one. */
export function TimelineView({ store }: ViewProps) {
  const filter = usePanel((state) => state.timelineFilter);
  const reloads = usePanel((state) => state.reloads);
  const { setTimelineFilter, selectEntity, inspectEvent } = usePanelActions();
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
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

  const toggle = (seq: number) => {
    const opening = !expanded.has(seq);
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(seq)) next.add(seq);
      return next;
    });
    if (opening) inspectEvent(seq);
  };

  return (
    <div class="timeline">
      <div class="toolbar">
        <FilterInput
          label="Filter events"
          placeholder="Filter events"
          listId="timeline-events"
          value={filter.text}
          onChange={(text) => setTimelineFilter({ text })}
        />
        <FilterMenu
          label="Kind"
          all="All kinds"
          value={filter.kind}
          values={store.actionValues.type.sorted}
          onPick={setTimelineFilter}
          field="kind"
        />
        <FilterMenu
          label="Endpoint"
          all="All endpoints"
          value={filter.endpoint}
          values={store.actionValues.endpoint.sorted}
          onPick={setTimelineFilter}
          field="endpoint"
        />
        <span class="count" aria-live="polite">
          {events.length === store.events.length
            ? `${events.length} events`
            : `${events.length} of ${store.events.length} events`}
        </span>
      </div>
      {reloads > 0 && (
        <p class="notice notice-reload">
          Page reloaded {reloads}×: the history starts at the latest load.
        </p>
      )}
      <div class="timeline-body">
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
          rowClass={(row) =>
            row.kind === 'event'
              ? `event${row.event.action.optimistic ? ` optimistic-${row.event.action.optimistic}` : ''}${row.event.action.error !== undefined ? ' is-error' : ''}`
              : `detail tone-${row.tone}${row.nested ? ' nested' : ''}`
          }
          rowTitle={(row) => (row.kind === 'event' ? eventTitle(row.event) : row.text)}
          onExpand={(row) => {
            if (row.kind === 'event' && !row.open) toggle(row.event.seq);
          }}
          onCollapse={(row) => {
            if (row.kind === 'event') {
              if (row.open) toggle(row.event.seq);
              return undefined;
            }
            // A line of an expanded event: back to its event.
            return rows.indexOfEvent(row.event);
          }}
          onActivate={(row) => {
            if (row.kind === 'event') toggle(row.event.seq);
            else if (row.entity) selectEntity(row.entity.entity, row.entity.pk);
          }}
          empty={store.events.length === 0 ? 'No events yet.' : 'No event matches the filter.'}
          renderRow={(row) => <RowContent row={row} />}
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

/** A menu of the values of one field on the timeline (kinds, endpoints), to filter by one. */
const FilterMenu = memo(
  ({
    label,
    all,
    value,
    values,
    field,
    onPick,
  }: {
    label: string;
    all: string;
    value: string;
    values: readonly string[];
    field: 'kind' | 'endpoint';
    onPick: (filter: Partial<PanelState['timelineFilter']>) => void;
  }) => (
    <select
      aria-label={label}
      value={value}
      onChange={(event) => onPick({ [field]: event.currentTarget.value })}
    >
      <option value="">{all}</option>
      {values.map((each) => (
        <option key={each} value={each}>
          {each}
        </option>
      ))}
    </select>
  ),
);

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
