import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import {
  checkSession,
  SESSION_FORMAT,
  SESSION_VERSION,
  type Session,
} from '../../../../library/src/devtools/protocol/session.js';
import { isCarriedValue } from '../../../../library/src/devtools/protocol/validate.js';
import { type EntryFields, toSessionMutation } from './entries.js';

/**
 * The session file the Recorder exports (and keeps in extension storage): the protocol's
 * `Session`, each mutation with the request it made, so that an imported list shows what the
 * exported one showed.
 */
export function buildSession(
  entries: readonly EntryFields[],
  options: { source?: string; now?: Date } = {},
): Session {
  return {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    createdAt: (options.now ?? new Date()).toISOString(),
    ...(options.source ? { source: options.source } : {}),
    mutations: entries.map(toSessionMutation),
  };
}

/** Pretty-printed, so that a session file can be read and edited by hand. */
export function sessionText(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

/** `restlens-session-2025-01-31T12-00-00.json`: sortable, and legal on every file system. */
export function sessionFileName(now = new Date()): string {
  return `restlens-session-${now.toISOString().slice(0, 19).replaceAll(':', '-')}.json`;
}

type ParsedSession = { ok: true; session: Session } | { ok: false; error: string };

/** Reads a session file's text: JSON first, then `checkSession` says what is wrong, if anything. */
export function parseSession(text: string): ParsedSession {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the file is not JSON (${(error as Error).message})` };
  }
  return checkSession(value);
}

/**
 * A body is kept only as the value it must be: JSON.parse reads a file's values at any depth,
 * and one nested deeper than any carried value would overflow the stack of whatever walks it
 * whole (Copy JSON, saving the recording).
 */
const isEncodedField = (value: unknown) => value !== undefined && isCarriedValue(value);
const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The entries of a checked session. Replay needs none of a mutation's method, URL and body, so
 * each is read back only when it has the right type (a hand-edited file may hold anything).
 */
export function entriesFromSession(session: Session): EntryFields[] {
  return session.mutations.map((mutation) => {
    const extra = mutation as unknown as Record<string, unknown>;
    const method = optionalString(extra.method);
    const url = optionalString(extra.url);
    return {
      endpoint: mutation.endpoint,
      args: mutation.args,
      ...(isEncodedField(extra.body) ? { body: extra.body as Encoded } : {}),
      ...('response' in mutation ? { response: mutation.response } : {}),
      ...(typeof mutation.time === 'number' ? { time: mutation.time } : {}),
      ...(method ? { method } : {}),
      ...(url ? { url } : {}),
    };
  });
}
