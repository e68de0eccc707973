import { pathOf } from './pathOf.js';
import type { EndpointInterface } from './types.js';

/** Endpoints by name, then path (see pathOf): the latest of each. */
class EndpointsByName {
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

  /** Whether an endpoint of this name goes to another path than `path`. */
  goesElsewhere(name: string, path: string): boolean {
    for (const other of this.byName.get(name)?.keys() ?? []) if (other !== path) return true;
    return false;
  }
}

/** The property under which each endpoint of a resource holds the list of them all. */
const RESOURCE = Symbol('restlens.resource');

type InResource = EndpointInterface & { readonly [RESOURCE]?: readonly EndpointInterface[] };

/**
 * Gives each of a resource's endpoints the list of them all (createResource calls it): a store
 * that runs one of them knows the others by name, for a replay of a mutation recorded elsewhere.
 * The list is data on the resource's own objects, shared by no store until one runs it.
 */
export function linkResource(endpoints: readonly EndpointInterface[]): void {
  // An endpoint that `extend` kept for another resource stays linked to the first one's too.
  const all = Object.freeze([...new Set([...endpoints, ...endpoints.flatMap(resourceOf)])]);
  for (const endpoint of endpoints)
    Object.defineProperty(endpoint, RESOURCE, { value: all, configurable: true });
}

/** The endpoints of the resource `endpoint` belongs to (see linkResource); empty for others. */
export function resourceOf(endpoint: EndpointInterface): readonly EndpointInterface[] {
  return (endpoint as InResource)[RESOURCE] ?? [];
}

function isEndpoint(value: unknown): value is EndpointInterface {
  return (
    typeof value === 'function' &&
    typeof (value as Partial<EndpointInterface>).key === 'function' &&
    typeof value.name === 'string'
  );
}

/**
 * The endpoints one store knows by name, so that a recorded mutation ("Todo.getList.push") can
 * run in it: those that ran in it, the other endpoints of their resources, and the resources the
 * app gave the store (`createStore({ resources })`). Each store has its own: two stores share
 * only the resources given to both.
 */
export class EndpointRegistry {
  /** The endpoints that ran in the store, the latest of each name and path. */
  private readonly ran = new EndpointsByName();
  /** The endpoints of the resources the store knows, as they were defined. */
  private readonly defined = new EndpointsByName();
  /** The resources whose endpoints `defined` holds. */
  private readonly resources = new WeakSet<readonly EndpointInterface[]>();

  /** Notes an endpoint that ran in the store (a replay runs it rather than its definition). */
  noteRan(endpoint: EndpointInterface): void {
    this.ran.add(endpoint);
    this.addResource(resourceOf(endpoint));
  }

  /**
   * Adds the endpoints of `resource`: a resource (an object of endpoints, as createResource
   * builds it) or one endpoint. Throws, naming `what`, when it holds no endpoint.
   */
  add(resource: object, what: string): void {
    const endpoints = isEndpoint(resource)
      ? [resource]
      : Object.values(resource).filter((value) => isEndpoint(value));
    if (endpoints.length === 0) {
      throw new TypeError(`${what} is neither a resource nor an endpoint: it holds no endpoint`);
    }
    for (const endpoint of endpoints) {
      const linked = resourceOf(endpoint);
      if (linked.length > 0) this.addResource(linked);
      else this.defined.add(endpoint);
    }
  }

  /** The endpoints of this name, one per path: the one that ran last, else its definition. */
  named(name: string): EndpointInterface[] {
    const ran = this.ran.named(name);
    const paths = new Set(ran.map(pathOf));
    return [...ran, ...this.defined.named(name).filter((endpoint) => !paths.has(pathOf(endpoint)))];
  }

  /**
   * Whether an endpoint of this name, among those `named` gives, goes to another path than
   * `path` (asked for every event a store records, so it builds no list).
   */
  nameGoesElsewhere(name: string, path: string): boolean {
    return this.ran.goesElsewhere(name, path) || this.defined.goesElsewhere(name, path);
  }

  private addResource(endpoints: readonly EndpointInterface[]): void {
    if (endpoints.length === 0 || this.resources.has(endpoints)) return;
    this.resources.add(endpoints);
    for (const endpoint of endpoints) this.defined.add(endpoint);
  }
}
