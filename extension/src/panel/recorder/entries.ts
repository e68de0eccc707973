import type { StoreEvent } from '../../../../library/src/devtools/protocol/effects.js';
import type {
  Encoded,
  RecordedMutation,
} from '../../../../library/src/devtools/protocol/messages.js';
import type { SessionMutation } from '../../../../library/src/devtools/protocol/session.js';

/** One mutation in the Recorder's list: what replay needs, plus what the list shows. */
export interface RecordedEntry {
  /** Identifies the entry while the list is edited (never exported). */
  id: number;
  endpoint: string;
  /** The call's arguments as they came on the wire: encoded, and kept encoded for replay. */
  args: Encoded[];
  body?: Encoded;
  response?: Encoded;
  /** When it ran (ms since the epoch); an imported mutation may have none. */
  time?: number;
  method?: string;
  url?: string;
}

/** An entry before it gets its id. */
export type EntryFields = Omit<RecordedEntry, 'id'>;

/**
 * Whether an event is a mutation the Recorder keeps: a mutation's answer that was stored
 * (`setResponse` of an endpoint with side effects, not an error nor a rolled-back optimistic
 * update), or a `getPage`, which is a GET but grows a list the way a push does. An optimistic
 * mutation is kept once, from its committed answer: the optimistic apply is a `fetch` event.
 */
export function isRecordable(event: StoreEvent): boolean {
  const { action } = event;
  if (action.type !== 'setResponse' || !action.endpoint || !Array.isArray(action.args))
    return false;
  if (action.error !== undefined || action.optimistic === 'rolled-back') return false;
  return action.mutation === true || isPageName(action.endpoint);
}

/**
 * A getPage endpoint's name: `Todo.getList.getPage`, or with the path its page records it by
 * when another endpoint of that name goes to another path (`Todo.getList.getPage@/todos`).
 */
function isPageName(endpoint: string): boolean {
  return /\.getPage(@|$)/.test(endpoint);
}

/** The entry for a recordable event (values stay encoded as the page sent them). */
export function entryFromEvent(event: StoreEvent): EntryFields {
  const { action } = event;
  return {
    endpoint: action.endpoint ?? '',
    args: action.args ?? [],
    ...(action.body !== undefined ? { body: action.body } : {}),
    ...('response' in action ? { response: action.response } : {}),
    time: event.time,
    ...(action.method ? { method: action.method } : {}),
    ...(action.url ? { url: action.url } : {}),
  };
}

/** The mutation replay and the session file take: the display-only fields are left out. */
export function toMutation(entry: EntryFields): RecordedMutation {
  return {
    endpoint: entry.endpoint,
    args: entry.args,
    ...('response' in entry ? { response: entry.response } : {}),
    ...(entry.time !== undefined ? { time: entry.time } : {}),
  };
}

/** The mutation as a session file keeps it: what replay takes, and the request it made. */
export function toSessionMutation(entry: EntryFields): SessionMutation {
  return {
    ...toMutation(entry),
    ...(entry.method !== undefined ? { method: entry.method } : {}),
    ...(entry.url !== undefined ? { url: entry.url } : {}),
    ...(entry.body !== undefined ? { body: entry.body } : {}),
  };
}

/** The list without one entry. */
export function removeEntry(entries: readonly RecordedEntry[], id: number): RecordedEntry[] {
  return entries.filter((entry) => entry.id !== id);
}

/** The list with one entry moved by `by` places, within bounds (unchanged if it cannot move). */
export function moveEntry(
  entries: readonly RecordedEntry[],
  id: number,
  by: number,
): RecordedEntry[] {
  const from = entries.findIndex((entry) => entry.id === id);
  const to = Math.max(0, Math.min(entries.length - 1, from + by));
  if (from < 0 || to === from) return entries as RecordedEntry[];
  const next = entries.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as RecordedEntry);
  return next;
}
