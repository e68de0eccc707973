/**
 * Recorded sessions: the file the Recorder exports and `replaySession` replays (a session is
 * also a test fixture). `session.schema.json` beside this file describes the same format for
 * other tools; a property test holds `checkSession` to the same answers as that JSON Schema.
 */

import { type Encoded, MAX_VALUE_DEPTH, type RecordedMutation } from './messages.js';
import { isRecordedMutation } from './validate.js';

/** The `format` field of every session file. */
export const SESSION_FORMAT = 'restlens-session';
/** The session format's version this library writes and reads. */
export const SESSION_VERSION = 1;

/**
 * A mutation as a session file keeps it: what replay needs, and the request it made, which the
 * Recorder shows beside it (replay does not read them: the arguments make the request again).
 */
export interface SessionMutation extends RecordedMutation {
  /** The HTTP method, e.g. POST. */
  method?: string;
  /** The URL requested. */
  url?: string;
  /** The request body, encoded. */
  body?: Encoded;
}

/** A recorded session: the mutations the Recorder exported, in order. */
export interface Session {
  format: typeof SESSION_FORMAT;
  version: typeof SESSION_VERSION;
  /** ISO date of the export. */
  createdAt?: string;
  /** Where it was recorded, e.g. the page URL. */
  source?: string;
  mutations: SessionMutation[];
}

/** What `checkSession` found: the session, or what is wrong with the file. */
export type SessionCheck = { ok: true; session: Session } | { ok: false; error: string };

/**
 * Checks a parsed session file and says exactly what is wrong with it: another format, a newer
 * version, or the first malformed mutation.
 */
export function checkSession(value: unknown): SessionCheck {
  const file = value as Partial<Record<keyof Session, unknown>> | null;
  if (
    typeof file !== 'object' ||
    file === null ||
    Array.isArray(file) ||
    file.format !== SESSION_FORMAT
  ) {
    return { ok: false, error: `not a RestLens session: "format" must be "${SESSION_FORMAT}"` };
  }
  const { version, mutations } = file;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, error: 'the session has no valid "version"' };
  }
  if (version > SESSION_VERSION) {
    return {
      ok: false,
      error: `the session is version ${version}, made by a newer RestLens; this one reads version ${SESSION_VERSION}`,
    };
  }
  for (const field of ['createdAt', 'source'] as const) {
    if (file[field] !== undefined && typeof file[field] !== 'string')
      return { ok: false, error: `the session's "${field}" must be a string` };
  }
  if (!Array.isArray(mutations)) return { ok: false, error: 'the session has no "mutations" list' };
  for (const [index, mutation] of mutations.entries()) {
    if (!isRecordedMutation(mutation)) {
      return {
        ok: false,
        error: `mutation ${index} is malformed: it needs an "endpoint" name and an "args" list, with values nested at most ${MAX_VALUE_DEPTH} deep`,
      };
    }
  }
  return { ok: true, session: file as Session };
}
