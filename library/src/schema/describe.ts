/** A short, readable rendering of a value for error messages. */
export function describeValue(value: unknown, maxLength = 200): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'string') text = JSON.stringify(value);
  // JSON would write NaN and Infinity as `null`, which is not what was given.
  else if (typeof value === 'number') text = String(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

/**
 * The error raised when a response does not fit its schema; `input` is the offending value. Its
 * `status` is 400, as data-client gives such processing errors, so code that reads
 * `error.status` (error boundaries, `errorPolicy`) treats it as a hard error.
 */
export class SchemaError extends Error {
  override name = 'SchemaError';
  readonly status = 400;
  constructor(
    message: string,
    readonly input: unknown,
  ) {
    super(message);
  }
}

/**
 * `target[key] = value` as an own data property, `__proto__` included: an assignment to
 * `__proto__` would set the prototype instead (and let a server's answer reach it).
 */
export function setOwn(target: object, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else (target as Record<string, unknown>)[key] = value;
}

/**
 * `target[key]` if it is the target's own member, otherwise undefined: a field named
 * `constructor` or `toString` that the data lacks is absent, not the prototype's.
 */
export function getOwn(target: object, key: string): unknown {
  return Object.hasOwn(target, key) ? (target as Record<string, unknown>)[key] : undefined;
}
