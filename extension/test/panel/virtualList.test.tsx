import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualList, visibleRange } from '../../src/panel/components/VirtualList.js';
import { press } from './support/harness.js';

afterEach(cleanup);

const ROW = 20;
const items = Array.from({ length: 10_000 }, (_, index) => `row ${index}`);

function renderList(
  props: {
    onActivate?(item: string, index: number): void;
    selectedIndex?: number;
    onRangeChange?(first: number, last: number): void;
  } = {},
) {
  render(
    <VirtualList
      id="big"
      label="Big list"
      items={items}
      rowHeight={ROW}
      fallbackHeight={200}
      overscan={5}
      rowKey={(item) => item}
      renderRow={(item) => <span class="text">{item}</span>}
      {...props}
    />,
  );
  return screen.getByRole('listbox', { name: 'Big list' });
}

const renderedTexts = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('VirtualList', () => {
  it('renders only the rows in view plus overscan, out of 10,000', () => {
    const list = renderList();
    // 200 px / 20 px = 10 rows in view, +5 overscan below (none above the first row), +1 edge.
    expect(renderedTexts()).toEqual(Array.from({ length: 16 }, (_, index) => `row ${index}`));
    const spacer = list.firstElementChild as HTMLElement;
    expect(spacer.style.height).toBe(`${10_000 * ROW}px`);
    const last = screen.getAllByRole('option').at(-1) as HTMLElement;
    expect(last.style.top).toBe(`${15 * ROW}px`);
    expect(last.getAttribute('aria-setsize')).toBe('10000');
    expect(last.getAttribute('aria-posinset')).toBe('16');
  });

  it('moves its window when scrolled', async () => {
    const list = renderList();
    list.scrollTop = 5000 * ROW;
    await act(() => {
      fireEvent.scroll(list);
    });
    const texts = renderedTexts();
    expect(texts[0]).toBe('row 4995');
    expect(texts.at(-1)).toBe('row 5015');
    expect(texts).not.toContain('row 0');
  });

  it('reports the rows it renders when they change, for a view that loads what they show', async () => {
    const ranges: [number, number][] = [];
    const list = renderList({ onRangeChange: (first, last) => ranges.push([first, last]) });
    expect(ranges).toEqual([[0, 15]]);
    list.scrollTop = 5000 * ROW;
    await act(() => {
      fireEvent.scroll(list);
    });
    expect(ranges).toEqual([
      [0, 15],
      [4995, 5015],
    ]);
  });

  it('moves the active row with the keyboard, keeps it in view, and activates it with Enter', async () => {
    const activated: number[] = [];
    const list = renderList({ onActivate: (_item, index) => activated.push(index) });
    list.focus();
    await act(() => {}); // focus makes the first row active
    expect(list.getAttribute('aria-activedescendant')).toBe('big-row-0');
    await press(list, 'ArrowDown');
    await press(list, 'ArrowDown');
    expect(list.getAttribute('aria-activedescendant')).toBe('big-row-2');
    await press(list, 'ArrowUp');
    expect(list.getAttribute('aria-activedescendant')).toBe('big-row-1');
    await press(list, 'End');
    expect(list.getAttribute('aria-activedescendant')).toBe('big-row-9999');
    // The active row is rendered, so aria-activedescendant points at an element.
    const active = document.getElementById('big-row-9999') as HTMLElement;
    expect(active.textContent).toBe('row 9999');
    expect(active.getAttribute('aria-selected')).toBe('true');
    expect(renderedTexts()).not.toContain('row 0');
    await press(list, 'PageUp'); // a page: the rows in view less one
    expect(list.getAttribute('aria-activedescendant')).toBe('big-row-9990');
    await press(list, 'Enter');
    await press(list, 'Home');
    expect(list.getAttribute('aria-activedescendant')).toBe('big-row-0');
    await press(list, 'ArrowUp'); // stays at the first row
    expect(list.getAttribute('aria-activedescendant')).toBe('big-row-0');
    await press(list, 'Enter');
    expect(activated).toEqual([9990, 0]);
  });

  it('keeps the active row rendered when the user scrolls away from it', async () => {
    const list = renderList();
    list.focus();
    await press(list, 'ArrowDown');
    list.scrollTop = 3000 * ROW;
    await act(() => {
      fireEvent.scroll(list);
    });
    expect(document.getElementById('big-row-1')).not.toBeNull();
    expect(renderedTexts()).toContain('row 3000');
  });

  it('follows the selected row and activates a row on click', async () => {
    const activated: string[] = [];
    renderList({ selectedIndex: 7000, onActivate: (item) => activated.push(item) });
    await act(() => {});
    const selected = document.getElementById('big-row-7000') as HTMLElement;
    expect(selected.getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByText('row 7001'));
    expect(activated).toEqual(['row 7001']);
  });

  it('follows the end of a log in the render that adds rows: the old end is not rendered again', () => {
    const rendered: string[] = [];
    const log = (length: number) => (
      <VirtualList
        id="log"
        label="Log"
        items={items.slice(0, length)}
        rowHeight={ROW}
        fallbackHeight={200}
        overscan={5}
        followEnd
        rowKey={(item) => item}
        renderRow={(item) => {
          rendered.push(item);
          return item;
        }}
      />
    );
    const { rerender } = render(log(100));
    expect(renderedTexts().at(-1)).toBe('row 99');
    rendered.length = 0;
    rerender(log(200));
    expect(renderedTexts().at(-1)).toBe('row 199');
    expect(rendered).not.toContain('row 99');
    expect(screen.getByRole('listbox', { name: 'Log' }).scrollTop).toBe(200 * ROW - 200);
  });

  it('keys rows by their place in view when given no key: the elements stay as the list moves', () => {
    const log = (length: number) => (
      <VirtualList
        id="log"
        label="Log"
        items={items.slice(0, length)}
        rowHeight={ROW}
        fallbackHeight={200}
        overscan={5}
        followEnd
        renderRow={(item) => item}
      />
    );
    const { rerender } = render(log(100));
    const before = screen.getAllByRole('option');
    // More rows than the view shows: every row in view is another one.
    rerender(log(200));
    expect(renderedTexts().at(-1)).toBe('row 199');
    expect(renderedTexts()).not.toContain('row 99');
    expect(screen.getAllByRole('option').every((row, place) => row === before[place])).toBe(true);
  });

  it('shows its empty text instead of an empty listbox', () => {
    render(
      <VirtualList
        id="none"
        label="Nothing"
        items={[]}
        rowHeight={ROW}
        rowKey={String}
        renderRow={String}
        empty="Nothing here."
      />,
    );
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByText('Nothing here.')).toBeTruthy();
  });
});

describe('visibleRange', () => {
  it('is the rows in the viewport plus overscan, within bounds', () => {
    expect(visibleRange(0, 20, 0, 200, 5)).toEqual({ first: 0, last: -1 });
    expect(visibleRange(100, 20, 0, 200, 5)).toEqual({ first: 0, last: 15 });
    expect(visibleRange(100, 20, 1000, 200, 5)).toEqual({ first: 45, last: 65 });
    expect(visibleRange(100, 20, 1900, 200, 5)).toEqual({ first: 90, last: 99 });
  });
});
