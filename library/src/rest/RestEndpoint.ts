import { ENDPOINT_OPTIONS, Endpoint } from '../endpoint/Endpoint.js';
import type { ErrorPolicy } from '../endpoint/types.js';
import { describeValue, setOwn } from '../schema/describe.js';
import { callUrl, checkRequired, pathValue, splitArgs } from './callUrl.js';
import { adderOf, derived, paginatedOf } from './listEndpoints.js';
import { NetworkError } from './NetworkError.js';
import { compilePath, searchToString } from './paths.js';
import type { PathArgs } from './pathTypes.js';
import { headerEntries, isJsonBody } from './requestInit.js';
import { responseBody, sendRequest } from './response.js';
import type {
  Extend,
  ExtendOptions,
  MethodOf,
  PageOptions,
  PathOf,
  PushOptions,
  RestArgs,
  RestEndpointOptions,
  RestGenerics,
  RestResult,
  RestUrlArgs,
  SchemaOf,
  SideEffectOf,
} from './types.js';

/**
 * An endpoint for one REST call: its URL from `urlPrefix` + `path` + query, its method, its
 * schema. `extend(options)` derives a new one; instances are callable.
 */
export interface RestEndpoint<O extends RestGenerics = any> {
  readonly path: PathOf<O>;
  readonly method: MethodOf<O>;
  readonly sideEffect: SideEffectOf<O>;
  readonly urlPrefix: string;
  readonly requestInit?: RequestInit;
  /**
   * Aborts the requests of this endpoint (`extend({ signal: controller.signal })`, or
   * `requestInit.signal`): they reject with the signal's reason, an AbortError by default.
   */
  readonly signal?: AbortSignal;
  readonly paginationField?: O['paginationField'];
  readonly body?: O['body'];
  readonly searchParams?: O['searchParams'];
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface carries the generative types
export class RestEndpoint<const O extends RestGenerics = any> extends Endpoint<
  (...args: RestArgs<O>) => Promise<RestResult<O>>,
  SchemaOf<O>,
  SideEffectOf<O>
> {
  /**
   * Every option is readable on the endpoint (`getList.searchParams`, `.body`,
   * `.paginationField`, `.dataExpiryLength`, …); method, sideEffect, urlPrefix and name are
   * worked out from them when not given. `Readonly<O>` (not `O`) keeps the literal types of the
   * options (the path, the method) on compilers without `const` type parameters.
   */
  constructor(options: Readonly<O> & RestEndpointOptions) {
    super(undefined, options as never);
    const method = options.method ?? (options.sideEffect ? 'POST' : 'GET');
    const sideEffect =
      'sideEffect' in options ? options.sideEffect : method === 'GET' ? undefined : true;
    const urlPrefix = options.urlPrefix ?? '';
    // Without a name, read it from the endpoint each time: a subclass's `urlPrefix = '…'` class
    // field is set after this constructor, and the name follows it (as data-client's getter).
    Object.defineProperty(
      this,
      'name',
      options.name === undefined
        ? { get: () => `${this.urlPrefix}${this.path}`, configurable: true }
        : { value: options.name, configurable: true },
    );
    // A signal given in `requestInit` aborts the requests as the `signal` option does: `signal`
    // names it either way, for the Controller, which shares a request among its callers.
    const signal = options.signal ?? options.requestInit?.signal ?? undefined;
    Object.assign(this, { method, sideEffect, urlPrefix, signal });
    // Development builds only, as the options' checks in Endpoint.
    if (process.env.NODE_ENV !== 'production') checkDefinition(this, options);
  }

  /**
   * A new endpoint with these options replacing this one's; the class (and its overrides) stays.
   * `E` defaults to `{}`: `extend({})` infers nothing, and the constraint would replace every
   * option's type (path, method, body) with its widest. The options are also read as
   * `RestEndpointOptions`, which types the parameters of methods written in them
   * (`getOptimisticResponse(snap, ...args)`).
   */
  override extend<const E extends Partial<RestEndpointOptions> = {}>(
    options: Readonly<E> & Partial<RestEndpointOptions>,
  ): RestEndpoint<ExtendOptions<O, E>> {
    const Class = this.constructor as new (
      options: RestEndpointOptions,
    ) => RestEndpoint<ExtendOptions<O, E>>;
    // The method stays, worked out or given, unless the new options name one: `sideEffect`
    // alone does not make a GET a POST. A new method works out `sideEffect` again unless it is
    // given beside it. Both as data-client's `extend`.
    const extended = { ...this[ENDPOINT_OPTIONS], method: this.method, ...options };
    if ('method' in options && !('sideEffect' in options)) delete extended.sideEffect;
    return new Class(extended as RestEndpointOptions);
  }

  /** The URL for these parameters: path parameters fill the path, the rest become the query. */
  url(...args: RestUrlArgs<O>): string {
    const params = (args[0] ?? {}) as Record<string, unknown>;
    const { build, names, required } = compilePath(this.path);
    checkRequired(this, params, false);
    // No prototype: a parameter named `__proto__` or `constructor` is only ever the caller's.
    const pathParams: Record<string, string> = Object.create(null);
    let query: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(params)) {
      if (!names.has(key)) {
        query ??= {};
        setOwn(query, key, value);
      } else if (value !== undefined)
        pathParams[key] = pathValue(this.name, key, value, required.includes(key));
    }
    // As data-client does, the query is written only when some argument is not in the path.
    const search = query === undefined ? '' : this.searchToString(query);
    const base = build(pathParams);
    // A path with literal query text (`/todos\\?per_page=50`) already holds a `?`: the
    // remaining arguments continue that query with `&` rather than start a second one.
    const separator = base.includes('?') ? '&' : '?';
    return `${this.urlPrefix}${base}${search ? `${separator}${search}` : ''}`;
  }

  /**
   * The query text of the arguments that are not path parameters (sorted; nested values in
   * brackets, lists as repeated names). Override it to use another convention, e.g. `qs`.
   */
  searchToString(searchParams: Record<string, unknown>): string {
    return searchToString(searchParams, this.name);
  }

  /** Whether calls take a body: every method but GET and DELETE, unless declared `body: undefined`. */
  get hasBody(): boolean {
    if (this.method === 'GET' || this.method === 'DELETE') return false;
    const options = this[ENDPOINT_OPTIONS] as RestEndpointOptions;
    return !('body' in options) || options.body !== undefined;
  }

  override key(...args: RestArgs<O>): string {
    return this.requestKey(...args);
  }

  /**
   * Identifies the HTTP request itself, for deduplication: `METHOD url`. It is also the default
   * key; a page's key drops its cursor so the page lands in its list.
   */
  override requestKey(...args: RestArgs<O>): string {
    return `${this.method} ${callUrl(this, splitArgs(this, args))}`;
  }

  /** Whether a stored key was made by this endpoint (for invalidateAll / expireAll). */
  override testKey(key: string): boolean {
    const prefix = `${this.method} ${this.urlPrefix}`;
    if (!key.startsWith(prefix)) return false;
    const rest = key.slice(prefix.length);
    const { matcher } = compilePath(this.path);
    if (matcher.test(rest)) return true;
    // The query the arguments added starts at a `?`, or at a `&` when the path carries literal
    // query text; try each such cut so that those paths match their own keys too.
    for (let i = rest.length - 1; i >= 0; i--) {
      if ((rest[i] === '?' || rest[i] === '&') && matcher.test(rest.slice(0, i))) return true;
    }
    return false;
  }

  /**
   * The request settings: the `requestInit` option, the method, the body (JSON for plain objects,
   * lists, numbers and booleans; FormData, Blob, text… as they are) and the default headers under
   * `requestInit.headers`. It returns them at once, so an override can spread it
   * (`return { ...super.getRequestInit(body), credentials: 'same-origin' }`); an async override
   * works too. `getHeaders` then has the last word on the headers.
   */
  getRequestInit(body?: any): Promise<RequestInit> | RequestInit {
    const base = this.requestInit ?? {};
    const headers: Record<string, string> = { Accept: 'application/json' };
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      if (isJsonBody(body)) {
        payload = JSON.stringify(body);
        headers['Content-Type'] = 'application/json';
      } else payload = body as BodyInit;
    }
    // User headers replace the defaults whatever their case: `content-type` next to
    // `Content-Type` would make fetch join both values into one header.
    for (const [name, value] of headerEntries(base.headers)) {
      for (const existing of Object.keys(headers)) {
        if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
      }
      headers[name] = value;
    }
    const signal = this.signal ?? base.signal;
    return {
      ...base,
      method: this.method,
      body: payload,
      headers,
      ...(signal ? { signal } : {}),
    };
  }

  /** Last word on the headers of every request (may be async, e.g. to fetch a token). */
  getHeaders(headers: HeadersInit): Promise<HeadersInit> | HeadersInit {
    return headers;
  }

  /**
   * 5xx errors and network failures (a NetworkError of status 0) are soft: data already shown
   * keeps showing, as in data-client, where a failed connection has status 500.
   */
  override errorPolicy(error: unknown): ErrorPolicy {
    const status = (error as { status?: unknown } | null)?.status;
    if (error instanceof NetworkError && status === 0) return 'soft';
    return typeof status === 'number' && status >= 500 ? 'soft' : undefined;
  }

  /** Sends the request; HTTP errors and network failures reject with a NetworkError. */
  fetchResponse(url: string, init: RequestInit): Promise<Response> {
    return sendRequest(url, init);
  }

  /**
   * JSON as parsed (also when the content type omits "json" but the schema needs data); 204 or
   * an empty body is `null`; text where the schema needs no data or `process` is overridden.
   */
  parseResponse(response: Response): Promise<unknown> {
    return responseBody(this, response, this.process !== RestEndpoint.prototype.process);
  }

  /** Turns the parsed response into what the schema normalizes; receives the call arguments. */
  process(value: unknown, ..._args: readonly unknown[]): unknown {
    return value;
  }

  override async fetch(...args: RestArgs<O>): Promise<RestResult<O>> {
    const call = splitArgs(this, args);
    const url = callUrl(this, call);
    const init = await this.getRequestInit(call.body);
    const headers = await this.getHeaders(init.headers ?? {});
    const response = await this.fetchResponse(url, { ...init, headers });
    return this.process(await this.parseResponse(response), ...args) as RestResult<O>;
  }

  /** `getList.push`: POST to the list URL, added at the end of every matching stored list. */
  get push(): RestEndpoint<PushOptions<O>> {
    return adderOf(this, 'push') as never;
  }

  /** `getList.unshift`: POST to the list URL, added at the start of every matching stored list. */
  get unshift(): RestEndpoint<PushOptions<O>> {
    return adderOf(this, 'unshift') as never;
  }

  /** `getList.getPage`: the next page, appended to the list without duplicates. */
  get getPage(): O extends { readonly paginationField: infer F }
    ? F extends string
      ? RestEndpoint<PageOptions<O, F>>
      : undefined
    : undefined {
    const field = this.paginationField;
    if (field === undefined) return undefined as never;
    return derived(this, 'getPage', () =>
      this.paginated(field).extend({ name: `${this.name}.getPage` }),
    ) as never;
  }

  /**
   * An endpoint that fetches a page and merges it into the list stored without the cursor:
   * `field` names the cursor argument (a required argument of the page, as with `getPage`), or
   * `removeCursor` returns the list's arguments, and the page takes what `removeCursor` takes.
   */
  paginated<const F extends string>(field: F): RestEndpoint<PageOptions<O, F>>;
  paginated<A extends readonly unknown[]>(
    removeCursor: (...args: A) => readonly unknown[],
  ): RestEndpoint<Extend<O, { searchParams: Omit<A[0], keyof PathArgs<PathOf<O>>> }>>;
  paginated(
    fieldOrRemoveCursor: string | ((...args: any[]) => readonly unknown[]),
  ): RestEndpoint<any> {
    return paginatedOf(this, fieldOrRemoveCursor);
  }
}

/**
 * Refuses, naming the endpoint, a definition it could not be called with: a urlPrefix that is not
 * text (a config object, or null, would be requested as "null/todos/1"), or a path that is not a
 * template (found here rather than at each call).
 */
function checkDefinition(endpoint: RestEndpoint, options: RestEndpointOptions): void {
  if (typeof endpoint.urlPrefix !== 'string') {
    throw new TypeError(
      `${options.name ?? options.path}: urlPrefix must be a string like "https://api.example.com", not ${describeValue(endpoint.urlPrefix)}`,
    );
  }
  try {
    compilePath(options.path);
  } catch (error) {
    throw new TypeError(`${endpoint.name}: ${(error as Error).message}`);
  }
}
