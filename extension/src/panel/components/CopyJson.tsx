import { useState } from 'preact/hooks';
import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { valueToJson } from '../valueNodes.js';

/** "Copy JSON": writes a value to the clipboard as plain JSON, and says whether it could. */
export function CopyJson({ value, label }: { value: Encoded | undefined; label: string }) {
  const [said, setSaid] = useState('');
  const copy = () => {
    const text = JSON.stringify(valueToJson(value), null, 2) ?? 'null';
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) {
      setSaid('Could not copy: no clipboard here');
      return;
    }
    clipboard.writeText(text).then(
      () => setSaid('Copied'),
      () => setSaid('Could not copy: the browser refused'),
    );
  };
  return (
    <span class="value-copy">
      <button type="button" class="small" aria-label={`Copy ${label} as JSON`} onClick={copy}>
        Copy JSON
      </button>
      <span role="status">{said}</span>
    </span>
  );
}
