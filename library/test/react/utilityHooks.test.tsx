// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useDebounce, useLoading } from '../../src/react/index.js';

afterEach(cleanup);

describe('useDebounce', () => {
  it('gives the value once it stayed the same for the delay, never the ones typed past', async () => {
    const seen: string[] = [];
    const { rerender } = renderHook(
      ({ text }: { text: string }) => {
        const [debounced] = useDebounce(text, 40);
        seen.push(debounced);
        return debounced;
      },
      { initialProps: { text: 'a' } },
    );
    rerender({ text: 'ab' });
    rerender({ text: 'abc' });
    expect(seen.at(-1)).toBe('a');
    await waitFor(() => expect(seen.at(-1)).toBe('abc'));
    expect(new Set(seen)).toEqual(new Set(['a', 'abc']));
  });

  it('holds the value while it may not update', async () => {
    const { result, rerender } = renderHook(
      ({ text, updatable }: { text: string; updatable: boolean }) =>
        useDebounce(text, 10, updatable),
      { initialProps: { text: 'a', updatable: false } },
    );
    rerender({ text: 'b', updatable: false });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(result.current).toEqual(['a', false]);
    rerender({ text: 'b', updatable: true });
    await waitFor(() => expect(result.current[0]).toBe('b'));
  });
});

describe('useLoading', () => {
  it('says a call is running, then gives what it resolved to', async () => {
    let finish: (value: string) => void = () => {};
    const { result } = renderHook(() =>
      useLoading(
        (name: string) => new Promise<string>((resolve) => (finish = () => resolve(name))),
      ),
    );
    expect(result.current[1]).toBe(false);
    let call: Promise<string | undefined> = Promise.resolve(undefined);
    act(() => {
      call = result.current[0]('saved');
    });
    expect(result.current[1]).toBe(true);
    await act(async () => {
      finish('saved');
      await call;
    });
    expect(await call).toBe('saved');
    expect(result.current.slice(1)).toEqual([false, undefined]);
  });

  it('keeps the error of a call that failed, and the wrapped call resolves to undefined', async () => {
    const failure = new Error('the server said no');
    const { result } = renderHook(() => useLoading(async () => Promise.reject(failure)));
    let answer: unknown = 'not called';
    await act(async () => {
      answer = await result.current[0]();
    });
    expect(answer).toBeUndefined();
    expect(result.current.slice(1)).toEqual([false, failure]);
  });
});
