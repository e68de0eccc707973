/**
 * A body's fields as a plain object when it is a FormData (its last value per name), anything
 * else as it is: what the store keeps of a call's arguments, so that a form's fields choose the
 * collections a push adds to, and show in an optimistic response, as a plain body's would.
 */
export function plainBody(body: unknown): unknown {
  return typeof FormData !== 'undefined' && body instanceof FormData
    ? Object.fromEntries(body.entries())
    : body;
}
