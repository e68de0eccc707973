import { usePanel, usePanelActions } from '../context.js';
import type { StoreView } from '../model.js';

/** Views that show the store's state, and so show it as of a past event while travelling. */
export const TIME_TRAVEL_VIEWS: readonly string[] = ['collections', 'entities', 'results'];

/** Says which past state the views show (or that it is gone), with one click back to live. */
export function TimeTravelBanner({ store }: { store: StoreView }) {
  const travel = usePanel((state) => state.timeTravel);
  const { setTimeTravel } = usePanelActions();
  if (!travel || travel.storeId !== store.id) return null;
  const text = travel.leftRing
    ? `#${travel.seq} has left the page's ring: its state can no longer be read`
    : `State at #${travel.seq} — live is #${store.lastSeq}${
        travel.pending > 0 ? ' (reading it from the page…)' : ''
      }. Collections, Entities and Results show it, read-only.`;
  return (
    <div class={`time-travel${travel.leftRing ? ' is-gone' : ''}`} role="status">
      <span>{text}</span>
      <button type="button" onClick={() => setTimeTravel(undefined)}>
        Back to live
      </button>
    </div>
  );
}
