import { MemberList } from '../../normalize/memberList.js';
import { isInvalid } from '../../schema/invalid.js';
import type { State } from '../../store/state.js';
import type { SearchMatch } from '../protocol/messages.js';

/** The most matches one search answers with: a text found everywhere lists the first ones. */
export const MAX_SEARCH_MATCHES = 200;
/** How much of a matched value the panel is shown. */
const PREVIEW_LENGTH = 120;

/**
 * The fields of the stored entities (every type) whose value contains `text`, ignoring case: a
 * text field as it is, any other value as its JSON. Collection rows and INVALID entities are
 * passed over. At most MAX_SEARCH_MATCHES; `more` says some were left out.
 */
export function searchEntities(
  state: State,
  text: string,
): { matches: SearchMatch[]; more: boolean } {
  const needle = text.toLowerCase();
  const matches: SearchMatch[] = [];
  if (needle === '') return { matches, more: false };
  let more = false;
  state.entities.forEach((rows, entity) => {
    if (more) return;
    rows.forEach((row, pk) => {
      // A collection row (a MemberList) holds pks, not fields.
      if (more || typeof row !== 'object' || row === null || row instanceof MemberList) return;
      if (isInvalid(row)) return;
      for (const [field, value] of Object.entries(row as Record<string, unknown>)) {
        const shown = typeof value === 'string' ? value : JSON.stringify(value);
        if (shown === undefined || !shown.toLowerCase().includes(needle)) continue;
        if (matches.length === MAX_SEARCH_MATCHES) {
          more = true;
          return;
        }
        matches.push({ entity, pk, field, value: preview(shown, needle) });
      }
    });
  });
  return { matches, more };
}

/** The value, or the part of it around the first match when it is long. */
function preview(value: string, needle: string): string {
  if (value.length <= PREVIEW_LENGTH) return value;
  const at = value.toLowerCase().indexOf(needle);
  const start = Math.max(0, Math.min(at - 40, value.length - PREVIEW_LENGTH));
  return `${start > 0 ? '…' : ''}${value.slice(start, start + PREVIEW_LENGTH)}…`;
}
