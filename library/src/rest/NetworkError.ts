/** A request that failed: an HTTP error status, or no response at all (`status` 0). */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly status: number;

  constructor(
    message: string,
    readonly response?: Response,
    options?: { status?: number; cause?: unknown },
  ) {
    super(message, { cause: options?.cause });
    this.status = options?.status ?? response?.status ?? 0;
  }

  /** Errors land in the store and the devtools: keep them readable as JSON. */
  toJSON() {
    return { name: this.name, status: this.status, message: this.message, url: this.response?.url };
  }
}
