import type { EndpointInterface } from './types.js';

/**
 * Where an endpoint goes, as far as its name leaves it open: a REST endpoint's path ('' for any
 * other endpoint). Endpoints of one name and one path are one endpoint, whose latest version
 * counts (defined again by a hot reload, or made by a hook with other headers); endpoints of one
 * name and two paths are two (a summary entity that shares `static key` with the full one gives
 * both resources a `Todo.update`).
 */
export function pathOf(endpoint: EndpointInterface): string {
  const path = (endpoint as { path?: unknown }).path;
  return typeof path === 'string' ? path : '';
}

/** Endpoints by name, then path (see pathOf): the latest of each. */
export class EndpointsByName {
  private readonly byName = new Map<string, Map<string, EndpointInterface>>();

  add(endpoint: EndpointInterface): void {
    let byPath = this.byName.get(endpoint.name);
    if (!byPath) {
      byPath = new Map();
      this.byName.set(endpoint.name, byPath);
    }
    byPath.set(pathOf(endpoint), endpoint);
  }

  /** The endpoints of this name, one per path. */
  named(name: string): readonly EndpointInterface[] {
    const byPath = this.byName.get(name);
    return byPath ? [...byPath.values()] : [];
  }
}

/**
 * The endpoints createResource defined, so that a recorded mutation ("Todo.getList.push") can run
 * in a store it never ran in (a page just loaded, a test replaying a session). Kept in the module,
 * as the resources themselves are: they are code, the same for every store. What ran in a store
 * is the store's own (see the devtools' EndpointNames).
 */
const defined = new EndpointsByName();

export function registerEndpoint(endpoint: EndpointInterface): void {
  defined.add(endpoint);
}

/** The endpoints defined under this name, one per path. */
export function definedEndpoints(name: string): readonly EndpointInterface[] {
  return defined.named(name);
}
