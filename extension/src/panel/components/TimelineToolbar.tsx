import type { StoreView } from '../model.js';
import type { PanelState } from '../store.js';
import { FilterInput } from './FilterInput.js';
import { memo } from './memo.js';

type TimelineFilter = PanelState['timelineFilter'];

/** The timeline's filters (text, kind, endpoint) and how many events they let through. */
export function TimelineToolbar(props: {
  filter: TimelineFilter;
  /** The store's values of the action fields the menus filter by. */
  actionValues: StoreView['actionValues'];
  shown: number;
  total: number;
  onFilter(filter: Partial<TimelineFilter>): void;
}) {
  const { filter, actionValues, shown, total, onFilter } = props;
  return (
    <div class="toolbar">
      <FilterInput
        label="Filter events"
        placeholder="Filter events"
        listId="timeline-events"
        value={filter.text}
        onChange={(text) => onFilter({ text })}
      />
      <FilterMenu
        label="Kind"
        all="All kinds"
        value={filter.kind}
        values={actionValues.type.sorted}
        onPick={onFilter}
        field="kind"
      />
      <FilterMenu
        label="Endpoint"
        all="All endpoints"
        value={filter.endpoint}
        values={actionValues.endpoint.sorted}
        onPick={onFilter}
        field="endpoint"
      />
      <span class="count" aria-live="polite">
        {shown === total ? `${shown} events` : `${shown} of ${total} events`}
      </span>
    </div>
  );
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
    onPick: (filter: Partial<TimelineFilter>) => void;
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
