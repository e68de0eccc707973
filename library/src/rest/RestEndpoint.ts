import { ENDPOINT_OPTIONS, Endpoint } from '../endpoint/Endpoint.js';
import type { ErrorPolicy } from '../endpoint/types.js';
import { schemaOf } from '../normalize/schemaOf.js';
import { paginatedFilter, paginatedMerge } from '../schema/Collection.js';
import { describeValue, getOwn, setOwn } from '../schema/describe.js';
import { Invalidate } from '../schema/Invalidate.js';
import { jsonForm, NoJsonForm } from '../schema/jsonForm.js';
import { findCollection, mapCollections } from './collections.js';
import { NetworkError } from './NetworkError.js';
import { compilePath, pathValueProblem, searchToString } from './paths.js';
import type { PathArgs } from './pathTypes.js';
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
    return new Class({ ...this[ENDPOINT_OPTIONS], ...options } as RestEndpointOptions);
  }

  /** The URL for these parameters: path parameters fill the path, the rest become the query. */
  url(...args: RestUrlArgs<O>): string {
    const params = (args[0] ?? {}) as Record<string, unknown>;
    const { build, names, required } = compilePath(this.path);
    this.checkRequired(params);
    // No prototype: a parameter named `__proto__` or `constructor` is only ever the caller's.
    const pathParams: Record<string, string> = Object.create(null);
    const query: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params)) {
      if (!names.has(key)) setOwn(query, key, value);
      else if (value !== undefined)
        pathParams[key] = this.pathValue(key, value, required.includes(key));
    }
    const search = this.searchToString(query);
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

  /** A path parameter's value as the text the path holds; refused, by name, when it cannot be. */
  private pathValue(name: string, value: unknown, isRequired: boolean): string {
    // The text JSON gives a scalar, as in the query: a Date as ISO 8601, a bigint as its digits.
    const text = jsonForm(value);
    if (text instanceof NoJsonForm)
      throw new TypeError(`${this.name}: the URL parameter "${name}" ${text.why}`);
    if (typeof text !== 'string') {
      throw new TypeError(
        process.env.NODE_ENV !== 'production'
          ? `${this.name}: the URL parameter "${name}" must be a string or a number, not ${describeValue(text)}`
          : `${this.name}: the URL parameter "${name}" is an object`,
      );
    }
    const problem = pathValueProblem(text, isRequired);
    if (problem !== undefined)
      throw new TypeError(`${this.name}: the URL parameter "${name}" ${problem}`);
    return text;
  }

  /**
   * A page's cursor is a string or a number (spec 4.1): without one the request would fetch the
   * first page again (or `?page=null`, `?page=[object Object]`) and merge it as the next.
   */
  private checkCursor(field: string, cursor: unknown): void {
    if (typeof cursor === 'string' || (typeof cursor === 'number' && Number.isFinite(cursor)))
      return;
    if (process.env.NODE_ENV !== 'production') {
      throw new TypeError(
        cursor === undefined || cursor === null
          ? `${this.name}.getPage: missing the page argument "${field}"`
          : `${this.name}.getPage: the page argument "${field}" must be a string or a number, not ${describeValue(cursor)}`,
      );
    }
    throw new TypeError(`${this.name}.getPage: the page argument "${field}" is missing or wrong`);
  }

  /**
   * Refuses parameters that lack one the path cannot be built without, naming each;
   * `oneArgumentIsBody` when the call's only argument was read as the body.
   */
  private checkRequired(params: Record<string, unknown>, oneArgumentIsBody = false): void {
    const { required } = compilePath(this.path);
    const missing = required.filter((name) => {
      const value = getOwn(params, name);
      return value === undefined || value === null;
    });
    if (missing.length === 0) return;
    const names = missing.map((name) => `"${name}"`).join(', ');
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${this.name}: missing URL parameter ${names} for path "${this.path}"${oneArgumentIsBody ? ' (one argument is the body: pass the URL parameters first)' : ''}`
        : `${this.name}: missing URL parameter ${names}`,
    );
  }

  /** `url()` of a call's arguments, split into URL parameters and body first. */
  private urlOfCall(args: readonly unknown[]): string {
    const { params } = this.splitArgs(args);
    if (this.hasBody && args.length < 2) {
      // `update({ id: 1 })` reads its one argument as the body: say so where it matters.
      this.checkRequired(params, true);
    }
    return this.url(...([params] as unknown as RestUrlArgs<O>));
  }

  /** Whether calls take a body: every method but GET and DELETE, unless declared `body: undefined`. */
  get hasBody(): boolean {
    if (this.method === 'GET' || this.method === 'DELETE') return false;
    const options = this[ENDPOINT_OPTIONS] as RestEndpointOptions;
    return !('body' in options) || options.body !== undefined;
  }

  /** Splits call arguments: `(params, body)`, or `(body)` alone for body-taking endpoints. */
  protected splitArgs(args: readonly unknown[]): {
    params: Record<string, unknown>;
    body: unknown;
  } {
    if (this.hasBody && args.length < 2) return { params: {}, body: args[0] };
    return {
      params: (args[0] ?? {}) as Record<string, unknown>,
      body: this.hasBody ? args[args.length - 1] : undefined,
    };
  }

  override key(...args: RestArgs<O>): string {
    return this.requestKey(...args);
  }

  /**
   * Identifies the HTTP request itself, for deduplication: `METHOD url`. It is also the default
   * key; a page's key drops its cursor so the page lands in its list.
   */
  override requestKey(...args: RestArgs<O>): string {
    return `${this.method} ${this.urlOfCall(args)}`;
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
    return { ...base, method: this.method, body: payload, headers, ...(signal ? { signal } : {}) };
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
  async fetchResponse(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (cause) {
      rethrowAbort(cause, init.signal);
      throw new NetworkError(
        `${init.method} ${clip(url)}: no response (${(cause as Error).message})`,
        undefined,
        {
          status: 0,
          cause,
        },
      );
    }
    if (!response.ok) {
      const body = await errorBody(response);
      // The server's own words (`{"error":"no todo 9"}`) say more than its status line.
      const said = body === undefined ? '' : `: ${quoteErrorBody(body)}`;
      throw new NetworkError(
        `${init.method} ${clip(url)}: ${`${response.status} ${response.statusText}`.trim()}${said}`,
        response,
        { body },
      );
    }
    return response;
  }

  /**
   * JSON as parsed (also when the content type omits "json" but the schema needs data); 204 or
   * an empty body is `null`; text where the schema needs no data or `process` is overridden.
   */
  async parseResponse(response: Response): Promise<unknown> {
    if (response.status === 204) return null;
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      // Aborted while the body arrived: the abort, as before the headers.
      rethrowAbort(cause, this.signal);
      // The connection broke while the body arrived (e.g. shorter than its Content-Length).
      throw new NetworkError(
        `${this.name}: the response from ${clip(response.url)} broke off (${(cause as Error).message})`,
        response,
        { status: 0, cause },
      );
    }
    if (text === '') return null;
    // Media types are case-insensitive: `Application/JSON` is JSON too.
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    const json = type.includes('json');
    // Where nothing needs data, text the server labels as text (`123` as text/plain) stays text.
    if (!json && type !== '' && !needsData(this.schema)) return text;
    try {
      return JSON.parse(text);
    } catch {
      // An own `process` may read text into what the schema needs (data-client's rule).
      if (!json && (!needsData(this.schema) || this.process !== RestEndpoint.prototype.process))
        return text;
      throw new NetworkError(
        `${this.name}: expected JSON from ${clip(response.url)} but received ${type || 'no content type'}: ${text.slice(0, 80)}`,
        response,
        { status: 400 },
      );
    }
  }

  /** Turns the parsed response into what the schema normalizes; receives the call arguments. */
  process(value: unknown, ..._args: readonly unknown[]): unknown {
    return value;
  }

  override async fetch(...args: RestArgs<O>): Promise<RestResult<O>> {
    const { body } = this.splitArgs(args);
    const url = this.urlOfCall(args);
    const init = await this.getRequestInit(body);
    const headers = await this.getHeaders(init.headers ?? {});
    const response = await this.fetchResponse(url, { ...init, headers });
    return this.process(await this.parseResponse(response), ...args) as RestResult<O>;
  }

  /** `getList.push`: POST to the list URL, added at the end of every matching stored list. */
  get push(): RestEndpoint<PushOptions<O>> {
    return this.adder('push');
  }

  /** `getList.unshift`: POST to the list URL, added at the start of every matching stored list. */
  get unshift(): RestEndpoint<PushOptions<O>> {
    return this.adder('unshift');
  }

  private adder(which: 'push' | 'unshift') {
    const collection = findCollection(this.schema);
    if (!collection)
      throw new TypeError(`${this.name}.${which}: the schema holds no schema.Collection`);
    return derived(this, which, () =>
      this.extend({ method: 'POST', schema: collection[which], name: `${this.name}.${which}` }),
    ) as unknown as RestEndpoint<PushOptions<O>>;
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
    const removeCursor =
      typeof fieldOrRemoveCursor === 'function'
        ? fieldOrRemoveCursor
        : (params?: unknown, ...rest: unknown[]) => {
            const { [fieldOrRemoveCursor]: cursor, ...listParams } = (params ?? {}) as Record<
              string,
              unknown
            >;
            this.checkCursor(fieldOrRemoveCursor, cursor);
            return [listParams, ...rest];
          };
    if (!findCollection(this.schema))
      throw new TypeError(`${this.name}.paginated: the schema holds no schema.Collection`);
    return this.extend({
      schema: mapCollections(this.schema, (collection) =>
        collection.addWith(paginatedMerge, paginatedFilter(removeCursor)),
      ) as O['schema'],
      // The page is stored under the list's key, so reading the list shows the merged pages.
      key: (...args: unknown[]) => this.key(...(removeCursor(...args) as RestArgs<O>)),
    }) as unknown as RestEndpoint<O>;
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

/** Derived members (push, unshift, getPage, remove, move) are built once per endpoint. */
const derivedCache = new WeakMap<object, Map<string, unknown>>();
export function derived<T>(owner: object, name: string, build: () => T): T {
  const members = derivedCache.get(owner) ?? new Map<string, unknown>();
  derivedCache.set(owner, members);
  if (!members.has(name)) members.set(name, build());
  return members.get(name) as T;
}

function isJsonBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null)
    return typeof body === 'number' || typeof body === 'boolean';
  const proto = Object.getPrototypeOf(body);
  return Array.isArray(body) || proto === Object.prototype || proto === null;
}

/** The name/value pairs of any HeadersInit; plain objects keep the names' case. */
function headerEntries(headers: HeadersInit | undefined): [string, string][] {
  if (!headers) return [];
  if (headers instanceof Headers || Array.isArray(headers)) return [...new Headers(headers)];
  return Object.entries(headers);
}

/** Whether a schema needs structured data (a text body cannot fill it); Invalidate takes a pk. */
function needsData(schema: unknown): boolean {
  if (schema === undefined || schema === null || schema instanceof Invalidate) return false;
  if (Array.isArray(schema)) return needsData(schema[0]);
  return schemaOf(schema) !== undefined;
}

/**
 * Throws the abort when a request failed because it was aborted, rather than a NetworkError, as
 * in data-client: callers tell a cancelled request from a failed one by it, and the store keeps no
 * error for it. It is the signal's reason (an AbortError unless `abort(reason)` gave another),
 * before the headers and while the body arrives alike, as the fetch standard has it (Node's fetch
 * makes an AbortError of its own when the body is read only after the abort).
 */
function rethrowAbort(cause: unknown, signal: AbortSignal | null | undefined): void {
  if (signal?.aborted) throw signal.reason;
  if ((cause as Error | null)?.name === 'AbortError') throw cause;
}

/** The longest text (an error body, a URL) a NetworkError's message quotes. */
const QUOTED_LENGTH = 500;

/**
 * Text for a message, cut after QUOTED_LENGTH characters: a megabyte body or URL would flood
 * every log and the devtools that show the error (the whole body stays on `error.body`).
 */
function clip(text: string): string {
  return text.length > QUOTED_LENGTH ? `${text.slice(0, QUOTED_LENGTH)}…` : text;
}

/** An error body as text for a message: as sent, clipped. */
function quoteErrorBody(body: unknown): string {
  return clip(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * The body of an HTTP error response, parsed when it is JSON (undefined when empty or
 * unreadable). Read from a clone: the response stays readable for whoever catches the error.
 */
async function errorBody(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.clone().text();
  } catch {
    return undefined;
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return clip(text);
  }
}
