/** A request that failed: an HTTP error status, or no response at all (`status` 0). */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly status: number;
  readonly response?: Response;
  /** The error body the server sent (parsed when it is JSON), for an HTTP error status. */
  readonly body?: unknown;

  /**
   * `new NetworkError(response)` is data-client's form (custom `fetchResponse` overrides throw
   * it for a response that is not ok): the status and message then come from the response.
   */
  constructor(response: Response);
  constructor(
    message: string,
    response?: Response,
    options?: { status?: number; cause?: unknown; body?: unknown },
  );
  constructor(
    messageOrResponse: string | Response,
    response?: Response,
    options?: { status?: number; cause?: unknown; body?: unknown },
  ) {
    const from = typeof messageOrResponse === 'string' ? response : messageOrResponse;
    super(
      typeof messageOrResponse === 'string'
        ? messageOrResponse
        : `${from?.url ? `${from.url}: ` : ''}${`${from?.status} ${from?.statusText}`.trim()}`,
      { cause: options?.cause },
    );
    this.response = from;
    this.status = options?.status ?? from?.status ?? 0;
    if (options?.body !== undefined) this.body = options.body;
  }

  /** Errors land in the store and the devtools: keep them readable as JSON. */
  toJSON() {
    return {
      name: this.name,
      status: this.status,
      message: this.message,
      url: this.response?.url,
      ...(this.body === undefined ? {} : { body: this.body }),
    };
  }
}
