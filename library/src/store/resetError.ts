/**
 * What a read in flight rejects with when `resetEntireStore` runs, at once rather than when its
 * server answers (as data-client's ResetError): a component suspended on it fetches again from
 * the empty store without waiting for a response that would be dropped anyway.
 */
export class ResetError extends Error {
  override name = 'ResetError';
  constructor() {
    super('Aborted due to RESET: the store was reset while fetching');
  }
}
