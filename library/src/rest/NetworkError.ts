/** A request that failed: an HTTP error status, or no response at all (`status` 0). */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly status: number;
  /** The error body the server sent (parsed when it is JSON), for an HTTP error status. */
  readonly body?: unknown;

  constructor(
    message: string,
    readonly response?: Response,
    options?: { status?: number; cause?: unknown; body?: unknown },
  ) {
    super(message, { cause: options?.cause });
    this.status = options?.status ?? response?.status ?? 0;
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
