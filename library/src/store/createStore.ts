import type { TraceSink } from '../normalize/trace.js';
import type { Action } from './actions.js';
import { Controller } from './Controller.js';
import { applyOptimistic, reduce } from './reducer.js';
import { initialState, type State } from './state.js';

export interface StoreOptions {
  /** Start from this state instead of an empty one. */
  initialState?: State;
  /** Receives what normalizing each committed response did. */
  trace?: TraceSink;
}

export interface Store {
  controller: Controller;
  /** The state components see: committed data plus pending optimistic responses. */
  getState(): State;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** A store and its Controller, independent of any UI framework. */
export function createStore(options: StoreOptions = {}): Store {
  let committed = options.initialState ?? initialState();
  let view = committed;
  const listeners = new Set<() => void>();

  const dispatch = (action: Action) => {
    const next = reduce(committed, action, { trace: options.trace });
    if (next === committed) return;
    committed = next;
    view = committed.optimistic.length === 0 ? committed : applyOptimistic(committed, snapshot);
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
  };
}
