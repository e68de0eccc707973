import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export interface ActiveRow {
  /** The active row's index (-1 for none), as rendered. */
  active: number;
  /** The active row as the handlers read it: several keys may come before the next render. */
  activeRef: RefObject<number>;
  setActive(index: number): void;
  /** Makes the row at `index` (kept within the list) active, and scrolls it into view. */
  move(index: number): void;
  /** The list's `focus` handler: with no row active, the selected one (or the first) becomes so. */
  onFocus(): void;
}

const clamp = (index: number, count: number) => Math.max(0, Math.min(count - 1, index));

/**
 * The row the keyboard acts on. It follows the selection when that changes (a lookup, a click
 * elsewhere); `reveal` scrolls a row into view.
 */
export function useActiveRow(
  selectedIndex: number | undefined,
  count: number,
  reveal: (index: number) => void,
): ActiveRow {
  const [active, setActiveState] = useState(selectedIndex ?? -1);
  const activeRef = useRef(active);

  const setActive = (index: number) => {
    activeRef.current = index;
    setActiveState(index);
  };

  const move = (index: number) => {
    if (count === 0) return;
    const next = clamp(index, count);
    setActive(next);
    reveal(next);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs only when the selection changes
  useEffect(() => {
    if (selectedIndex !== undefined && selectedIndex >= 0 && selectedIndex < count)
      move(selectedIndex);
  }, [selectedIndex]);

  const onFocus = () => {
    if (activeRef.current < 0)
      setActive(selectedIndex !== undefined && selectedIndex >= 0 ? selectedIndex : 0);
  };

  return { active, activeRef, setActive, move, onFocus };
}

interface ListKeyActions<T> {
  count: number;
  /** Rows that PageUp and PageDown move by. */
  page: number;
  activeRow: ActiveRow;
  /** The item at `index`; none for a negative index. */
  itemAt(index: number): T | undefined;
  onActivate?(item: T, index: number): void;
  onExpand?(item: T, index: number): void;
  onCollapse?(item: T, index: number): number | undefined;
}

/**
 * The listbox's keys: ArrowUp/ArrowDown/PageUp/PageDown/Home/End move the active row, Enter
 * activates it, ArrowRight/ArrowLeft open and close it (where rows open). Other keys, and keys
 * with a modifier, are let through.
 */
export function listKeyHandler<T>(actions: ListKeyActions<T>): (event: KeyboardEvent) => void {
  const { count, page, activeRow, itemAt } = actions;
  const { move } = activeRow;
  return (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = Math.min(activeRow.activeRef.current, count - 1);
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
        if (item !== undefined) actions.onActivate?.(item, current);
        break;
      }
      case 'ArrowRight': {
        const item = itemAt(current);
        if (item === undefined || !actions.onExpand) return;
        actions.onExpand(item, current);
        break;
      }
      case 'ArrowLeft': {
        const item = itemAt(current);
        if (item === undefined || !actions.onCollapse) return;
        const to = actions.onCollapse(item, current);
        if (to !== undefined) move(to);
        break;
      }
      default:
        return; // not a list key: let it through
    }
    event.preventDefault();
  };
}
