import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * An async function wrapped to say whether a call of it is running and how the last one failed:
 * `[wrapped, loading, error]`, for a button that shows "Saving…". The wrapped function resolves
 * to what `func` resolved to, or to undefined when it rejected (the error is then `error`, kept
 * until another call fails). It always calls the `func` of the latest render, so it keeps its
 * identity; `deps` (data-client's second argument) is accepted and has nothing left to decide.
 */
export function useLoading<F extends (...args: any[]) => Promise<unknown>>(
  func: F,
  _deps?: readonly unknown[],
): [F, boolean, Error | undefined] {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<Error>();
  const latest = useRef(func);
  latest.current = func;
  // A call that ends after the component unmounted must not set its state.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const wrapped = useCallback(async (...args: Parameters<F>) => {
    setLoading(true);
    try {
      return await latest.current(...args);
    } catch (thrown) {
      if (mounted.current) setError(thrown as Error);
      return undefined;
    } finally {
      if (mounted.current) setLoading(false);
    }
  }, []);
  return [wrapped as unknown as F, loading, error];
}
