// What `RestEndpoint.getRequestInit` builds the request settings from: the body and the headers.

/** Whether a body is sent as JSON: plain objects, lists, numbers and booleans. */
export function isJsonBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null)
    return typeof body === 'number' || typeof body === 'boolean';
  const proto = Object.getPrototypeOf(body);
  return Array.isArray(body) || proto === Object.prototype || proto === null;
}

/** The name/value pairs of any HeadersInit; plain objects keep the names' case. */
export function headerEntries(headers: HeadersInit | undefined): [string, string][] {
  if (!headers) return [];
  if (headers instanceof Headers || Array.isArray(headers)) return [...new Headers(headers)];
  return Object.entries(headers);
}
