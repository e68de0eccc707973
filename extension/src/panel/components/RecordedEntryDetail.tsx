import { useMemo } from 'preact/hooks';
import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { usePanelActions } from '../context.js';
import { formatTime, formatValue } from '../format.js';
import type { RecordedEntry } from '../recorder/entries.js';
import type { ReplayResult } from '../recorder/replay.js';
import { countChanges, diffNode } from '../valueDiff.js';
import { ValueTree } from './ValueTree.js';

/** A button that stays focusable when it cannot act, so keyboard focus is not lost at an end. */
function MoveButton(props: { label: string; disabled: boolean; onMove(): void }) {
  return (
    <button
      type="button"
      aria-disabled={props.disabled}
      class={props.disabled ? 'is-disabled' : undefined}
      onClick={() => {
        if (!props.disabled) props.onMove();
      }}
    >
      {props.label}
    </button>
  );
}

/** One recorded mutation: its call and answer (as text), its replay result, and the edits. */
export function RecordedEntryDetail(props: {
  entry: RecordedEntry;
  position: number;
  count: number;
  result?: ReplayResult;
  /** A replay is running: the list cannot be edited. */
  locked: boolean;
  onEdited(message: string): void;
}) {
  const { moveRecorded, removeRecorded } = usePanelActions();
  const { entry, position, count, result, locked } = props;
  const fields: [string, string][] = [];
  if (entry.time !== undefined) fields.push(['time', formatTime(entry.time)]);
  if (entry.method) fields.push(['request', `${entry.method} ${entry.url ?? ''}`]);
  fields.push(['args', formatValue(entry.args, 4000)]);
  if (entry.body !== undefined) fields.push(['body', formatValue(entry.body, 4000)]);
  fields.push([
    'response',
    'response' in entry ? formatValue(entry.response, 4000) : '(none recorded)',
  ]);

  const move = (by: number) => {
    moveRecorded(entry.id, by);
    props.onEdited(`Moved ${entry.endpoint} to position ${position + by} of ${count}.`);
  };

  return (
    <article class="entry-detail" aria-label={`Mutation ${position}: ${entry.endpoint}`}>
      <h2 class="detail-title">
        #{position} <span class="mono">{entry.endpoint}</span>
      </h2>
      {result && (
        <p class={result.ok ? 'replay-ok' : 'replay-error'}>
          Last replay: {result.ok ? 'ok' : `error: ${result.error ?? ''}`}
        </p>
      )}
      <fieldset class="entry-edit" disabled={locked}>
        <legend class="visually-hidden">Edit the list</legend>
        <MoveButton label="Move up" disabled={locked || position <= 1} onMove={() => move(-1)} />
        <MoveButton
          label="Move down"
          disabled={locked || position >= count}
          onMove={() => move(1)}
        />
        <button
          type="button"
          class="danger"
          onClick={() => {
            removeRecorded(entry.id);
            props.onEdited(`Removed ${entry.endpoint}.`);
          }}
        >
          Remove
        </button>
      </fieldset>
      <table class="fields">
        <tbody>
          {fields.map(([name, text]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td class="value">{text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result?.response !== undefined && (
        <ResponseDiff
          recorded={'response' in entry ? entry.response : undefined}
          now={result.response}
        />
      )}
    </article>
  );
}

/** A `send` replay's answer against the recorded one: one tree, each change marked. */
function ResponseDiff(props: { recorded: Encoded | undefined; now: Encoded }) {
  const { recorded, now } = props;
  const [diff, changes] = useMemo(() => {
    const tree = diffNode('', recorded, now);
    return [tree, countChanges(tree)] as const;
  }, [recorded, now]);
  return (
    <section class="replay-answers" aria-label="Recorded and new response">
      <h3>Response: recorded → server's now</h3>
      <p class="detail-sub" role="status">
        {changes === 0
          ? 'The same as recorded.'
          : `${changes === 1 ? '1 change' : `${changes} changes`} from the recorded response.`}
      </p>
      <ValueTree value={now} tree={diff} label="response now against recorded" />
    </section>
  );
}
