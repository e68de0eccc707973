import type { ComponentType } from 'preact';
import { CollectionsView } from './components/CollectionsView.js';
import { EntitiesView } from './components/EntitiesView.js';
import { RecorderView } from './components/RecorderView.js';
import { ResultsView } from './components/ResultsView.js';
import { SearchView } from './components/SearchView.js';
import { TimelineView } from './components/TimelineView.js';
import type { StoreView } from './model.js';
import type { PanelView } from './store.js';

export interface ViewProps {
  /** The panel's copy of the selected store. */
  store: StoreView;
}

export interface ViewDefinition {
  id: PanelView;
  label: string;
  Component: ComponentType<ViewProps>;
}

/** The view switcher's tabs, in order: adding a view (the recorder) is one entry here. */
export const VIEWS: readonly ViewDefinition[] = [
  { id: 'collections', label: 'Collections', Component: CollectionsView },
  { id: 'entities', label: 'Entities', Component: EntitiesView },
  { id: 'search', label: 'Search', Component: SearchView },
  { id: 'results', label: 'Results', Component: ResultsView },
  { id: 'timeline', label: 'Timeline', Component: TimelineView },
  { id: 'recorder', label: 'Recorder', Component: RecorderView },
];

/** The view to show: the selected one when it exists, else the first. */
export function currentView(id: PanelView): ViewDefinition {
  return VIEWS.find((view) => view.id === id) ?? (VIEWS[0] as ViewDefinition);
}
