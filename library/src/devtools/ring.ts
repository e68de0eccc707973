/**
 * The last `capacity` items, oldest first. A fixed array written round and round: adding an
 * item never copies or reallocates, which matters because the bridge adds one per store change.
 */
export class Ring<T> {
  private readonly items: (T | undefined)[];
  /** Where the next item goes. */
  private next = 0;
  private count = 0;

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`ring size must be a positive integer, not ${capacity}`);
    this.items = new Array<T | undefined>(capacity).fill(undefined);
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  get oldest(): T | undefined {
    return this.count === 0
      ? undefined
      : this.items[(this.next - this.count + this.capacity) % this.capacity];
  }

  /** The items, oldest first. */
  toArray(): T[] {
    const start = (this.next - this.count + this.capacity) % this.capacity;
    return Array.from(
      { length: this.count },
      (_, offset) => this.items[(start + offset) % this.capacity] as T,
    );
  }
}
