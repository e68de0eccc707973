import { useRef } from 'preact/hooks';
import type { PanelView } from '../store.js';
import type { ViewDefinition } from '../views.js';

export const tabId = (view: PanelView) => `view-tab-${view}`;
export const VIEW_PANEL_ID = 'view-panel';

/** The view switcher: tabs that ArrowLeft/ArrowRight/Home/End move through (roving focus). */
export function ViewTabs(props: {
  views: readonly ViewDefinition[];
  current: PanelView;
  onSelect(view: PanelView): void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const index = props.views.findIndex((view) => view.id === props.current);

  const go = (next: number) => {
    const count = props.views.length;
    const view = props.views[(next + count) % count];
    if (!view) return;
    props.onSelect(view.id);
    list.current?.querySelector<HTMLElement>(`#${tabId(view.id)}`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: props.views.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    go(next);
  };

  return (
    <div class="tabs" role="tablist" aria-label="Views" ref={list} onKeyDown={onKeyDown}>
      {props.views.map((view) => {
        const selected = view.id === props.current;
        return (
          <button
            key={view.id}
            type="button"
            role="tab"
            id={tabId(view.id)}
            aria-selected={selected}
            aria-controls={VIEW_PANEL_ID}
            tabIndex={selected ? 0 : -1}
            class="tab"
            onClick={() => props.onSelect(view.id)}
          >
            {view.label}
          </button>
        );
      })}
    </div>
  );
}
