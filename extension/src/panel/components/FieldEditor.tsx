import { useState } from 'preact/hooks';
import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanel, usePanelActions } from '../context.js';
import type { StoreView } from '../model.js';
import { isConnected } from '../store.js';
import { valueToJson } from '../valueNodes.js';

/** The largest JSON text an edit may hold (the page refuses larger values anyway). */
const MAX_EDIT_LENGTH = 64 * 1024;

/**
 * Edits one field of an entity: its value as JSON text, written into the page's store (through
 * its write path: the timeline shows it as a devtools edit). What is not JSON is not sent.
 */
export function FieldEditor(props: {
  store: StoreView;
  entity: string;
  pk: string;
  field: string;
  value: Encoded;
  onDone(): void;
}) {
  const { store, entity, pk, field } = props;
  const connection = useConnection();
  const { clearCommandError } = usePanelActions();
  const connected = usePanel(isConnected);
  const [text, setText] = useState(() => JSON.stringify(valueToJson(props.value)) ?? 'null');
  const [problem, setProblem] = useState('');

  const save = (event: Event) => {
    event.preventDefault();
    let value: Encoded;
    try {
      if (text.length > MAX_EDIT_LENGTH)
        throw new Error(`longer than ${MAX_EDIT_LENGTH} characters`);
      value = JSON.parse(text) as Encoded;
    } catch (error) {
      setProblem(`Not saved: the value is not JSON (${(error as Error).message}).`);
      return;
    }
    clearCommandError(store.id);
    connection.send({ kind: 'edit', storeId: store.id, entity, pk, field, value });
    props.onDone();
  };

  return (
    <form class="field-editor" aria-label={`Edit ${field}`} onSubmit={save}>
      <input
        class="mono"
        aria-label={`New value of ${field} (JSON)`}
        value={text}
        onInput={(event) => {
          setText(event.currentTarget.value);
          setProblem('');
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onDone();
        }}
      />
      <button type="submit" disabled={!connected}>
        Save
      </button>
      <button type="button" onClick={props.onDone}>
        Cancel
      </button>
      {problem && (
        <span class="notice-error" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}
