import { useLayoutEffect } from 'preact/hooks';

/** Marks the input that `/` focuses in a view (its filter or lookup box). */
export const SLASH_TARGET = 'data-slash-focus';

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** `/` focuses the current view's filter, unless the user is typing somewhere. */
export function useSlashShortcut(scope: () => HTMLElement | null): void {
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isEditable(event.target)) return;
      const input = scope()?.querySelector<HTMLInputElement>(`[${SLASH_TARGET}]`);
      if (!input) return;
      event.preventDefault(); // or the `/` would be typed into the filter
      input.focus();
      input.select();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [scope]);
}

/** Marks a filter input with the id of the list it filters: ArrowDown there enters the list. */
export const FILTERED_LIST = 'data-list';

/** ArrowDown in a filter (an input marked with FILTERED_LIST) moves focus into its list. */
export function useArrowDownIntoList(): void {
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'ArrowDown' || !(event.target instanceof HTMLElement)) return;
      const listId = event.target.getAttribute(FILTERED_LIST);
      const list = listId ? document.getElementById(listId) : null;
      if (!list) return;
      event.preventDefault();
      list.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
