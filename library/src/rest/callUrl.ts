import { describeValue, getOwn } from '../schema/describe.js';
import { jsonForm, NoJsonForm } from '../schema/jsonForm.js';
import { compilePath, pathValueProblem } from './paths.js';
import type { RestEndpoint } from './RestEndpoint.js';

/** A call's arguments as URL parameters and body. */
export interface SplitCall {
  params: Record<string, unknown>;
  body: unknown;
  /** The call's only argument was read as the body (`update({ id: 1 })`). */
  bodyOnly: boolean;
}

/** Splits call arguments: `(params, body)`, or `(body)` alone for body-taking endpoints. */
export function splitArgs(endpoint: RestEndpoint, args: readonly unknown[]): SplitCall {
  const hasBody = endpoint.hasBody;
  if (hasBody && args.length < 2) return { params: {}, body: args[0], bodyOnly: true };
  return {
    params: (args[0] ?? {}) as Record<string, unknown>,
    body: hasBody ? args[args.length - 1] : undefined,
    bodyOnly: false,
  };
}

/** The URL a call requests: `endpoint.url()` of its URL parameters. */
export function callUrl(endpoint: RestEndpoint, { params, bodyOnly }: SplitCall): string {
  // `update({ id: 1 })` reads its one argument as the body: say so where it matters.
  if (bodyOnly) checkRequired(endpoint, params, true);
  return endpoint.url(params as never);
}

/**
 * Refuses parameters that lack one the path cannot be built without, naming each;
 * `bodyOnly` when the call's only argument was read as the body.
 */
export function checkRequired(
  endpoint: RestEndpoint,
  params: Record<string, unknown>,
  bodyOnly: boolean,
): void {
  const missing = compilePath(endpoint.path).required.filter((name) => {
    const value = getOwn(params, name);
    return value === undefined || value === null;
  });
  if (missing.length === 0) return;
  const names = missing.map((name) => `"${name}"`).join(', ');
  throw new TypeError(
    process.env.NODE_ENV !== 'production'
      ? `${endpoint.name}: missing URL parameter ${names} for path "${endpoint.path}"${bodyOnly ? ' (one argument is the body: pass the URL parameters first)' : ''}`
      : `${endpoint.name}: missing URL parameter ${names}`,
  );
}

/** A path parameter's value as the text the path holds; refused, by name, when it cannot be. */
export function pathValue(
  owner: string,
  name: string,
  value: unknown,
  isRequired: boolean,
): string {
  // The text JSON gives a scalar, as in the query: a Date as ISO 8601, a bigint as its digits.
  const text = jsonForm(value);
  const refused = (problem: string) =>
    new TypeError(`${owner}: the URL parameter "${name}" ${problem}`);
  if (typeof text === 'string') {
    const problem = pathValueProblem(text, isRequired);
    if (problem === undefined) return text;
    throw refused(problem);
  }
  if (text instanceof NoJsonForm) throw refused(text.why);
  throw refused(
    process.env.NODE_ENV !== 'production'
      ? `must be a string or a number, not ${describeValue(text)}`
      : 'is an object',
  );
}
