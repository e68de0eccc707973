import type { ComponentChildren, HTMLAttributes } from 'preact';
import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { listKeyHandler, useActiveRow } from './listActiveRow.js';
import { useListScroll, useViewportHeight } from './listScroll.js';

/**
 * What a list shows, read by index: an array, or rows worked out as they are read (the
 * timeline's 10,000 events with the lines of the open ones among them).
 */
export interface ListItems<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

interface VirtualListProps<T> {
  items: ListItems<T>;
  /** Every row's height in px: fixed, so any row's position is known without measuring. */
  rowHeight: number;
  /** Unique on the page: row ids (for `aria-activedescendant`) start with it. */
  id: string;
  /** The list's accessible name. */
  label: string;
  /**
   * A row's key: its element stays as long as the key is rendered. Without one, rows are keyed
   * by their place in view: as the list moves, the elements stay and take the rows that come to
   * their place (a log that each batch moves by more rows than it shows would otherwise make
   * every row in view anew).
   */
  rowKey?(item: T, index: number): string | number;
  renderRow(item: T, index: number): ComponentChildren;
  /** Enter, or a click on a row. */
  onActivate?(item: T, index: number): void;
  /** ArrowRight on a row: opens it (a collapsed event). */
  onExpand?(item: T, index: number): void;
  /** ArrowLeft on a row: closes it, or returns the index of the row to move to (its parent). */
  onCollapse?(item: T, index: number): number | undefined;
  /** The selected row: marked `aria-selected`, and the active row follows it when it changes. */
  selectedIndex?: number;
  rowClass?(item: T, index: number): string | undefined;
  /** A row's whole text, as its tooltip: a narrow panel cuts rows (with an ellipsis). */
  rowTitle?(item: T, index: number): string;
  /** Extra attributes for a row's element (e.g. `aria-expanded`, or a `data-*` for the e2e tests). */
  rowAttributes?(
    item: T,
    index: number,
  ): HTMLAttributes<HTMLDivElement> & { [data: `data-${string}`]: string | number | undefined };
  /** Rows rendered beyond each edge of the viewport, so fast scrolling shows no gaps. */
  overscan?: number;
  /** Viewport height to assume when it cannot be measured (a hidden panel, jsdom). */
  fallbackHeight?: number;
  /** A row to scroll into view whenever it changes (the member a change inserted). */
  revealIndex?: number;
  /** Opens at the end and stays there as rows are added, while the user is there (a log). */
  followEnd?: boolean;
  /** Shown instead of the list when there are no items. */
  empty?: ComponentChildren;
  /**
   * The rows rendered changed (scrolled, resized, more or fewer items): `first` to `last`,
   * overscan included, `last < first` for none. For a view that loads what its rows show.
   */
  onRangeChange?(first: number, last: number): void;
}

interface RowRange {
  first: number;
  last: number;
}

/** The rows a list renders, kept by its view: pass the setter as the list's `onRangeChange`. */
export function useRowRange(): [RowRange, (first: number, last: number) => void] {
  const [range, setRange] = useState<RowRange>({ first: 0, last: -1 });
  const onRangeChange = useCallback((first: number, last: number) => setRange({ first, last }), []);
  return [range, onRangeChange];
}

/** The rows to render for a viewport: the visible ones plus `overscan` on each side. */
export function visibleRange(
  count: number,
  rowHeight: number,
  scrollTop: number,
  height: number,
  overscan: number,
): { first: number; last: number } {
  if (count === 0) return { first: 0, last: -1 };
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { first, last };
}

/**
 * The indexes of the rows to render: `first` to `last`, and the active row even when scrolled
 * away (`aria-activedescendant` must resolve).
 */
function renderedIndexes(first: number, last: number, activeIndex: number): number[] {
  const indexes: number[] = [];
  if (activeIndex >= 0 && activeIndex < first) indexes.push(activeIndex);
  for (let index = first; index <= last; index++) indexes.push(index);
  if (activeIndex > last) indexes.push(activeIndex);
  return indexes;
}

/**
 * A listbox that renders only the rows in view (plus overscan), so 10,000 rows cost as much as
 * fifty. Keyboard: ArrowUp/ArrowDown/PageUp/PageDown/Home/End move the active row, Enter
 * activates it, ArrowRight/ArrowLeft open and close it (where rows open); the active row is
 * announced through `aria-activedescendant` and always rendered.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, rowHeight, id, overscan = 8, fallbackHeight = 320, selectedIndex } = props;
  const viewport = useRef<HTMLDivElement>(null);
  const count = items.length;
  // The viewport exists only while there are rows (an empty list shows a message instead).
  const height = useViewportHeight(viewport, count > 0);
  const viewHeight = height > 0 ? height : fallbackHeight;
  const scroll = useListScroll(viewport, {
    count,
    rowHeight,
    viewHeight,
    revealIndex: props.revealIndex,
    followEnd: props.followEnd === true,
  });
  const activeRow = useActiveRow(selectedIndex, count, scroll.reveal);
  const activeIndex = Math.min(activeRow.active, count - 1);
  const { first, last } = visibleRange(count, rowHeight, scroll.top, viewHeight, overscan);

  const { onRangeChange } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reports only when the range changes
  useLayoutEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last]);

  if (count === 0) return <div class="list-empty">{props.empty ?? 'Nothing to show.'}</div>;
  const rowId = (index: number) => `${id}-row-${index}`;
  const activate = (item: T, index: number) => {
    activeRow.setActive(index);
    viewport.current?.focus();
    props.onActivate?.(item, index);
  };
  return (
    <div
      ref={viewport}
      id={id}
      class="virtual-list"
      role="listbox"
      aria-label={props.label}
      aria-activedescendant={activeIndex >= 0 ? rowId(activeIndex) : undefined}
      tabIndex={0}
      onKeyDown={listKeyHandler({
        count,
        page: Math.max(1, Math.floor(viewHeight / rowHeight) - 1),
        activeRow,
        // Negative indexes are no rows (`at` would count them from the end).
        itemAt: (index) => (index >= 0 ? items.at(index) : undefined),
        onActivate: props.onActivate,
        onExpand: props.onExpand,
        onCollapse: props.onCollapse,
      })}
      onFocus={activeRow.onFocus}
      onScroll={scroll.onScroll}
    >
      <div class="virtual-list-spacer" style={{ height: `${count * rowHeight}px` }}>
        {renderedIndexes(first, last, activeIndex).map((index, place) => {
          const item = items.at(index) as T;
          return (
            <ListRow
              key={props.rowKey ? props.rowKey(item, index) : place}
              id={rowId(index)}
              index={index}
              count={count}
              rowHeight={rowHeight}
              active={index === activeIndex}
              selected={
                selectedIndex === undefined ? index === activeIndex : index === selectedIndex
              }
              extraClass={props.rowClass?.(item, index)}
              title={props.rowTitle?.(item, index)}
              attributes={props.rowAttributes?.(item, index)}
              onClick={() => activate(item, index)}
            >
              {props.renderRow(item, index)}
            </ListRow>
          );
        })}
      </div>
    </div>
  );
}

interface ListRowProps {
  id: string;
  index: number;
  count: number;
  rowHeight: number;
  active: boolean;
  selected: boolean;
  extraClass: string | undefined;
  title: string | undefined;
  attributes: HTMLAttributes<HTMLDivElement> | undefined;
  onClick(): void;
  children: ComponentChildren;
}

/** One option of the listbox, placed at its row's offset. */
function ListRow(props: ListRowProps) {
  const { index, rowHeight } = props;
  const classes = ['virtual-row'];
  if (props.active) classes.push('is-active');
  if (props.selected) classes.push('is-selected');
  if (props.extraClass) classes.push(props.extraClass);
  return (
    // Rows take no focus on purpose: the listbox keeps it and names the active row with
    // aria-activedescendant; its onKeyDown is the keyboard path to onActivate.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys
    // biome-ignore lint/a11y/useFocusableInteractive: focus stays on the listbox
    <div
      id={props.id}
      role="option"
      aria-selected={props.selected}
      aria-posinset={index + 1}
      aria-setsize={props.count}
      class={classes.join(' ')}
      style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }}
      title={props.title}
      onClick={props.onClick}
      {...props.attributes}
    >
      {props.children}
    </div>
  );
}
