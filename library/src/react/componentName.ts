import * as React from 'react';

/** The parts of React's internals that say which component is rendering (development builds). */
interface ReactInternals {
  /** React 19. */
  __CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE?: {
    A?: { getOwner?: () => Owner | null } | null;
  };
  /** React 18. */
  __SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED?: {
    ReactCurrentOwner?: { current: Owner | null };
  };
}

interface Owner {
  type?: unknown;
}

/** A component type's name: a function's, or that of what `memo` / `forwardRef` wrap. */
function nameOf(type: unknown, depth = 0): string | undefined {
  if (typeof type === 'function') {
    const named = type as { displayName?: unknown; name?: unknown };
    const name = named.displayName ?? named.name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  }
  if (typeof type !== 'object' || type === null || depth > 2) return undefined;
  const wrapper = type as { displayName?: unknown; render?: unknown; type?: unknown };
  if (typeof wrapper.displayName === 'string') return wrapper.displayName;
  return nameOf(wrapper.render ?? wrapper.type, depth + 1);
}

/**
 * The display name of the component rendering now, as React's development build knows it (its
 * owner); undefined outside a render, in production builds, or under another renderer (preact).
 */
export function renderingComponent(): string | undefined {
  const internals = React as unknown as ReactInternals;
  try {
    const owner =
      internals.__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE?.A?.getOwner?.() ??
      internals.__SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED?.ReactCurrentOwner?.current;
    return nameOf(owner?.type);
  } catch {
    // Internals are not an API: a React that changed them gives no name, never an error.
    return undefined;
  }
}
