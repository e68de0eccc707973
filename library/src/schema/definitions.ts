/**
 * How many times a schema's definition was changed by `define()`. Whatever is computed from
 * definitions and kept (a collection's table key, a MemoCache's readings) notes the version it
 * was computed at and is computed again once it differs. Schemas are defined rarely (at start-up,
 * to close a cycle), so one count for all of them costs less than knowing which schema nests in
 * which.
 */
let version = 0;

export function definitionsVersion(): number {
  return version;
}

/** Called by every `define()`, after the definition changed. */
export function definitionsChanged(): void {
  version++;
}

/** A value computed from schema definitions, computed again after any `define()`. */
export class Recomputed<T> {
  private computedAt = -1;
  private value: T | undefined;

  constructor(private readonly compute: () => T) {}

  get(): T {
    if (this.computedAt !== version) {
      this.value = this.compute();
      this.computedAt = version;
    }
    return this.value as T;
  }
}
