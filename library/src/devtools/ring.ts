/**
 * The last `capacity` items, oldest first. It grows as items come, up to `capacity`, then is
 * written round and round: adding an item never copies the ring once full. Growing (rather than
 * reserving `capacity` slots at once) keeps a store that changes a few times from holding
 * a large empty array.
 */
export class Ring<T> {
  private readonly items: T[] = [];
  /** Once full, where the next item goes (the oldest item). */
  private next = 0;

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`ring size must be a positive integer, not ${capacity}`);
  }

  push(item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Puts `replace(item)` in each item's place. */
  replaceEach(replace: (item: T) => T): void {
    for (let index = 0; index < this.items.length; index++)
      this.items[index] = replace(this.items[index] as T);
  }

  get oldest(): T | undefined {
    return this.items[this.next];
  }

  /** The items, oldest first. */
  toArray(): T[] {
    return this.next === 0
      ? this.items.slice()
      : this.items.slice(this.next).concat(this.items.slice(0, this.next));
  }
}
