import { FILTERED_LIST, SLASH_TARGET } from '../shortcuts.js';

/**
 * A view's filter box: `/` focuses it, ArrowDown enters the list it filters (`listId`), Escape
 * empties it. Every view's filter behaves the same.
 */
export function FilterInput(props: {
  /** Its accessible name. */
  label: string;
  placeholder: string;
  /** The id of the list it filters. */
  listId: string;
  value: string;
  onChange(value: string): void;
}) {
  const { onChange } = props;
  return (
    <input
      type="search"
      class="filter"
      aria-label={props.label}
      placeholder={`${props.placeholder} (/)`}
      {...{ [FILTERED_LIST]: props.listId, [SLASH_TARGET]: '' }}
      value={props.value}
      onInput={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onChange('');
      }}
    />
  );
}
