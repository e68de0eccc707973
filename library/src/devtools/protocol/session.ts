/**
 * Recorded sessions: the file the Recorder exports and `replaySession` replays (a session is
 * also a test fixture). The format is described once, below: its type, `checkSession`, and
 * `session.schema.json` beside this file (for other tools; `node scripts/session-schema.mjs`
 * writes it from `sessionJsonSchema`, and a test fails when the file is out of date).
 */

import {
  array,
  documented,
  type Infer,
  type JsonSchema,
  lenient,
  literal,
  object,
  optional,
  type Problem,
  problemText,
  string,
} from './check.js';
import { encoded, recordedMutation } from './messages.js';

/** The `format` field of every session file. */
export const SESSION_FORMAT = 'restlens-session';
/** The session format's version this library writes and reads. */
export const SESSION_VERSION = 1;

/**
 * A mutation as a session file keeps it: what replay needs, and the request it made, which the
 * Recorder shows beside it. Replay does not read them (the arguments make the request again), so
 * a file is not refused for them: the Recorder shows each only when it has its type.
 */
export type SessionMutation = Infer<typeof sessionMutation>;
const sessionMutation = object({
  ...recordedMutation.fields,
  method: optional(
    lenient(
      documented(
        string(),
        "The request's HTTP method, shown by the Recorder (replay does not read it)",
      ),
    ),
  ),
  url: optional(
    lenient(
      documented(string(), 'The URL requested, shown by the Recorder (replay does not read it)'),
    ),
  ),
  body: optional(
    lenient(
      documented(encoded, 'The request body, shown by the Recorder (replay sends the arguments)'),
    ),
  ),
});

/** A recorded session: the mutations the Recorder exported, in order. */
export type Session = Infer<typeof session>;
const session = object({
  format: literal(SESSION_FORMAT),
  version: literal(SESSION_VERSION),
  createdAt: optional(documented(string(), 'ISO date of the export')),
  source: optional(documented(string(), 'Where the session was recorded, e.g. the page URL')),
  mutations: array(sessionMutation),
});

/** The JSON Schema of session files (what `session.schema.json` holds). */
export function sessionJsonSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://restlens.dev/schemas/session-1.json',
    title: 'RestLens recorded session',
    description:
      'Mutations recorded by the RestLens panel, replayed by the panel or by replaySession().',
    ...session.jsonSchema(),
  };
}

/** What `checkSession` found: the session, or what is wrong with the file. */
export type SessionCheck = { ok: true; session: Session } | { ok: false; error: string };

/**
 * Checks a parsed session file and says exactly what is wrong with it: another format, a newer
 * version, or the first malformed part (of a mutation: its index, then the part).
 */
export function checkSession(value: unknown): SessionCheck {
  const problem = session.problem(value);
  return problem === undefined
    ? { ok: true, session: value as Session }
    : { ok: false, error: sessionProblemText(value, problem) };
}

/** A session file's problem in words, its kind first (not a session, a newer one, …). */
function sessionProblemText(value: unknown, { path, expected }: Problem): string {
  const [field, index, ...rest] = path;
  if (field === undefined || field === 'format')
    return `not a RestLens session: "format" must be "${SESSION_FORMAT}"`;
  if (field === 'version') {
    const { version } = value as { version: unknown };
    return Number.isInteger(version) && (version as number) > SESSION_VERSION
      ? `the session is version ${version}, made by a newer RestLens; this one reads version ${SESSION_VERSION}`
      : 'the session has no valid "version"';
  }
  if (field === 'mutations' && index === undefined) return 'the session has no "mutations" list';
  if (field === 'mutations')
    return `mutation ${index} is malformed: ${problemText({ path: rest, expected })}`;
  return `the session's ${problemText({ path, expected })}`;
}
