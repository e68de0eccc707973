import type { EndpointInterface } from '../endpoint/types.js';
import { describeValue } from '../schema/describe.js';

/**
 * The store key of `endpoint(...args)`. What is not an endpoint is refused by name: a misspelt
 * member (`TodoResource.getlist`) is undefined, which would otherwise fail as "reading 'key'".
 */
export function keyOf(
  caller: string,
  endpoint: Pick<EndpointInterface, 'key'>,
  args: readonly unknown[],
): string {
  if (typeof (endpoint as Partial<EndpointInterface> | undefined)?.key !== 'function') {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${caller}: the first argument must be an endpoint (such as TodoResource.get), not ${describeValue(endpoint)}`
        : `${caller}: not an endpoint`,
    );
  }
  return endpoint.key(...args);
}
