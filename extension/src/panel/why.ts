import type { ActionCause, StoreEvent } from '../../../library/src/devtools/protocol/effects.js';

/** A component's name as React writes it; one the page could not tell is "a component". */
export const componentLabel = (name: string | undefined) => (name ? `<${name}>` : 'a component');

/**
 * Why an action ran, in a few words: "mount <TodoList>", "invalidated by Todo.delete #12",
 * "poll", "app call", "devtools refetch", "replay". A replay's actions (`replayId`) say so,
 * whatever the page noted.
 */
export function describeCause(cause: ActionCause | undefined, replayId?: string): string {
  if (replayId !== undefined) return 'replay';
  if (cause === undefined) return '';
  const { reason, by } = cause;
  const from = by ? ` by ${by.label} #${by.seq}` : '';
  switch (reason.kind) {
    case 'mount':
      return `mount ${componentLabel(reason.component)}`;
    case 'args-changed':
      return `args changed ${componentLabel(reason.component)}`;
    case 'invalid':
      return by ? `invalidated${from}` : `invalid, read by ${componentLabel(reason.component)}`;
    case 'stale':
      return by ? `expired${from}` : `stale, read by ${componentLabel(reason.component)}`;
    case 'poll':
      return 'poll';
    case 'app':
      return 'app call';
    case 'devtools':
      return `devtools ${reason.command}`;
    default:
      // A reason from a newer page: named as it is.
      return (reason as { kind: string }).kind;
  }
}

/**
 * How often the result of `key` was fetched on the timeline, and why each time, oldest first:
 * "fetched 4× — mount <TodoList>, invalidated by Todo.delete #12, poll, poll". Empty when no
 * answer of it is on the timeline.
 */
export function fetchHistory(events: readonly StoreEvent[], key: string): string {
  const reasons: string[] = [];
  for (const { action } of events) {
    if (action.type !== 'setResponse' || action.key !== key || action.mutation) continue;
    reasons.push(describeCause(action.cause, action.replayId) || 'reason unknown');
  }
  if (reasons.length === 0) return '';
  return `fetched ${reasons.length}× — ${reasons.join(', ')}`;
}

/** Each mounted reader's component once, with how many of it read (`<TodoItem> ×3`). */
export function readerList(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .map(([name, count]) => `${componentLabel(name)}${count > 1 ? ` ×${count}` : ''}`)
    .join(', ');
}
