import { schemaOf } from '../normalize/schemaOf.js';
import { Invalidate } from '../schema/Invalidate.js';
import { NetworkError } from './NetworkError.js';
import type { RestEndpoint } from './RestEndpoint.js';

/**
 * Sends the request of `endpoint.fetchResponse`; HTTP errors and network failures reject with a
 * NetworkError.
 */
export async function sendRequest(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (cause) {
    rethrowAbort(cause, init.signal);
    throw new NetworkError(
      `${init.method} ${clip(url)}: no response (${(cause as Error).message})`,
      undefined,
      { status: 0, cause },
    );
  }
  if (!response.ok) {
    const body = await errorBody(response);
    // The server's own words (`{"error":"no todo 9"}`) say more than its status line.
    const said = body === undefined ? '' : `: ${quoteErrorBody(body)}`;
    throw new NetworkError(
      `${init.method} ${clip(url)}: ${`${response.status} ${response.statusText}`.trim()}${said}`,
      response,
      { body },
    );
  }
  return response;
}

/**
 * The body of `endpoint.parseResponse`: JSON as parsed (also when the content type omits "json"
 * but the schema needs data); 204 or an empty body is `null`; text where the schema needs no
 * data or `ownProcess` (the endpoint overrides `process`, which may read text into it).
 */
export async function responseBody(
  endpoint: Pick<RestEndpoint, 'name' | 'schema' | 'signal'>,
  response: Response,
  ownProcess: boolean,
): Promise<unknown> {
  if (response.status === 204) return null;
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    // Aborted while the body arrived: the abort, as before the headers.
    rethrowAbort(cause, endpoint.signal);
    // The connection broke while the body arrived (e.g. shorter than its Content-Length).
    throw new NetworkError(
      `${endpoint.name}: the response from ${clip(response.url)} broke off (${(cause as Error).message})`,
      response,
      { status: 0, cause },
    );
  }
  if (text === '') return null;
  // Media types are case-insensitive: `Application/JSON` is JSON too.
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  const json = type.includes('json');
  // Where nothing needs data, text the server labels as text (`123` as text/plain) stays text.
  if (!json && type !== '' && !needsData(endpoint.schema)) return text;
  try {
    return JSON.parse(text);
  } catch {
    // An own `process` may read text into what the schema needs (data-client's rule).
    if (!json && (!needsData(endpoint.schema) || ownProcess)) return text;
    throw new NetworkError(
      `${endpoint.name}: expected JSON from ${clip(response.url)} but received ${type || 'no content type'}: ${text.slice(0, 80)}`,
      response,
      { status: 400 },
    );
  }
}

/** Whether a schema needs structured data (a text body cannot fill it); Invalidate takes a pk. */
function needsData(schema: unknown): boolean {
  if (schema === undefined || schema === null || schema instanceof Invalidate) return false;
  if (Array.isArray(schema)) return needsData(schema[0]);
  return schemaOf(schema) !== undefined;
}

/**
 * Throws the abort when a request failed because it was aborted, rather than a NetworkError, as
 * in data-client: callers tell a cancelled request from a failed one by it, and the store keeps no
 * error for it. It is the signal's reason (an AbortError unless `abort(reason)` gave another),
 * before the headers and while the body arrives alike, as the fetch standard has it (Node's fetch
 * makes an AbortError of its own when the body is read only after the abort).
 */
function rethrowAbort(cause: unknown, signal: AbortSignal | null | undefined): void {
  if (signal?.aborted) throw signal.reason;
  if ((cause as Error | null)?.name === 'AbortError') throw cause;
}

/** The longest text (an error body, a URL) a NetworkError's message quotes. */
const QUOTED_LENGTH = 500;

/**
 * Text for a message, cut after QUOTED_LENGTH characters: a megabyte body or URL would flood
 * every log and the devtools that show the error (the whole body stays on `error.body`).
 */
function clip(text: string): string {
  return text.length > QUOTED_LENGTH ? `${text.slice(0, QUOTED_LENGTH)}…` : text;
}

/** An error body as text for a message: as sent, clipped. */
function quoteErrorBody(body: unknown): string {
  return clip(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * The body of an HTTP error response, parsed when it is JSON (undefined when empty or
 * unreadable). Read from a clone: the response stays readable for whoever catches the error.
 */
async function errorBody(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.clone().text();
  } catch {
    return undefined;
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return clip(text);
  }
}
