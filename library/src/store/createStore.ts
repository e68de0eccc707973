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
   * Read it with `trace.events`; keep `trace.kept()`.
   */
  trace: Trace;
}

export interface Store {
  controller: Controller;
  /** The state components see: committed data plus pending optimistic responses. */
  getState(): State;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Calls `observer` with every action that changed the store and what it did; returns the
   * unsubscribe function. While no one observes, nothing is recorded.
   */
  observe(observer: (record: StoreRecord) => void): () => void;
}

/** A store and its Controller, independent of any UI framework. */
export function createStore(options: StoreOptions = {}): Store {
  let committed = options.initialState ?? initialState();
  let view = committed;
  const listeners = new Set<() => void>();
  const observers = new Set<(record: StoreRecord) => void>();

  const dispatch = (action: Action) => {
    const trace = observers.size > 0 ? new Trace() : undefined;
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
    if (trace)
      for (const observer of observers) observer({ action, before, after: committed, trace });
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
    observe(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
  };
}
