import { describeValue } from '../schema/describe.js';
import type { RestEndpoint } from './RestEndpoint.js';

/** Request settings a hook adds to every request, e.g. `{ headers: { 'access-token': token } }`. */
export type RequestInitHook = () => RequestInit;

type EndpointMembers<R> = {
  [K in keyof R as R[K] extends RestEndpoint<any> ? K : never]: R[K];
};

/** `useGet`, `useGetList`, `useUpdate`, …: one hook per endpoint member. */
export type HookifiedResource<R> = {
  [K in keyof EndpointMembers<R> as `use${Capitalize<K & string>}`]: () => EndpointMembers<R>[K];
};
/** The name data-client 0.9 gives the type `hookifyResource` returns. */
export type HookResource<R> = HookifiedResource<R>;

/**
 * Turns a resource into hooks that return its endpoints with `useInit()`'s request settings
 * merged into every request. Keys are unchanged, so the cache is shared with the plain members;
 * `useGetList().push`, `.unshift` and `.getPage` carry the settings too.
 */
export function hookifyResource<R extends object>(
  resource: R,
  useInit?: RequestInitHook,
): HookifiedResource<R> {
  // Refused here, where the mistake is made, rather than as a TypeError inside a render.
  if (typeof resource !== 'object' || resource === null) {
    throw new TypeError(
      `hookifyResource takes a resource (what createResource returns), not ${describeValue(resource)}`,
    );
  }
  if (useInit !== undefined && typeof useInit !== 'function') {
    throw new TypeError(
      `hookifyResource: useInit must be a hook returning request settings, not ${describeValue(useInit)}`,
    );
  }
  const hooks: Record<string, () => unknown> = {};
  for (const [name, member] of Object.entries(resource)) {
    if (!isEndpoint(member)) continue;
    hooks[`use${name[0]?.toUpperCase()}${name.slice(1)}`] = () => {
      const init = useInit?.();
      if (!init) return member;
      return member.extend({ requestInit: mergeRequestInit(member.requestInit, init) });
    };
  }
  return hooks as HookifiedResource<R>;
}

function isEndpoint(value: unknown): value is RestEndpoint {
  return typeof value === 'function' && typeof (value as RestEndpoint).extend === 'function';
}

function mergeRequestInit(base: RequestInit | undefined, extra: RequestInit): RequestInit {
  return {
    ...base,
    ...extra,
    headers: {
      ...Object.fromEntries(new Headers(base?.headers)),
      ...Object.fromEntries(new Headers(extra.headers)),
    },
  };
}
