import { useCallback, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import type { Effect, StoreEvent } from '../../../../library/src/devtools/protocol/effects.js';
import { isEditEndpoint } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanel, usePanelActions } from '../context.js';
import {
  DEVTOOLS_EDIT,
  type EntityLabeler,
  eventBySeq,
  eventSummary,
  filterEvents,
  OPTIMISTIC_LABELS,
} from '../derive.js';
import {
  EFFECTS_OMITTED,
  effectLines,
  entityLabel,
  formatTime,
  formatValue,
  rollbackLines,
} from '../format.js';
import { optimisticOrigin, type StoreView } from '../model.js';
import type { ViewProps } from '../views.js';
import { EventDetail } from './EventDetail.js';
import { FilterInput } from './FilterInput.js';
import { ROW_HEIGHT } from './layout.js';
import { VirtualList } from './VirtualList.js';

/** A timeline row: an event, or one line of an expanded event (a detail of its action, or an effect). */
type TimelineRow =
  | { kind: 'event'; event: StoreEvent }
  | {
      kind: 'detail';
      event: StoreEvent;
      index: number;
      text: string;
      tone: string;
      entity?: { entity: string; pk: string };
      /** The entity's label (its title), when the line names one whose row has come. */
      label?: string;
      nested?: boolean;
    };

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
): TimelineRow[] {
  const { action } = event;
  const lines: Omit<Extract<TimelineRow, { kind: 'detail' }>, 'kind' | 'event' | 'index'>[] = [];
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
    for (const line of effectLines(effect)) lines.push({ ...line, tone });
  }
  const undone = optimisticOrigin(events, event);
  if (undone) for (const line of rollbackLines(undone)) lines.push({ ...line, tone: 'remove' });
  return lines.map((line, index) => ({
    kind: 'detail',
    event,
    index,
    ...line,
    label: line.entity ? labelOf(line.entity.entity, line.entity.pk) : undefined,
  }));
}

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
  const events = useMemo(
    () => filterEvents(store.events, filter, labelOf),
    [store.events, filter, labelOf],
  );
  const kinds = store.actionValues.type.sorted;
  const endpoints = store.actionValues.endpoint.sorted;
  const rows = useMemo(
    () =>
      events.flatMap((event): TimelineRow[] =>
        expanded.has(event.seq)
          ? [{ kind: 'event', event }, ...detailRows(event, store.events, labelOf)]
          : [{ kind: 'event', event }],
      ),
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
        <select
          aria-label="Kind"
          value={filter.kind}
          onChange={(event) => setTimelineFilter({ kind: event.currentTarget.value })}
        >
          <option value="">All kinds</option>
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
        <select
          aria-label="Endpoint"
          value={filter.endpoint}
          onChange={(event) => setTimelineFilter({ endpoint: event.currentTarget.value })}
        >
          <option value="">All endpoints</option>
          {endpoints.map((endpoint) => (
            <option key={endpoint} value={endpoint}>
              {endpoint}
            </option>
          ))}
        </select>
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
          followEnd
          rowKey={(row) =>
            row.kind === 'event' ? `e${row.event.seq}` : `d${row.event.seq}-${row.index}`
          }
          rowAttributes={(row) =>
            row.kind === 'event'
              ? { 'aria-expanded': expanded.has(row.event.seq), 'data-seq': row.event.seq }
              : {}
          }
          rowClass={(row) =>
            row.kind === 'event'
              ? `event${row.event.action.optimistic ? ` optimistic-${row.event.action.optimistic}` : ''}${row.event.action.error !== undefined ? ' is-error' : ''}`
              : `detail tone-${row.tone}${row.nested ? ' nested' : ''}`
          }
          rowTitle={(row) =>
            row.kind === 'event'
              ? eventTitle(row.event)
              : `${row.text}${row.label ? ` ${row.label}` : ''}`
          }
          onExpand={(row) => {
            if (row.kind === 'event' && !expanded.has(row.event.seq)) toggle(row.event.seq);
          }}
          onCollapse={(row) => {
            if (row.kind === 'event') {
              if (expanded.has(row.event.seq)) toggle(row.event.seq);
              return undefined;
            }
            // A line of an expanded event: back to its event.
            return rows.findIndex((other) => other.kind === 'event' && other.event === row.event);
          }}
          onActivate={(row) => {
            if (row.kind === 'event') toggle(row.event.seq);
            else if (row.entity) selectEntity(row.entity.entity, row.entity.pk);
          }}
          empty={store.events.length === 0 ? 'No events yet.' : 'No event matches the filter.'}
          renderRow={(row) =>
            row.kind === 'event' ? (
              <EventLine event={row.event} open={expanded.has(row.event.seq)} />
            ) : (
              <>
                <span class="detail-text">{row.text}</span>
                {row.label && <span class="label">{row.label}</span>}
              </>
            )
          }
        />
        {inspected && (
          <section class="pane-event" aria-label="Event detail">
            <EventDetail store={store} event={inspected} />
          </section>
        )}
      </div>
    </div>
  );
}

/** An event's row as one line of text (its tooltip). */
function eventTitle(event: StoreEvent): string {
  const { action } = event;
  return [
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
}

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
function useRequestLabels(store: StoreView, rows: readonly TimelineRow[]) {
  const connection = useConnection();
  useLayoutEffect(() => {
    const byTable = new Map<string, string[]>();
    for (const row of rows)
      if (row.kind === 'detail' && row.entity) {
        const pks = byTable.get(row.entity.entity) ?? [];
        byTable.set(row.entity.entity, [...pks, row.entity.pk]);
      }
    for (const [table, pks] of byTable) connection.requestRows(store.id, table, pks);
  }, [connection, store, rows]);
}
