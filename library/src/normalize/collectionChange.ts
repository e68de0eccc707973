import type { CollectionChange, InsertedRun } from './changes.js';
import type { MemberList } from './memberList.js';

/**
 * What a write to a collection row did, for the change-set. `incoming` is what the change is
 * about: the pks an add brought, or for an invalidation or a removal the member removed.
 *
 * The built-in adds append (push, a page) or prepend (unshift) what the row lacked, so their
 * change is read off the incoming pks in O(incoming). A replaced list, or a custom merge, is
 * compared with the list before.
 */
export function collectionChangeOf(
  collection: string,
  row: string,
  kind: CollectionChange['kind'],
  before: MemberList | undefined,
  after: MemberList,
  incoming: readonly string[],
): CollectionChange {
  const lengthBefore = before?.length ?? 0;
  const lengthAfter = after.length;
  if (kind === 'invalidate' || kind === 'remove') {
    const removed = incoming.slice();
    return {
      collection,
      row,
      kind,
      lengthBefore,
      lengthAfter,
      inserted: [],
      duplicates: [],
      removed,
    };
  }
  if (kind === 'push' || kind === 'page-merge' || kind === 'unshift') {
    const added = new Set<string>();
    const duplicates: string[] = [];
    for (const pk of incoming) {
      if (before?.has(pk) || added.has(pk)) duplicates.push(pk);
      else added.add(pk);
    }
    const index = kind === 'unshift' ? 0 : lengthBefore;
    const inserted = added.size > 0 ? [{ index, pks: [...added] }] : [];
    return { collection, row, kind, lengthBefore, lengthAfter, inserted, duplicates, removed: [] };
  }
  const members = after.toArray();
  // A first load (or a load into an emptied row) inserted every member, and repeated a pk only if
  // the list is shorter than what came.
  const { inserted, removed } =
    lengthBefore === 0
      ? { inserted: members.length > 0 ? [{ index: 0, pks: members }] : [], removed: [] }
      : diffMembers(before?.toArray() ?? [], members);
  const duplicates =
    lengthBefore === 0 && incoming.length === members.length
      ? []
      : repeatsOrMembers(incoming, before, kind);
  // Two literals, not a field added afterwards: each keeps its own hidden class alive (see
  // docs/architecture.md, "Hidden classes").
  return kind === 'replace'
    ? { collection, row, kind, lengthBefore, lengthAfter, inserted, duplicates, removed, members }
    : { collection, row, kind, lengthBefore, lengthAfter, inserted, duplicates, removed };
}

/** For a replaced list, the pks it received twice; for a custom add, also those already held. */
function repeatsOrMembers(
  incoming: readonly string[],
  before: MemberList | undefined,
  kind: CollectionChange['kind'],
): string[] {
  const duplicates: string[] = [];
  const seen = new Set<string>();
  for (const pk of incoming) {
    if (seen.has(pk) || (kind !== 'replace' && before?.has(pk))) duplicates.push(pk);
    seen.add(pk);
  }
  return duplicates;
}

/**
 * Which pks a list gained (as runs, with their new index) and lost. A change usually touches one
 * stretch of the list: comparing from both ends finds it with identity checks; the stretch is
 * then compared as sets.
 */
function diffMembers(before: readonly string[], after: readonly string[]) {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const lost = before.slice(head, before.length - tail);
  const gained = after.slice(head, after.length - tail);
  if (lost.length === 0 || gained.length === 0)
    return { inserted: gained.length === 0 ? [] : [{ index: head, pks: gained }], removed: lost };
  const beforeSet = new Set(lost);
  const afterSet = new Set(gained);
  const inserted: InsertedRun[] = [];
  let run: InsertedRun | undefined;
  for (const [offset, member] of gained.entries()) {
    if (beforeSet.has(member)) {
      run = undefined;
    } else if (run) {
      run.pks.push(member);
    } else {
      run = { index: head + offset, pks: [member] };
      inserted.push(run);
    }
  }
  return { inserted, removed: lost.filter((member) => !afterSet.has(member)) };
}
