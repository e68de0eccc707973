import { useEffect, useState, useTransition } from 'react';

/**
 * `value` as it was `delay` ms after it last changed, and whether the update to it is still
 * rendering (`[debounced, isPending]`): a search box's text, say, read by `useSuspense` only once
 * the user paused typing. The update renders in a transition, so a component that suspends on
 * the new value keeps showing the old one meanwhile. With `updatable` false the value is held.
 */
export function useDebounce<T>(value: T, delay: number, updatable = true): [T, boolean] {
  const [debounced, setDebounced] = useState(value);
  const [isPending, startTransition] = useTransition();
  useEffect(() => {
    if (!updatable) return;
    const timer = setTimeout(() => startTransition(() => setDebounced(value)), delay);
    return () => clearTimeout(timer);
  }, [value, delay, updatable]);
  return [debounced, isPending];
}
