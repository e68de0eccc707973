import type { ErrorPolicy, SnapshotInterface } from '../endpoint/types.js';
import type { Collection, CollectionAdder } from '../schema/Collection.js';
import type { Denormalize, Schema } from '../schema/denormalizeTypes.js';
import type { PathArgs, PathParamValue } from './pathTypes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Options every endpoint of a resource may share (`createResource` passes them to each member). */
export interface EndpointExtraOptions {
  /** How long a result stays fresh, in ms. */
  dataExpiryLength?: number;
  /** How long an error is kept before a retry, in ms. */
  errorExpiryLength?: number;
  /** Refetch interval while a component reads the result, in ms. */
  pollFrequency?: number;
  /** Stale data must be refetched before it is shown. */
  invalidIfStale?: boolean;
  errorPolicy?: (error: unknown) => ErrorPolicy;
}

/** What a RestEndpoint is made from; its literal types drive the generative types. */
export interface RestEndpointOptions extends EndpointExtraOptions {
  /** Path template: `:name` required, `:name?` optional, `\\?` literal query text. */
  path: string;
  schema?: Schema | undefined;
  method?: HttpMethod;
  /** Type of the request body (the value itself is not used). */
  body?: unknown;
  /** Type of the query parameters (the value itself is not used). */
  searchParams?: unknown;
  /** The query parameter `getPage` advances; `getPage` exists only when it is given. */
  paginationField?: string;
  /** Prepended to the path, e.g. `https://api.example.com`. */
  urlPrefix?: string;
  /** Merged into every request (headers merge under the defaults). */
  requestInit?: RequestInit;
  name?: string;
  sideEffect?: true | undefined;
  process?(value: any, ...args: any[]): any;
  getRequestInit?(body?: unknown): Promise<RequestInit> | RequestInit;
  getHeaders?(headers: HeadersInit): Promise<HeadersInit> | HeadersInit;
  /** Aborts the requests of this endpoint. */
  signal?: AbortSignal;
  key?(...args: any[]): string;
  getOptimisticResponse?(snapshot: SnapshotInterface, ...args: any[]): unknown;
}

type PathOf<O> = O extends { path: infer P extends string } ? P : string;
type SearchOf<O> = O extends { searchParams: infer S }
  ? unknown extends S
    ? {}
    : S extends undefined
      ? {}
      : S
  : {};
type MethodOf<O> = O extends { method: infer M extends HttpMethod }
  ? M
  : O extends { sideEffect: true }
    ? 'POST'
    : 'GET';

/** URL parameters and query parameters, as one object. */
export type RestParams<O> = PathArgs<PathOf<O>> & SearchOf<O>;
/** The request body: the `body` option's type, or any JSON value when none is declared. */
export type RestBody<O> = O extends { body: infer B } ? (unknown extends B ? unknown : B) : unknown;
export type RestHasBody<O> =
  MethodOf<O> extends 'GET' | 'DELETE' ? false : O extends { body: undefined } ? false : true;

type ParamsOnly<P> = {} extends P ? [params?: P] : [params: P];
type ParamsAndBody<P, B> = {} extends P ? [body: B] | [params: P, body: B] : [params: P, body: B];

/** The call's arguments: `(params)` or `(params, body)`, each typed from the options. */
export type RestArgs<O> =
  RestHasBody<O> extends true
    ? ParamsAndBody<RestParams<O>, RestBody<O>>
    : ParamsOnly<RestParams<O>>;

/** What a call resolves to: the schema's reading (entity instances), or the parsed JSON. */
export type RestResult<O> = O extends { schema: infer S }
  ? S extends undefined | null
    ? unknown
    : Denormalize<S>
  : unknown;

/** Options whose keys are replaced by `E`'s. */
export type Extend<O, E> = Omit<O, keyof E> & E;

/**
 * `T` as RestEndpoint options, keeping a declared schema `S` as it is: `T & RestEndpointOptions`
 * would make it `S & Schema`, which reads back as `unknown` (e.g. an object schema
 * `{ results: Collection, total }` added with `extend`, or its `getPage`).
 */
export type AsRestOptions<T> = T extends infer X extends RestEndpointOptions
  ? X
  : T & RestEndpointOptions;

/** `Extend<O, E>` as RestEndpoint options: what `endpoint.extend(E)` is made of. */
export type ExtendOptions<O, E> = AsRestOptions<Extend<O, E>>;

type AdderOf<S, Shape extends 'single' | 'list'> =
  S extends Collection<infer M>
    ? CollectionAdder<M, Shape>
    : S extends Record<string, unknown>
      ? { [K in keyof S]: AdderOf<S[K], Shape> }[keyof S]
      : never;

/** The options of `getList.push` / `.unshift`: POST to the list, the created entity back. */
export type PushOptions<O> = Extend<
  O,
  { method: 'POST'; schema: AdderOf<O extends { schema: infer S } ? S : never, 'single'> }
>;

/**
 * The options of `getList.getPage`: the pagination field becomes a required argument.
 * Without declared `searchParams` the list accepts any query, so its pages do too (beside the
 * required pagination field).
 */
export type PageOptions<O> = O extends { paginationField: infer F extends string }
  ? Extend<
      O,
      {
        searchParams: DeclaredSearch<O> & { [K in F]: PathParamValue };
      }
    >
  : never;

/** The declared query type, or any query when none was declared. */
type DeclaredSearch<O> = O extends { searchParams: infer S }
  ? unknown extends S
    ? Record<string, unknown>
    : S extends undefined
      ? Record<string, unknown>
      : S
  : Record<string, unknown>;
