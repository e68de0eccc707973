import type { ComponentChildren, HTMLAttributes } from 'preact';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
} from 'preact/hooks';

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

const clamp = (index: number, count: number) => Math.max(0, Math.min(count - 1, index));

/**
 * A listbox that renders only the rows in view (plus overscan), so 10,000 rows cost as much as
 * fifty. Keyboard: ArrowUp/ArrowDown/PageUp/PageDown/Home/End move the active row, Enter
 * activates it, ArrowRight/ArrowLeft open and close it (where rows open); the active row is announced through `aria-activedescendant` and always rendered.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const {
    items,
    rowHeight,
    id,
    overscan = 8,
    fallbackHeight = 320,
    selectedIndex,
    onActivate,
  } = props;
  const viewport = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  const [active, setActiveState] = useState(selectedIndex ?? -1);
  // Handlers read the active row and the scroll position from refs: several keys may come
  // before the next render. The list renders the rows at `scrollRef`, and renders again when
  // it moves.
  const activeRef = useRef(active);
  const scrollRef = useRef(0);
  const [, scrolled] = useReducer((moves: number) => moves + 1, 0);
  // Set when a render moved `scrollRef` (following the end): the viewport is scrolled after it.
  const scrollPending = useRef(false);
  const count = items.length;
  const viewHeight = height > 0 ? height : fallbackHeight;
  const totalHeight = count * rowHeight;
  // Negative indexes are no rows (`at` would count them from the end).
  const itemAt = (index: number) => (index >= 0 ? items.at(index) : undefined);

  const setActive = (index: number) => {
    activeRef.current = index;
    setActiveState(index);
  };

  // The viewport exists only while there are rows (an empty list shows a message instead).
  const hasRows = count > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: measure again when the viewport appears
  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    setHeight(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasRows]);

  const scrollTo = (top: number) => {
    const bounded = Math.max(0, Math.min(top, Math.max(0, totalHeight - viewHeight)));
    if (viewport.current) viewport.current.scrollTop = bounded;
    // Browsers fire `scroll` after setting scrollTop, but the window must follow at once.
    scrollRef.current = bounded;
    scrolled(undefined);
  };

  const reveal = (index: number) => {
    const top = index * rowHeight;
    const current = scrollRef.current;
    if (top < current) scrollTo(top);
    else if (top + rowHeight > current + viewHeight) scrollTo(top + rowHeight - viewHeight);
  };

  const move = (index: number) => {
    if (count === 0) return;
    const next = clamp(index, count);
    setActive(next);
    reveal(next);
  };

  // The selection moved (a lookup, a click elsewhere): the active row goes with it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs only when the selection changes
  useEffect(() => {
    if (selectedIndex !== undefined && selectedIndex >= 0 && selectedIndex < count)
      move(selectedIndex);
  }, [selectedIndex]);

  const { revealIndex } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs only when the row to show changes
  useLayoutEffect(() => {
    if (revealIndex !== undefined && revealIndex >= 0 && revealIndex < count) reveal(revealIndex);
  }, [revealIndex]);

  // Rows were added while the user was at the end: stay there, like a log. A log opens at its
  // end too (as if all its rows had just come). Decided while rendering, so that this render
  // already shows the rows at the new end (not the old ones, and then the new ones again).
  const previousCount = useRef(props.followEnd ? 0 : count);
  if (props.followEnd && count > previousCount.current) {
    const wasAtEnd =
      scrollRef.current + viewHeight >= previousCount.current * rowHeight - rowHeight;
    if (wasAtEnd) {
      scrollRef.current = Math.max(0, totalHeight - viewHeight);
      scrollPending.current = true;
    }
  }
  previousCount.current = count;
  // Fewer rows than the position needs (a filter took some): the browser clamps the viewport
  // when it lays it out, and the window goes with it now, not at its `scroll` event.
  scrollRef.current = Math.min(scrollRef.current, Math.max(0, totalHeight - viewHeight));
  useLayoutEffect(() => {
    if (!scrollPending.current) return;
    scrollPending.current = false;
    if (viewport.current) viewport.current.scrollTop = scrollRef.current;
  });

  const activeIndex = Math.min(active, count - 1);
  const page = Math.max(1, Math.floor(viewHeight / rowHeight) - 1);
  const { first, last } = visibleRange(count, rowHeight, scrollRef.current, viewHeight, overscan);

  const { onRangeChange } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reports only when the range changes
  useLayoutEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = Math.min(activeRef.current, count - 1);
    switch (event.key) {
      case 'ArrowDown':
        move(current + 1);
        break;
      case 'ArrowUp':
        move(current < 0 ? 0 : current - 1);
        break;
      case 'PageDown':
        move(current + page);
        break;
      case 'PageUp':
        move(current - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(count - 1);
        break;
      case 'Enter': {
        const item = itemAt(current);
        if (item !== undefined) onActivate?.(item, current);
        break;
      }
      case 'ArrowRight': {
        const item = itemAt(current);
        if (item === undefined || !props.onExpand) return;
        props.onExpand(item, current);
        break;
      }
      case 'ArrowLeft': {
        const item = itemAt(current);
        if (item === undefined || !props.onCollapse) return;
        const to = props.onCollapse(item, current);
        if (to !== undefined) move(to);
        break;
      }
      default:
        return; // not a list key: let it through
    }
    event.preventDefault();
  };

  if (count === 0) return <div class="list-empty">{props.empty ?? 'Nothing to show.'}</div>;
  const indexes: number[] = [];
  // The active row stays rendered even when scrolled away: aria-activedescendant must resolve.
  if (activeIndex >= 0 && activeIndex < first) indexes.push(activeIndex);
  for (let index = first; index <= last; index++) indexes.push(index);
  if (activeIndex > last) indexes.push(activeIndex);

  const rowId = (index: number) => `${id}-row-${index}`;
  return (
    <div
      ref={viewport}
      id={id}
      class="virtual-list"
      role="listbox"
      aria-label={props.label}
      aria-activedescendant={activeIndex >= 0 ? rowId(activeIndex) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (activeRef.current < 0)
          setActive(selectedIndex !== undefined && selectedIndex >= 0 ? selectedIndex : 0);
      }}
      onScroll={(event) => {
        // Also the echo of a scroll the list made itself: no need to render again for that.
        const top = event.currentTarget.scrollTop;
        if (top === scrollRef.current) return;
        scrollRef.current = top;
        scrolled(undefined);
      }}
    >
      <div class="virtual-list-spacer" style={{ height: `${totalHeight}px` }}>
        {indexes.map((index, place) => {
          const item = items.at(index) as T;
          const selected =
            selectedIndex === undefined ? index === activeIndex : index === selectedIndex;
          const classes = ['virtual-row'];
          if (index === activeIndex) classes.push('is-active');
          if (selected) classes.push('is-selected');
          const extra = props.rowClass?.(item, index);
          if (extra) classes.push(extra);
          return (
            // Rows take no focus on purpose: the listbox keeps it and names the active row with
            // aria-activedescendant; its onKeyDown is the keyboard path to onActivate.
            // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys
            // biome-ignore lint/a11y/useFocusableInteractive: focus stays on the listbox
            <div
              key={props.rowKey ? props.rowKey(item, index) : place}
              id={rowId(index)}
              role="option"
              aria-selected={selected}
              aria-posinset={index + 1}
              aria-setsize={count}
              class={classes.join(' ')}
              style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }}
              title={props.rowTitle?.(item, index)}
              onClick={() => {
                setActive(index);
                viewport.current?.focus();
                onActivate?.(item, index);
              }}
              {...props.rowAttributes?.(item, index)}
            >
              {props.renderRow(item, index)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
