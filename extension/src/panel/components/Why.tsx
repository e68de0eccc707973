import { useEffect, useState } from 'preact/hooks';
import type {
  ActionSummary,
  TraceFrame,
} from '../../../../library/src/devtools/protocol/effects.js';
import { useSources } from '../context.js';
import type { FrameLocation } from '../sources.js';
import { describeCause } from '../why.js';

/**
 * Why an event's action ran ("mount <TodoList>", "invalidated by Todo.delete #12", …) and, when
 * the page recorded it, where the app called it: the app's frames, innermost first.
 */
export function Why({ action }: { action: ActionSummary }) {
  const reason = describeCause(action.cause, action.replayId);
  if (reason === '') return null;
  const trace = action.replayId === undefined ? action.cause?.trace : undefined;
  return (
    <section aria-label="Why" class="why">
      <h3>Why</h3>
      <p class="why-reason">{reason}</p>
      {trace && trace.length > 0 && <Trace frames={trace} />}
    </section>
  );
}

/** The frames of a trace; inside DevTools each opens its place in the Sources panel. */
function Trace({ frames }: { frames: readonly TraceFrame[] }) {
  return (
    <ol class="plain trace" aria-label="Called from">
      {frames.map((frame, index) => (
        // A stack may call one place twice: its position tells the frames apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: a trace never reorders
        <li key={index}>
          <Frame frame={frame} />
        </li>
      ))}
    </ol>
  );
}

/** The last part of a path: what a frame shows of its file (the whole address is its title). */
const fileName = (url: string) => url.slice(url.lastIndexOf('/') + 1) || url;

function Frame({ frame }: { frame: TraceFrame }) {
  const sources = useSources();
  const [location, setLocation] = useState<FrameLocation>({ ...frame, mapped: false });
  useEffect(() => {
    let current = true;
    void sources?.locate(frame).then((found) => {
      if (current) setLocation(found);
    });
    return () => {
      current = false;
    };
  }, [sources, frame]);
  const place = `${fileName(location.url)}:${location.line}:${location.column}`;
  const name = frame.function ?? '(anonymous)';
  if (sources === undefined)
    return (
      <span class="mono" title={location.url}>
        {name} {place}
      </span>
    );
  return (
    <button
      type="button"
      class="link mono"
      title={`Open ${location.url}:${location.line} in the Sources panel`}
      onClick={() => sources.open(location)}
    >
      {name} {place}
    </button>
  );
}
