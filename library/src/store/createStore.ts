import { Trace } from '../normalize/trace.js';
import type { Action } from './actions.js';
import { Controller } from './Controller.js';
import { applyOptimistic, reduce } from './reducer.js';
import { initialState, type State } from './state.js';

export interface StoreOptions {
  /** Start from this state instead of an empty one. */
  initialState?: State;
}

/** One change, as an observer sees it. */
export interface StoreRecord {
  action: Action;
  /** The committed state before and after the action. */
  before: State;
  after: State;
  /**
   * What normalizing did: for a fetch that went optimistic, what the optimistic response did.
   * Read it with `trace.events`; keep `trace.kept()`. Undefined when no observer asked for the
   * trace of this action (see ObserveOptions.traces).
   */
  trace: Trace | undefined;
}

/** A change with its trace: one the store traced, or one worked out again (see retrace). */
export type TracedRecord = StoreRecord & { trace: Trace };

export interface ObserveOptions {
  /**
   * Whether the observer needs the normalizer's trace of `action` (every action's by default).
   * Tracing costs the store time on every change: an observer that can work a trace out later
   * (see retrace) asks only for the ones it cannot.
   */
  traces?: (action: Action) => boolean;
}

export interface Store {
  controller: Controller;
  /** The state components see: committed data plus pending optimistic responses. */
  getState(): State;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Calls `observer` with every action that changed the store and what it did; returns the
   * unsubscribe function. Nothing is traced unless an observer asks for it.
   */
  observe(observer: (record: StoreRecord) => void, options?: ObserveOptions): () => void;
}

/** A store and its Controller, independent of any UI framework. */
export function createStore(options: StoreOptions = {}): Store {
  let committed = options.initialState ?? initialState();
  let view = committed;
  const listeners = new Set<() => void>();
  const observers = new Map<(record: StoreRecord) => void, ObserveOptions['traces']>();
  const traced = (action: Action) => {
    for (const traces of observers.values())
      if (traces === undefined || traces(action)) return true;
    return false;
  };

  const dispatch = (action: Action) => {
    const trace = observers.size > 0 && traced(action) ? new Trace() : undefined;
    const before = committed;
    const next = reduce(before, action, { trace });
    if (next === before) return;
    committed = next;
    const added =
      next.optimistic.length > before.optimistic.length ? next.optimistic.at(-1) : undefined;
    view =
      committed.optimistic.length === 0
        ? committed
        : applyOptimistic(
            committed,
            snapshot,
            added && trace ? { entry: added, trace } : undefined,
          );
    if (observers.size > 0)
      for (const observer of observers.keys())
        observer({ action, before, after: committed, trace });
    for (const listener of listeners) listener();
  };
  const getState = () => view;
  const controller = new Controller({ dispatch, getState });
  const snapshot = controller.snapshot.bind(controller);

  return {
    controller,
    getState,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    observe(observer, options = {}) {
      observers.set(observer, options.traces);
      return () => observers.delete(observer);
    },
  };
}

/**
 * What `changes` did, worked out again: each action run through the reducer from `base` (the
 * committed state before the first of them) with a trace, as `observe` would have reported it,
 * one record at a time (each record's states are dropped once the next is made). The states are
 * new objects, equal to the ones the store made as long as the schemas' own code (pk, process,
 * merge) gives the same answer twice.
 *
 * An optimistic fetch's trace is made with the optimistic view, not by the reducer: an observer
 * asks for it when the fetch happens and passes it as `trace`, which the record then carries.
 */
export function* retrace(
  base: State,
  changes: Iterable<{ action: Action; trace: Trace | undefined }>,
): Generator<TracedRecord> {
  let before = base;
  for (const { action, trace: known } of changes) {
    const trace = known ?? new Trace();
    const after = reduce(before, action, { trace: known === undefined ? trace : undefined });
    yield { action, before, after, trace };
    before = after;
  }
}
