/**
 * The validators that decide which messages are accepted, on both sides, from the descriptions
 * of `messages.ts` and `eventChecks.ts`. Whatever they accept is safe to apply and to render:
 * every field the panel reads, applies or shows is checked.
 *
 * A validator answers false (or undefined), never throws, even when reading a field throws (a
 * getter or a Proxy in a message that a script of the page dispatched on the window): an
 * exception would escape the message listener.
 */

import { array, guard, optional, pathText, string } from './check.js';
import type { StoreEvent } from './effects.js';
import { storeEvent } from './eventChecks.js';
import {
  type Encoded,
  type EventsMessage,
  encoded,
  extensionCommandCheck,
  extensionEnvelopeCheck,
  type MembersMessage,
  type PageMessage,
  pageMessageCheck,
  recordedMutation,
  type SnapshotState,
  snapshotState,
} from './messages.js';

/** Accepts only well-formed page → extension messages. */
export const isPageMessage = guard<PageMessage>(pageMessageCheck);

/** Accepts only well-formed extension → page commands. */
export const isExtensionCommand = guard(extensionCommandCheck);

/** Whether one recorded mutation has the shape replay needs (checked per mutation). */
export const isRecordedMutation = guard(recordedMutation);

/** Whether parsed JSON is a value the panel can carry and show (a carried value, or absent). */
export const isCarriedValue = guard<Encoded | undefined>(optional(encoded));

/** JSON text, parsed; undefined when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isPks = guard(array(string()));
/** The pks of a `members` message, or undefined when its text is not a list of strings. */
export function parseMembers(message: MembersMessage): string[] | undefined {
  const pks = parsed(message.data);
  return isPks(pks) ? pks : undefined;
}

const isStoreEvents = guard(array(storeEvent));
/**
 * The events of an `events` message, or undefined when its text is not a well-formed list of
 * events (then none of them is used). Typed as the page's events: a newer page's action types
 * and effect kinds are kept, shown by name (see eventChecks.ts).
 */
export function parseEvents(message: EventsMessage): StoreEvent[] | undefined {
  const events = parsed(message.data);
  return isStoreEvents(events) ? (events as StoreEvent[]) : undefined;
}

const isSnapshotState = guard(snapshotState);
/**
 * The snapshot a snapshot message's chunks make once joined, or undefined when the text is not
 * one.
 */
export function parseSnapshot(text: string): SnapshotState | undefined {
  const snapshot = parsed(text);
  return isSnapshotState(snapshot) ? snapshot : undefined;
}

/** The commands on one result or entity, whose page answers a malformed one with its problem. */
const INSPECTOR_KINDS = new Set([
  'refetch',
  'expire',
  'force-loading',
  'force-error',
  'edit',
  'readers',
  'search',
]);

/** Why an inspector command is refused, and what it was (to answer its store's panel). */
export interface Refusal {
  kind: string;
  storeId: unknown;
  problem: string;
}

/**
 * What is wrong with an inspector command (`refetch`, `expire`, `force-loading`, `force-error`,
 * `edit`, `readers`, `search`), in words that name the field: undefined when nothing is, or when
 * the message is no inspector command at all (or cannot be read: then it is dropped, like any
 * malformed message). The page answers a refused command with the problem.
 */
export function inspectorCommandRefusal(value: unknown): Refusal | undefined {
  try {
    if (!extensionEnvelopeCheck.accepts(value)) return undefined;
    const { kind, storeId }: Record<string, unknown> = value;
    if (typeof kind !== 'string' || !INSPECTOR_KINDS.has(kind)) return undefined;
    const problem = extensionCommandCheck.problem(value);
    if (problem === undefined) return undefined;
    return {
      kind,
      storeId,
      problem: `${kind}: \`${pathText(problem.path)}\` must be ${problem.expected}`,
    };
  } catch {
    return undefined;
  }
}
