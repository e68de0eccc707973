import type { EndpointInterface } from './types.js';

/**
 * Endpoints by name, so that a recorded mutation ("Todo.getList.push") can be run again.
 * createResource registers its members; the devtools register every endpoint they see run.
 */
const endpoints = new Map<string, EndpointInterface>();

export function registerEndpoint(endpoint: EndpointInterface): void {
  endpoints.set(endpoint.name, endpoint);
}

export function findEndpoint(name: string): EndpointInterface | undefined {
  return endpoints.get(name);
}
