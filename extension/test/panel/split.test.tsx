import { fireEvent, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NARROW_LAYOUT } from '../../src/panel/components/layout.js';
import { TodoResource } from './support/app.js';
import { panelEnvPerTest } from './support/env.js';
import { mountPanel, press, settle } from './support/harness.js';

// The bar between a view's list and its detail. Layout itself (panel.css) is the browser's: the
// e2e spec docked.spec.ts checks what it looks like at 554 px.

const env = panelEnvPerTest();

const openTab = async (name: string) => {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
};
const bar = () => screen.getByRole('separator', { name: 'Resize the list and the detail' });
const share = () => Number(bar().getAttribute('aria-valuenow'));
const shareSet = () => bar().parentElement?.style.getPropertyValue('--split-share');

/** Opens a view with something selected, so that its detail shows. */
const VIEWS: [string, string, string, () => Promise<void>][] = [
  ['Collections', 'Collection rows', 'Collection row', async () => {}],
  [
    'Entities',
    'Entity browser',
    'Entity',
    async () => {
      fireEvent.click(screen.getAllByRole('option')[0] as HTMLElement);
    },
  ],
  [
    'Results',
    'Stored results',
    'Result',
    async () => {
      fireEvent.click(screen.getAllByRole('option')[0] as HTMLElement);
    },
  ],
  ['Recorder', 'Recorded mutations', 'Recorded mutation', async () => {}],
  [
    'Timeline',
    'Timeline',
    'Event detail',
    async () => {
      const list = screen.getByRole('listbox', { name: 'Timeline' });
      list.focus();
      await press(list, 'Home');
      await press(list, 'Enter');
    },
  ],
];

/** jsdom has no PointerEvent: a MouseEvent with a pointer id stands in for it. */
class TestPointerEvent extends MouseEvent {
  readonly pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 0;
  }
}

/** The pointer event handlers a browser's elements have (Preact binds `onPointerDown` by them). */
const POINTER_HANDLERS = ['onpointerdown', 'onpointermove', 'onpointerup', 'onpointercancel'];

beforeEach(() => {
  vi.stubGlobal('PointerEvent', TestPointerEvent);
  for (const name of POINTER_HANDLERS)
    Object.defineProperty(HTMLElement.prototype, name, {
      value: null,
      writable: true,
      configurable: true,
    });
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const name of POINTER_HANDLERS) Reflect.deleteProperty(HTMLElement.prototype, name);
});

describe('the bar between list and detail', () => {
  it.each(VIEWS)(
    '%s: sits between the list and the detail; arrows, Home and End move it, within bounds',
    async (view, list, detail, select) => {
      await env.app.show(TodoResource.getList, { userId: 1 });
      await settle();
      await openTab(view);
      await select();
      await settle();
      const previous = bar().previousElementSibling;
      expect(previous?.matches(`[aria-label="${list}"]`)).toBe(true);
      expect(bar().nextElementSibling?.getAttribute('aria-label')).toBe(detail);
      expect(bar().getAttribute('aria-orientation')).toBe('vertical'); // side by side
      const start = share();
      expect(shareSet()).toBe(`${start}%`);

      await press(bar(), 'ArrowRight');
      expect(share()).toBe(start + 5);
      expect(shareSet()).toBe(`${start + 5}%`);
      await press(bar(), 'ArrowLeft');
      await press(bar(), 'ArrowUp');
      expect(share()).toBe(start - 5);
      await press(bar(), 'End');
      expect(share()).toBe(85);
      await press(bar(), 'ArrowDown');
      expect(share()).toBe(85);
      await press(bar(), 'Home');
      expect([share(), shareSet()]).toEqual([15, '15%']);
      await press(bar(), 'ArrowLeft');
      expect(share()).toBe(15);
    },
  );

  it('keeps each view’s share while other views are shown', async () => {
    await env.app.show(TodoResource.getList, { userId: 1 });
    await settle();
    await openTab('Collections');
    await press(bar(), 'Home');
    await openTab('Results');
    expect(share()).toBe(36); // its own, untouched
    await openTab('Collections');
    expect(share()).toBe(15);
  });

  it('follows the pointer while dragged: across when side by side', async () => {
    await env.app.show(TodoResource.getList, { userId: 1 });
    await settle();
    await openTab('Collections');
    const split = bar().parentElement as HTMLElement;
    split.getBoundingClientRect = () => new DOMRect(100, 0, 1000, 500);
    fireEvent.pointerDown(bar(), { button: 0, pointerId: 1, clientX: 460 });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 600 });
    await settle();
    expect(share()).toBe(50);
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 2000 });
    await settle();
    expect(share()).toBe(85); // not past the bound
    fireEvent.pointerUp(bar(), { pointerId: 1, clientX: 2000 });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 300 });
    await settle();
    expect(share()).toBe(85); // released: moves no more
  });

  it('docked at the side, stacks the panes: the bar moves up and down, with its own share', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === NARROW_LAYOUT,
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }));
    env.panel.unmount();
    env.panel = mountPanel();
    await env.app.show(TodoResource.getList, { userId: 1 });
    await settle();
    await openTab('Collections');
    expect(bar().getAttribute('aria-orientation')).toBe('horizontal');
    expect(share()).toBe(40);
    const split = bar().parentElement as HTMLElement;
    split.getBoundingClientRect = () => new DOMRect(0, 100, 400, 600);
    fireEvent.pointerDown(bar(), { button: 0, pointerId: 1, clientY: 340 });
    fireEvent.pointerMove(bar(), { pointerId: 1, clientX: 0, clientY: 400 });
    await settle();
    expect(share()).toBe(50);
  });
});
