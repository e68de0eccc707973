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
