import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { usePanel, usePanelActions } from '../context.js';
import type { PaneLayout, PanelView, SplitKey } from '../store.js';
import { NARROW_LAYOUT } from './layout.js';

/** Neither pane can be moved out of sight: the list keeps 15 % to 85 % of the room. */
const MIN_SHARE = 0.15;
const MAX_SHARE = 0.85;
/** How far one arrow key moves the bar. */
const STEP = 0.05;

/** The list's share before the user moves the bar: the Timeline's rows are long. */
function defaultShare(view: PanelView, layout: PaneLayout): number {
  if (layout === 'narrow') return 0.4;
  return view === 'timeline' ? 0.55 : 0.36;
}

const clamp = (share: number) => Math.min(MAX_SHARE, Math.max(MIN_SHARE, share));

/** Where a key moves the bar: back (left, up), forward (right, down), or to an end. */
function keyedShare(key: string, share: number): number | undefined {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowUp':
      return share - STEP;
    case 'ArrowRight':
    case 'ArrowDown':
      return share + STEP;
    case 'Home':
      return MIN_SHARE;
    case 'End':
      return MAX_SHARE;
    default:
      return undefined;
  }
}

const narrowQuery = () => window.matchMedia?.(NARROW_LAYOUT);

/** The layout panel.css gives the panes at the panel's width now. */
function usePaneLayout(): PaneLayout {
  const [layout, setLayout] = useState<PaneLayout>(() =>
    narrowQuery()?.matches ? 'narrow' : 'wide',
  );
  useEffect(() => {
    const media = narrowQuery();
    if (!media) return;
    const update = () => setLayout(media.matches ? 'narrow' : 'wide');
    media.addEventListener('change', update);
    update();
    return () => media.removeEventListener('change', update);
  }, []);
  return layout;
}

/**
 * The bar between a view's list and its detail, placed between the two (in a `.split`, or the
 * Timeline's body): drag it, or focus it and press the arrow keys, Home or End, to give either
 * pane more room. Side by side it moves left and right; stacked (the panel docked at the side),
 * up and down. It sets the list's share on its parent (`--split-share`), where panel.css reads
 * it; the share is kept per view and layout, across views.
 */
export function SplitHandle() {
  const handle = useRef<HTMLDivElement>(null);
  const dragging = useRef<DOMRect | undefined>(undefined);
  const layout = usePaneLayout();
  const view = usePanel((state) => state.view);
  const key: SplitKey = `${view} ${layout}`;
  const share = usePanel((state) => state.splitShares[key]) ?? defaultShare(view, layout);
  const { setSplitShare } = usePanelActions();
  const moveTo = (next: number) => setSplitShare(key, clamp(next));

  useLayoutEffect(() => {
    handle.current?.parentElement?.style.setProperty(
      '--split-share',
      `${Math.round(share * 1000) / 10}%`,
    );
  }, [share]);

  const follow = (event: PointerEvent) => {
    const box = dragging.current;
    if (!box) return;
    moveTo(
      layout === 'narrow'
        ? (event.clientY - box.top) / box.height
        : (event.clientX - box.left) / box.width,
    );
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a separator that moves is a widget, <hr> a rule
    <div
      ref={handle}
      class="splitter"
      role="separator"
      tabIndex={0}
      aria-label="Resize the list and the detail"
      aria-orientation={layout === 'narrow' ? 'horizontal' : 'vertical'}
      aria-valuemin={MIN_SHARE * 100}
      aria-valuemax={MAX_SHARE * 100}
      aria-valuenow={Math.round(share * 100)}
      onPointerDown={(event) => {
        const parent = event.currentTarget.parentElement;
        if (!parent || event.button !== 0) return;
        event.preventDefault(); // no text selection while dragging
        event.currentTarget.setPointerCapture?.(event.pointerId);
        dragging.current = parent.getBoundingClientRect();
      }}
      onPointerMove={follow}
      onPointerUp={() => {
        dragging.current = undefined;
      }}
      onPointerCancel={() => {
        dragging.current = undefined;
      }}
      onKeyDown={(event) => {
        const next = keyedShare(event.key, share);
        if (next === undefined) return;
        event.preventDefault();
        moveTo(next);
      }}
    />
  );
}
