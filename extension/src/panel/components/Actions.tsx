import { useMemo, useState } from 'preact/hooks';
import type { ExtensionCommandBody } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanel } from '../context.js';
import { endpointOf, type StoreView } from '../model.js';
import { isConnected } from '../store.js';
import { memo } from './memo.js';

/** Why the commands are off while a past state is shown: they would change the live store. */
export const READ_ONLY_IN_THE_PAST = 'Viewing a past state: back to live to change the store';

/** Commands to the page's store: invalidate one result, expire all, reset. */
export function Actions({ store }: { store: StoreView }) {
  const connection = useConnection();
  const connected = usePanel(isConnected);
  // Time travel is read-only: the commands act on the live store, which is not what is shown.
  const inThePast = usePanel((state) => state.timeTravel?.storeId === store.id);
  const usable = connected && !inThePast;
  const offReason = inThePast ? READ_ONLY_IN_THE_PAST : undefined;
  const keys = useMemo(() => [...store.endpoints.keys()].sort(), [store.endpoints]);
  const [picked, setPicked] = useState('');
  // What was last sent, said until the store moves on past the command's own change.
  const [sent, setSent] = useState<{ text: string; storeId: string; seq: number }>();
  const saying =
    sent && sent.storeId === store.id && store.lastSeq <= sent.seq + 1 ? sent.text : '';
  const key = keys.includes(picked) ? picked : (keys[0] ?? '');

  const send = (command: ExtensionCommandBody, done: string) => {
    connection.send(command);
    setSent({ text: done, storeId: store.id, seq: store.lastSeq });
  };

  return (
    <fieldset class="actions">
      <legend class="visually-hidden">Actions</legend>
      <ResultPicker keys={keys} value={key} resultNames={store.resultNames} onPick={setPicked} />
      <button
        type="button"
        disabled={!usable || key === ''}
        title={offReason}
        onClick={() => send({ kind: 'invalidate', storeId: store.id, key }, `Invalidated ${key}`)}
      >
        Invalidate
      </button>
      <button
        type="button"
        disabled={!usable}
        title={offReason}
        onClick={() => send({ kind: 'expireAll', storeId: store.id }, 'Expired every result')}
      >
        Expire all
      </button>
      <ResetControl
        usable={usable}
        offReason={offReason}
        onReset={() => send({ kind: 'reset', storeId: store.id }, 'Reset the store')}
      />
      <span class="action-sent" role="status">
        {offReason ?? saying}
      </span>
    </fieldset>
  );
}

/** The stored result the Invalidate button acts on. */
function ResultPicker(props: {
  keys: readonly string[];
  value: string;
  resultNames: StoreView['resultNames'];
  onPick(key: string): void;
}) {
  const { keys } = props;
  return (
    <label class="action-key">
      <span class="action-label">Result</span>
      <select
        value={props.value}
        disabled={keys.length === 0}
        onChange={(event) => props.onPick(event.currentTarget.value)}
      >
        {keys.length === 0 && <option value="">No stored results</option>}
        <ResultOptions keys={keys} resultNames={props.resultNames} />
      </select>
    </label>
  );
}

/** "Reset store…", which asks before it resets the page's store. */
function ResetControl(props: {
  usable: boolean;
  /** Why the commands are off, when they are. */
  offReason: string | undefined;
  onReset(): void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button
        type="button"
        disabled={!props.usable}
        title={props.offReason}
        onClick={() => setConfirming(true)}
      >
        Reset store…
      </button>
    );
  return (
    <span class="confirm">
      Reset the page's store?{' '}
      <button
        type="button"
        class="danger"
        disabled={!props.usable}
        onClick={() => {
          setConfirming(false);
          props.onReset();
        }}
      >
        Reset
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </span>
  );
}

/**
 * One option per stored result, with its endpoint: rendered again only when the results or their
 * names change, not for every batch of events (an app holds thousands of results).
 */
const ResultOptions = memo(
  ({ keys, resultNames }: { keys: readonly string[]; resultNames: StoreView['resultNames'] }) =>
    keys.map((key) => {
      const endpoint = endpointOf({ resultNames }, key);
      return (
        <option key={key} value={key}>
          {endpoint === undefined ? key : `${key} (${endpoint})`}
        </option>
      );
    }),
);
