import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { formatResult, formatValue } from '../format.js';
import { ValueTree } from './ValueTree.js';

/**
 * A stored (normalized) result: a list endpoint's result is its collection row's key, written
 * as its arguments (`list of userId: "1"`), not as escaped JSON; anything else as a tree.
 */
export function ResultValue({ value, label }: { value: Encoded; label: string }) {
  const asList = formatResult(value);
  return asList === formatValue(value) ? (
    <ValueTree value={value} label={label} copyable />
  ) : (
    <p class="mono result-list" role="note" aria-label={label}>
      {asList}
    </p>
  );
}
