/**
 * Runs long work for a panel (answering a connect: a snapshot, the ring's history) in slices,
 * so that the page's thread is never held much longer than `budgetMs` at a time: the work is a
 * generator that yields after each small step; it runs until the budget is spent, then goes on
 * in a later task. The first slice runs at once: a small answer is complete when `start` returns.
 */
export class SlicedWork {
  private cancelled = false;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(
    private readonly steps: Iterator<unknown>,
    private readonly budgetMs: number,
    private readonly done: () => void,
  ) {}

  start(): void {
    this.slice();
  }

  /** Runs the steps left now, in this task, then `done`. */
  finish(): void {
    this.run(Number.POSITIVE_INFINITY);
  }

  /** Stops before the next step; `done` is not called. */
  cancel(): void {
    this.cancelled = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  private readonly slice = (): void => this.run(this.budgetMs);

  private run(budgetMs: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const end = performance.now() + budgetMs;
    while (!this.cancelled) {
      if (this.steps.next().done) {
        this.cancelled = true;
        this.done();
        return;
      }
      if (performance.now() >= end) {
        this.timer = setTimeout(this.slice, 0);
        return;
      }
    }
  }
}
