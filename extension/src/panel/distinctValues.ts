/**
 * The distinct values of one field among the timeline's events, sorted (the options of a filter
 * menu), with how many events hold each. Kept as events join and leave the timeline, so that a
 * batch costs what it adds and removes, not a walk of the whole timeline; `sorted` keeps its
 * identity until a value comes or goes, so the menu is not rendered again for a batch that
 * brought no new value.
 */
export class DistinctValues {
  static readonly none = new DistinctValues([], new Map());

  private constructor(
    readonly sorted: readonly string[],
    private readonly counts: ReadonlyMap<string, number>,
  ) {}

  /** These values with `added` counted in and `removed` counted out ('' and undefined are none). */
  counted(
    added: readonly (string | undefined)[],
    removed: readonly (string | undefined)[],
  ): DistinctValues {
    if (added.length === 0 && removed.length === 0) return this;
    const counts = new Map(this.counts);
    let valuesChanged = false;
    for (const value of added) {
      if (!value) continue;
      const count = counts.get(value) ?? 0;
      counts.set(value, count + 1);
      if (count === 0) valuesChanged = true;
    }
    for (const value of removed) {
      if (!value) continue;
      const count = (counts.get(value) ?? 0) - 1;
      if (count > 0) counts.set(value, count);
      else {
        counts.delete(value);
        valuesChanged = true;
      }
    }
    return new DistinctValues(valuesChanged ? [...counts.keys()].sort() : this.sorted, counts);
  }
}
