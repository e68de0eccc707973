import type { ChangeSet } from '../../normalize/changes.js';
import type { Action } from '../../store/actions.js';
import type { ActionCause } from '../protocol/effects.js';
import type { ReaderEffect } from './history.js';

type Source = NonNullable<ActionCause['by']>;

/**
 * For each result key, the latest event that invalidated it, expired it, or made it suspend (a
 * delete), until the key is stored again: a fetch of it whose reader says its data was invalid
 * or stale is told which event made it so ("invalidated by Todo.delete #12").
 */
export class StaleSources {
  private readonly byKey = new Map<string, Source>();

  /** The event behind a fetch that refetched invalid or stale data; undefined otherwise. */
  sourceOf(action: Action): Source | undefined {
    if (action.type !== 'setResponse' || action.cause === undefined) return undefined;
    const { kind } = action.cause.reason;
    return kind === 'invalid' || kind === 'stale' ? this.byKey.get(action.key) : undefined;
  }

  constructor(
    /**
     * Names an event's action (an endpoint, or the action's type): asked only when the event
     * made a result invalid, stale or suspend.
     */
    private readonly labelOf: (action: Action) => string,
  ) {}

  /** Takes event `seq`'s changes. */
  note(seq: number, action: Action, changes: ChangeSet, readers: readonly ReaderEffect[]): void {
    if (changes.reset) this.byKey.clear();
    // One source object for all the keys this event made stale, made only when there is one.
    let source: Source | undefined;
    for (const change of changes.results) {
      if (change.type === 'result-invalidated' || change.type === 'result-expired') {
        source ??= { seq, label: this.labelOf(action) };
        this.byKey.set(change.key, source);
      }
      // Stored as its key's result: it is fresh again. (A mutation's answer, or an older one,
      // stores no result.)
      else if (change.type === 'result-stored' && change.kept) this.byKey.delete(change.key);
    }
    for (const reader of readers) {
      if (reader.type !== 'result-suspends') continue;
      source ??= { seq, label: this.labelOf(action) };
      this.byKey.set(reader.key, source);
    }
  }
}
