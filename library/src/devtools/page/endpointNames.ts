import { pathOf } from '../../endpoint/pathOf.js';
import type { EndpointInterface } from '../../endpoint/types.js';
import type { Controller } from '../../store/Controller.js';

/** What a name finds: the endpoint, or why none. */
export type Found = { endpoint: EndpointInterface } | { problem: string };

/**
 * The names a store's endpoints are recorded and replayed by. An endpoint is recorded by its name
 * (`Todo.update`) unless another endpoint of that name goes to another path (see pathOf), defined
 * by createResource or run in this store: then by its name and path
 * (`Todo.update@/todos-summary/:id`), so that its replay reaches the path it was recorded at. A
 * replay finds a name and path at that path, and a bare name when the endpoints it names all go
 * to one path; a bare name shared by several paths is refused, naming them.
 */
export class EndpointNames {
  constructor(private readonly controller: Controller) {}

  /** The name `endpoint` is recorded by. */
  nameOf(endpoint: EndpointInterface): string {
    const path = pathOf(endpoint);
    if (path === '') return endpoint.name;
    const shared = this.controller.endpoints?.nameGoesElsewhere(endpoint.name, path) ?? false;
    return shared ? `${endpoint.name}@${path}` : endpoint.name;
  }

  /** The endpoint a recorded name stands for (see the class). */
  find(name: string): Found {
    const named = this.known(name);
    if (named.length === 1) return { endpoint: named[0] as EndpointInterface };
    if (named.length > 1) {
      const choices = named.map((endpoint) => `"${this.nameOf(endpoint)}"`).join(', ');
      return {
        problem: `"${name}" names ${named.length} endpoints, at different paths: ${choices}; name the one meant in the session`,
      };
    }
    // A name and a path: the name may hold an `@` itself, so each one is tried.
    for (let at = name.indexOf('@'); at !== -1; at = name.indexOf('@', at + 1)) {
      const path = name.slice(at + 1);
      const endpoint = this.known(name.slice(0, at)).find((known) => pathOf(known) === path);
      if (endpoint) return { endpoint };
    }
    return {
      problem: `unknown endpoint "${name}": no endpoint of its resource ran in this store, and it was not given to createStore({ resources })`,
    };
  }

  private known(name: string): readonly EndpointInterface[] {
    return this.controller.endpoints?.named(name) ?? [];
  }
}
