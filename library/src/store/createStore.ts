import { EndpointRegistry } from '../endpoint/registry.js';
import type { AnswerChange, ChangeSet } from '../normalize/changes.js';
import { PersistentMap } from '../normalize/persistentMap.js';
import type { Action } from './actions.js';
import { Controller } from './Controller.js';
import { CallCauses } from './cause.js';
import { applyOptimistic, reduce } from './reducer.js';
import { initialState, type State } from './state.js';

/** Options of `createStore`. */
export interface StoreOptions {
  /** Start from this state (such as another store's `getState()`) instead of an empty one. */
  initialState?: State;
  /**
   * The class of the store's controller: a subclass of Controller with methods of its own (as
   * data-client's `CacheProvider` takes one).
   */
  Controller?: typeof Controller;
  /**
   * Resources (or endpoints) whose recorded mutations a replay may run in this store before any
   * of their endpoints ran in it: a page just loaded, a test replaying a session. The endpoints
   * that run in the store, and the other endpoints of their resources, it knows by itself.
   * Development builds only, as the devtools: a production build ignores it.
   */
  resources?: readonly object[];
}

/** One change, as an observer sees it. */
export interface StoreRecord {
  action: Action;
  /** The committed state before and after the action. */
  before: State;
  after: State;
  /**
   * What the action did. For a fetch that went optimistic: what its optimistic response did to
   * the state components see. Its `optimistic` part says what the other optimistic responses
   * shown around it did to that state: with it, everything whose value components see may have
   * changed.
   */
  changes: ChangeSet;
  /** The state components see after it: the committed one with pending optimistic responses. */
  view: State;
}

/**
 * Who reads a store's results: the mounted readers a UI binding (restlens/react) registers, by
 * the component that shows each (for tools such as the devtools).
 */
export interface ReaderDirectory {
  /** By result key: the name of each mounted reader's component ('' when it is not known). */
  namesByKey(): Map<string, string[]>;
  /** The names of the mounted readers' components whose data was built from this entity row. */
  namesOfRow(table: string, pk: string): string[];
}

/** A store: its controller, its state, and what observes its changes. */
export interface Store {
  controller: Controller;
  /** The state components see: committed data plus pending optimistic responses. */
  getState(): State;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Calls `observer` with every action that changed the store, the states around it and its
   * change-set; returns the unsubscribe function.
   */
  observe(observer: (record: StoreRecord) => void): () => void;
  /**
   * Its readers, once a UI binding has registered one (restlens/react's first mounted hook), in
   * development builds, where components are named.
   */
  readerDirectory?: ReaderDirectory;
  /**
   * Called when a component starts or stops reading a result of this store (development builds):
   * the devtools listen, to tell a panel at once.
   */
  readerListeners?: Set<() => void>;
}

/** A store and its Controller, independent of any UI framework. */
export function createStore(options: StoreOptions = {}): Store {
  if (process.env.NODE_ENV !== 'production') assertOptions(options);
  let committed = options.initialState ?? initialState();
  let view = committed;
  /** What the pending optimistic responses did to `committed` to make `view` (none: undefined). */
  let optimisticallyApplied: ChangeSet | undefined;
  const listeners = new Set<() => void>();
  const observers = new Set<(record: StoreRecord) => void>();
  // Development builds only, as the devtools that replay by name: production leaves it all out.
  const endpoints =
    process.env.NODE_ENV !== 'production' ? knownEndpoints(options.resources) : undefined;

  const dispatch = (action: Action): AnswerChange | undefined => {
    if (process.env.NODE_ENV !== 'production') {
      controller.causes?.attach(action);
      if (endpoints && (action.type === 'fetch' || action.type === 'setResponse'))
        endpoints.noteRan(action.endpoint);
    }
    const before = committed;
    const reduced = reduce(before, action);
    if (reduced.state === before) return reduced.answer;
    committed = reduced.state;
    let changes = reduced.changes;
    const appliedBefore = optimisticallyApplied;
    if (committed.optimistic.length === 0) {
      view = committed;
      optimisticallyApplied = undefined;
    } else {
      const added =
        committed.optimistic.length > before.optimistic.length
          ? committed.optimistic.at(-1)
          : undefined;
      const optimistic = applyOptimistic(committed, snapshot, added);
      view = optimistic.view;
      changes = optimistic.changes ?? changes;
      optimisticallyApplied = optimistic.applied;
    }
    if (appliedBefore || optimisticallyApplied)
      changes = { ...changes, optimistic: { before: appliedBefore, after: optimisticallyApplied } };
    for (const observer of observers) observer({ action, before, after: committed, changes, view });
    for (const listener of listeners) listener();
    return reduced.answer;
  };
  const getState = () => view;
  const controller = new (options.Controller ?? Controller)({ dispatch, getState, endpoints });
  if (process.env.NODE_ENV !== 'production') {
    controller.causes = new CallCauses();
    controller.causes.wrap(controller);
  }
  const snapshot = controller.snapshot;

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

/** A registry of the endpoints in `resources` (see StoreOptions.resources). */
function knownEndpoints(resources: readonly object[] = []): EndpointRegistry {
  const endpoints = new EndpointRegistry();
  for (const [index, resource] of resources.entries())
    endpoints.add(resource, `createStore: resources[${index}]`);
  return endpoints;
}

/**
 * Refuses, by name, options the store cannot run with: data-client 0.9's state (plain objects)
 * or Controller class look alike, but would fail later, far from where they were given.
 */
function assertOptions({ initialState: state, Controller: ControllerClass }: StoreOptions): void {
  if (state !== undefined && !isState(state)) {
    throw new TypeError(
      "initialState is not a RestLens State (another store's getState(), or initialState()): a data-client state, of plain objects, cannot be read",
    );
  }
  if (
    ControllerClass !== undefined &&
    ControllerClass !== Controller &&
    !(ControllerClass.prototype instanceof Controller)
  ) {
    throw new TypeError(
      "Controller must be RestLens's Controller (exported by restlens and restlens/react) or a class that extends it",
    );
  }
}

function isState(value: State): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const tables = [
    value.entities,
    value.entitiesMeta,
    value.indexes,
    value.rowsHolding,
    value.rowsByFilter,
    value.endpoints,
    value.meta,
  ];
  return tables.every((table) => table instanceof PersistentMap) && Array.isArray(value.optimistic);
}
