import type { RefObject } from 'preact';
import { useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';

/**
 * The viewport's height in px, measured again whenever it resizes (0 until it is measured, or
 * where it cannot be: a hidden panel, jsdom). `present` is whether the viewport is rendered: it
 * is measured again when it appears.
 */
export function useViewportHeight(
  viewport: RefObject<HTMLElement | null>,
  present: boolean,
): number {
  const [height, setHeight] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measure again when the viewport appears
  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    setHeight(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [present]);
  return height;
}

interface ScrollOptions {
  count: number;
  rowHeight: number;
  /** The viewport's height, measured or assumed. */
  viewHeight: number;
  /** A row to scroll into view whenever it changes. */
  revealIndex: number | undefined;
  /** Opens at the end and stays there as rows are added, while the user is there. */
  followEnd: boolean;
}

export interface ListScroll {
  /** The scroll position the rows are rendered for. */
  top: number;
  /** Scrolls just enough for the row to be in view. */
  reveal(index: number): void;
  /** The viewport's `scroll` handler. */
  onScroll(event: { currentTarget: HTMLElement }): void;
}

/**
 * A virtual list's scroll position. Handlers read it from a ref: several keys may come before
 * the next render. The list renders the rows at that position, and renders again when it moves.
 */
export function useListScroll(
  viewport: RefObject<HTMLElement | null>,
  { count, rowHeight, viewHeight, revealIndex, followEnd }: ScrollOptions,
): ListScroll {
  const scrollRef = useRef(0);
  const [, scrolled] = useReducer((moves: number) => moves + 1, 0);
  // Set when a render moved `scrollRef` (following the end): the viewport is scrolled after it.
  const scrollPending = useRef(false);
  const totalHeight = count * rowHeight;

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

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs only when the row to show changes
  useLayoutEffect(() => {
    if (revealIndex !== undefined && revealIndex >= 0 && revealIndex < count) reveal(revealIndex);
  }, [revealIndex]);

  // Rows were added while the user was at the end: stay there, like a log. A log opens at its
  // end too (as if all its rows had just come). Decided while rendering, so that this render
  // already shows the rows at the new end (not the old ones, and then the new ones again).
  const previousCount = useRef(followEnd ? 0 : count);
  if (followEnd && count > previousCount.current) {
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

  const onScroll = (event: { currentTarget: HTMLElement }) => {
    // Also the echo of a scroll the list made itself: no need to render again for that.
    const top = event.currentTarget.scrollTop;
    if (top === scrollRef.current) return;
    scrollRef.current = top;
    scrolled(undefined);
  };

  return { top: scrollRef.current, reveal, onScroll };
}
