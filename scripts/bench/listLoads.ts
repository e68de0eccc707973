/**
 * List loads: what users call to load a list, a `createResource`'s `getList`, with lists of 100 to
 * 100k todos. Each size is loaded two ways, `controller.setResponse` of a parsed response and
 * `controller.fetch` through a stubbed `globalThis.fetch`, each into an empty store and as a
 * refetch (a store that holds the same list gets it again, freshly parsed).
 */
import type { BenchStore, Contender, StoreState } from './contenders/types.js';
import { makeTodos, type TodoData } from './data.js';
import type { SamplerOptions } from './sampler.js';
import { freshStores, longOperationSampling, todoView, type Workload } from './workloads.js';

const LIST_LOAD_SIZES = [100, 1000, 10_000, 100_000] as const;

/** Names start with this, so that `npm run bench -- "list load"` selects them all. */
export const LIST_LOAD_PREFIX = 'list load';

/** The list a server sends for `size` todos, as JSON text: made once per size and kept. */
const responseTexts = new Map<number, string>();
function responseText(size: number): string {
  let text = responseTexts.get(size);
  if (text === undefined) {
    text = JSON.stringify(makeTodos(size));
    responseTexts.set(size, text);
  }
  return text;
}

/**
 * Prepares (untimed) what `stores` need to load the list of `text`, one store per operation, and
 * returns the timed call that loads it into each.
 */
type Load = (stores: readonly BenchStore[], text: string) => () => void | Promise<void>;

/** Each store gets its own `JSON.parse` of the response, as an app has it when it arrives. */
const bySetResponse: Load = (stores, text) => {
  const responses = stores.map(() => JSON.parse(text) as TodoData[]);
  return () => {
    for (const [index, store] of stores.entries()) {
      store.setResourceList(responses[index] as TodoData[]);
    }
  };
};

/** Each store fetches the list in turn; the stubbed `fetch` answers each with its own Response. */
const byFetch: Load = (stores, text) => {
  const server = jsonServer(text, stores.length);
  return () =>
    server.answering(async () => {
      for (const store of stores) await store.fetchResourceList();
    });
};

/**
 * Stands in for the network: `answering(run)` replaces `globalThis.fetch` while `run` runs, with
 * one that resolves the next of `count` Responses of `text` (made here, untimed: the browser makes
 * them, not the library), and restores the real one after. Both libraries then run their whole
 * request path: URL, request init, `response.json()` or `text()`, normalize, store. `requests`
 * lists what was asked (`METHOD url`), so that both libraries can be seen to ask the same.
 */
function jsonServer(text: string, count: number) {
  const responses = Array.from(
    { length: count },
    () => new Response(text, { headers: { 'content-type': 'application/json' } }),
  );
  const requests: string[] = [];
  const answer = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = responses[requests.length];
    requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
    if (!response) return Promise.reject(new Error(`more than ${count} requests`));
    return Promise.resolve(response);
  };
  return {
    requests,
    async answering<T>(run: () => Promise<T>): Promise<T> {
      const realFetch = globalThis.fetch;
      globalThis.fetch = answer as typeof fetch;
      try {
        return await run();
      } finally {
        globalThis.fetch = realFetch;
      }
    },
  };
}

/** The state of a store that already holds the list of `text`: where a refetch lands. */
function holding(contender: Contender, text: string): StoreState {
  const [store] = freshStores(contender, 1) as [BenchStore];
  store.setResourceList(JSON.parse(text) as TodoData[]);
  return store.state();
}

/** The list as a component reads it back: every todo's id in order, its fields and author. */
function listAsRead(store: BenchStore) {
  return store.readResourceList()?.map(todoView);
}

/**
 * An operation at 100k takes seconds (see longOperationSampling). The smaller sizes take half the
 * suite's warm-up and budget, so that the 16 list loads add about as much time as the other core
 * workloads.
 */
function listLoadSampling(size: number) {
  if (size >= 100_000) return longOperationSampling;
  return (suite: SamplerOptions): SamplerOptions => ({
    ...suite,
    warmupMs: suite.warmupMs / 2,
    budgetMs: suite.budgetMs / 2,
  });
}

function sizeLabel(size: number): string {
  return size < 1000 ? `${size}` : `${size / 1000}k`;
}

function listLoad(
  size: number,
  how: 'setResponse' | 'fetch',
  into: 'empty store' | 'refetch',
): Workload {
  const load = how === 'setResponse' ? bySetResponse : byFetch;
  return {
    name: `${LIST_LOAD_PREFIX} ${sizeLabel(size)} todos: ${how}, ${into}`,
    sampling: listLoadSampling(size),
    setup(contender) {
      const text = responseText(size);
      const seed = into === 'refetch' ? holding(contender, text) : undefined;
      return {
        prepare: (batch) => load(freshStores(contender, batch, seed), text),
        fingerprint: () =>
          how === 'fetch' ? fetchedOnce(contender, text, seed) : setOnce(contender, text, seed),
      };
    },
  };
}

function setOnce(contender: Contender, text: string, seed: StoreState | undefined) {
  const [store] = freshStores(contender, 1, seed) as [BenchStore];
  bySetResponse([store], text)();
  return { list: listAsRead(store) };
}

/** Besides the list: what was requested, and what `controller.fetch` resolved to. */
async function fetchedOnce(contender: Contender, text: string, seed: StoreState | undefined) {
  const [store] = freshStores(contender, 1, seed) as [BenchStore];
  const server = jsonServer(text, 1);
  const resolved = await server.answering(() => store.fetchResourceList());
  return {
    requests: server.requests,
    resolved: Array.isArray(resolved) ? resolved.map(todoView) : resolved,
    list: listAsRead(store),
  };
}

export const listLoadWorkloads: readonly Workload[] = LIST_LOAD_SIZES.flatMap((size) => [
  listLoad(size, 'setResponse', 'empty store'),
  listLoad(size, 'setResponse', 'refetch'),
  listLoad(size, 'fetch', 'empty store'),
  listLoad(size, 'fetch', 'refetch'),
]);
