import type { ErrorPolicy, SnapshotInterface } from '../endpoint/types.js';
import type { Collection, CollectionAdder } from '../schema/Collection.js';
import type { Denormalize, Schema, Widen } from '../schema/denormalizeTypes.js';
import type { PathArgs, PathParamValue } from './pathTypes.js';
import type { RestEndpoint } from './RestEndpoint.js';

// These declarations are published: they keep to the syntax of TypeScript 4.3 (the build
// strips the `const` type-parameter modifiers for compilers older than 5.0).

/** The HTTP methods an endpoint may use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Options every endpoint of a resource may share (`createResource` passes them to each member). */
export interface EndpointExtraOptions {
  /** How long a result stays fresh, in ms. */
  dataExpiryLength?: number;
  /** How long an error is kept before a retry, in ms. */
  errorExpiryLength?: number;
  /** While subscribed (`useLive`, `useSubscription`), the result is fetched again this often, in ms. */
  pollFrequency?: number;
  /** Stale data must be refetched before it is shown. */
  invalidIfStale?: boolean;
  errorPolicy?: (error: any) => ErrorPolicy;
}

/**
 * The options that type an endpoint: its arguments come from `path`, `searchParams` and `body`,
 * its result from `schema` (or `process`). A custom endpoint class takes them as its type
 * parameter: `class MyEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {…}`.
 */
export interface RestGenerics {
  /** Path template: `:name` required, `:name?` optional, `\\?` literal query text. */
  readonly path: string;
  readonly schema?: Schema | undefined;
  readonly method?: string;
  /** Type of the request body (the value itself is not used). */
  body?: any;
  /** Type of the query parameters (the value itself is not used). */
  searchParams?: any;
  /** The query parameter `getPage` advances; `getPage` exists only when it is given. */
  readonly paginationField?: string;
  /** Turns the parsed response into the result; its return type is the call's result type. */
  process?(value: any, ...args: any): any;
}

/** What a RestEndpoint is made from: the typing options and the rest. */
export interface RestEndpointOptions extends EndpointExtraOptions, RestGenerics {
  method?: HttpMethod;
  /** Prepended to the path, e.g. `https://api.example.com`. */
  urlPrefix?: string;
  /** Merged into every request (headers merge under the defaults). */
  requestInit?: RequestInit;
  name?: string;
  sideEffect?: true | undefined;
  process?(value: any, ...args: any[]): any;
  getRequestInit?(body?: any): Promise<RequestInit> | RequestInit;
  getHeaders?(headers: HeadersInit): Promise<HeadersInit> | HeadersInit;
  /** Aborts the requests of this endpoint. */
  signal?: AbortSignal;
  key?(...args: any): string;
  getOptimisticResponse?(snapshot: SnapshotInterface, ...args: any): unknown;
}

type IsAny<T> = 0 extends 1 & T ? true : false;

/** An option's type, or `undefined` when it was not given. */
type OptionOf<O, K extends keyof RestGenerics> = K extends keyof O ? O[K] : undefined;

type IsReadonly<T, K extends keyof T> =
  (<U>() => U extends { [P in K]: T[K] } ? 1 : 2) extends <U>() => U extends {
    -readonly [P in K]: T[K];
  }
    ? 1
    : 2
    ? false
    : true;

/**
 * The type a `body` or `searchParams` option stands for. Given as a value (`body: { name: '' }`,
 * as data-client's docs write it), `const` inference reads it as `{ readonly name: '' }`: its
 * readonly members are widened back to `{ name: string }`, as data-client types them. A declared
 * type (`{} as TodoBody`) is kept as it is.
 */
type OptionType<T> = T extends readonly unknown[] | ((...args: any) => any)
  ? T
  : T extends object
    ? { [K in keyof T]: IsReadonly<T, K> extends true ? Widen<T[K]> : T[K] }
    : T;
/** The `body` or `searchParams` option's type (see OptionType). */
type TypeOption<O, K extends 'body' | 'searchParams'> = OptionType<OptionOf<O, K>>;

/** Whether a type option (`body`, `searchParams`) describes something: not absent, `any`, `unknown` or `undefined`. */
type IsDeclared<T> =
  IsAny<T> extends true
    ? false
    : unknown extends T
      ? false
      : [T] extends [undefined]
        ? false
        : true;

/** The path template of a set of endpoint options (`string` when it is not a literal). */
export type PathOf<O> =
  OptionOf<O, 'path'> extends infer P ? (P extends string ? P : string) : string;
/** The schema of a set of endpoint options (`undefined` when there is none). */
export type SchemaOf<O> =
  OptionOf<O, 'schema'> extends infer S ? (S extends Schema ? S : undefined) : undefined;
/** The HTTP method of a set of endpoint options, from `method` or `sideEffect`. */
export type MethodOf<O> =
  OptionOf<O, 'method'> extends infer M
    ? M extends string
      ? M
      : O extends { readonly sideEffect: true }
        ? 'POST'
        : 'GET'
    : 'GET';
/** `undefined` for reads (GET), `true` for mutations, unless `sideEffect` says otherwise. */
export type SideEffectOf<O> = O extends { readonly sideEffect: infer E }
  ? Extract<E, true | undefined>
  : MethodOf<O> extends 'GET'
    ? undefined
    : true;

/** A query value; `undefined` ones are left out of the URL and the cache key. */
export type SearchValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly SearchValue[]
  | { readonly [key: string]: SearchValue };
/** The query of a list whose `searchParams` were not declared: any keys, simple values. */
export type AnyQuery = Record<string, SearchValue>;
/**
 * URL parameters and query parameters, as one object: the path's parameters and the declared
 * `searchParams`. Without declared `searchParams`, a path with parameters takes only those, and
 * a path without any takes any query.
 */
export type RestParams<O> =
  IsDeclared<OptionOf<O, 'searchParams'>> extends true
    ? PathArgs<PathOf<O>> & TypeOption<O, 'searchParams'>
    : keyof PathArgs<PathOf<O>> extends never
      ? AnyQuery
      : PathArgs<PathOf<O>>;

/**
 * Whether calls take a body: never for GET; for DELETE only when a `body` type is declared
 * (batch delete); for the other methods unless declared `body: undefined`.
 */
export type RestHasBody<O> =
  MethodOf<O> extends 'GET'
    ? false
    : MethodOf<O> extends 'DELETE'
      ? IsDeclared<OptionOf<O, 'body'>>
      : O extends { readonly body: infer B }
        ? IsAny<B> extends true
          ? true
          : [B] extends [undefined]
            ? false
            : true
        : true;

/** The request body: the `body` option's type (or FormData), any value when none is declared. */
export type RestBody<O> =
  IsDeclared<OptionOf<O, 'body'>> extends true ? TypeOption<O, 'body'> | FormData : unknown;

type ParamsOnly<P> = {} extends P ? [params?: P] : [params: P];
type ParamsAndBody<P, B> = {} extends P ? [body: B] | [params: P, body: B] : [params: P, body: B];

/** The call's arguments: `(params)` or `(params, body)`, each typed from the options. */
export type RestArgs<O> =
  IsAny<O> extends true
    ? any[]
    : RestHasBody<O> extends true
      ? ParamsAndBody<RestParams<O>, RestBody<O>>
      : ParamsOnly<RestParams<O>>;

/** The arguments of `url()`: the URL and query parameters. */
export type RestUrlArgs<O> = IsAny<O> extends true ? any[] : ParamsOnly<RestParams<O>>;

/**
 * What a call resolves to: what `process` returns when it is declared, else the schema's
 * reading (entity instances); untyped without either, as the response is whatever the server
 * sent.
 */
export type RestResult<O> =
  IsAny<O> extends true
    ? any
    : O extends { process(...args: any): infer R }
      ? R
      : SchemaOf<O> extends undefined
        ? any
        : Denormalize<SchemaOf<O>>;

/** Options whose keys are replaced by `E`'s. */
export type Extend<O, E> = Omit<O, keyof E> & E;

/**
 * What `endpoint.extend(E)` is made of: `E`'s options over `O`'s, and as `extend` does, the
 * method stays unless `E` names one (`sideEffect` alone keeps it), and a new method works out
 * `sideEffect` again unless `E` gives it too. `X & RestGenerics` only where `X` alone is not
 * known to fit: it would make a declared schema `S & Schema`, which reads back as nothing.
 */
export type ExtendOptions<O, E> =
  Extend<KeptOptions<O, E>, E> extends infer X
    ? X extends RestGenerics
      ? X
      : X & RestGenerics
    : never;

type KeptOptions<O, E> = 'method' extends keyof E
  ? 'sideEffect' extends keyof E
    ? O
    : Omit<O, 'sideEffect'>
  : 'sideEffect' extends keyof E
    ? Extend<O, { method: MethodOf<O> }>
    : O;

type AdderOf<S, Shape extends 'single' | 'list'> =
  S extends Collection<infer M>
    ? CollectionAdder<M, Shape>
    : S extends Record<string, unknown>
      ? { [K in keyof S]: AdderOf<S[K], Shape> }[keyof S]
      : never;

/** The options of `getList.push` / `.unshift`: POST to the list, the created entity back. */
export type PushOptions<O> = Extend<O, { method: 'POST'; schema: AdderOf<SchemaOf<O>, 'single'> }>;

/**
 * The options of a page of a list: the pagination field `F` becomes a required argument.
 * Without declared `searchParams` the list accepts any query, so its pages do too (beside the
 * required pagination field).
 */
export type PageOptions<O, F extends string> = Extend<
  O,
  { searchParams: DeclaredQuery<O> & { [K in F]: PathParamValue } }
>;

/** The declared query type, or any query when none was declared. */
type DeclaredQuery<O> =
  IsDeclared<OptionOf<O, 'searchParams'>> extends true ? TypeOption<O, 'searchParams'> : AnyQuery;

/**
 * A GET endpoint typed by these options, as a resource's `get` and `getList` are. Options
 * without a method already mean GET; `O` is not narrowed with `method: 'GET'`, so that an
 * endpoint built without naming its method (`new RestEndpoint({ path, schema })`) is one too.
 */
export type GetEndpoint<
  O extends {
    readonly path: string;
    readonly schema: Schema;
    readonly searchParams?: any;
    readonly body?: any;
    readonly paginationField?: string;
  } = { path: string; schema: Schema },
> = RestEndpoint<O>;

/**
 * A mutation typed by these options, as `update`, `partialUpdate`, `delete` and `push` are:
 * POST unless `O` names another method.
 */
export type MutateEndpoint<
  O extends {
    readonly path: string;
    readonly schema: Schema;
    readonly method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    readonly searchParams?: any;
    readonly body?: any;
  } = { path: string; schema: Schema; body: any },
> = RestEndpoint<O extends { readonly method: string } ? O : O & { method: 'POST' }>;

/** The page endpoint `list.paginated(field)` derives from a list endpoint (as `getList.getPage`). */
export type PaginationFieldEndpoint<E extends RestEndpoint<any>, C extends string> =
  E extends RestEndpoint<infer O> ? RestEndpoint<PageOptions<O, C>> : never;
