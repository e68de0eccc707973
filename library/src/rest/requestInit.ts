import type { RestEndpoint } from './RestEndpoint.js';

/**
 * The request settings of `endpoint.getRequestInit(body)`: the `requestInit` option, the method,
 * the body (JSON for plain objects, lists, numbers and booleans; FormData, Blob, text… as they
 * are) and the default headers under `requestInit.headers`.
 */
export function requestInitOf(
  endpoint: Pick<RestEndpoint, 'requestInit' | 'method' | 'signal'>,
  body: unknown,
): RequestInit {
  const base = endpoint.requestInit ?? {};
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body !== undefined) {
    if (isJsonBody(body)) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    } else payload = body as BodyInit;
  }
  // User headers replace the defaults whatever their case: `content-type` next to
  // `Content-Type` would make fetch join both values into one header.
  for (const [name, value] of headerEntries(base.headers)) {
    for (const existing of Object.keys(headers)) {
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    }
    headers[name] = value;
  }
  const signal = endpoint.signal ?? base.signal;
  return {
    ...base,
    method: endpoint.method,
    body: payload,
    headers,
    ...(signal ? { signal } : {}),
  };
}

function isJsonBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null)
    return typeof body === 'number' || typeof body === 'boolean';
  const proto = Object.getPrototypeOf(body);
  return Array.isArray(body) || proto === Object.prototype || proto === null;
}

/** The name/value pairs of any HeadersInit; plain objects keep the names' case. */
function headerEntries(headers: HeadersInit | undefined): [string, string][] {
  if (!headers) return [];
  if (headers instanceof Headers || Array.isArray(headers)) return [...new Headers(headers)];
  return Object.entries(headers);
}
