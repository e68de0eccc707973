import { Component, type ComponentType, type ReactElement, type ReactNode } from 'react';
import type { NetworkError } from '../rest/NetworkError.js';
import type { Store } from '../store/createStore.js';
import { errorOf } from '../store/reading.js';
import type { State } from '../store/state.js';
import { StoreContext } from './context.js';

/** What a NetworkErrorBoundary's fallback component is given. */
export interface ErrorFallbackProps<E extends NetworkError = NetworkError> {
  error: E;
  /** The boundary's `className`, when it has one. */
  className?: string;
}

/** Props of `NetworkErrorBoundary`. */
export interface NetworkErrorBoundaryProps<E extends NetworkError = NetworkError> {
  children?: ReactNode;
  /** Given to the fallback component. */
  className?: string;
  /** Shown in place of the children once they threw an error with a `status`. */
  fallbackComponent?: ComponentType<ErrorFallbackProps<E>>;
}

interface BoundaryState<E> {
  error?: E;
}

/** data-client's default fallback: the status and the response's status text. */
function StatusFallback({ error, className }: ErrorFallbackProps): ReactElement {
  return (
    <div className={className}>
      {error.status} {error.response?.statusText}
    </div>
  );
}

/** The key of the stored result whose error this is, if the store holds it. */
function keyOfError(state: State, error: unknown): string | undefined {
  for (const [key, meta] of state.meta.entries()) if (meta.error === error) return key;
  return undefined;
}

/**
 * Catches the errors of its children that have a `status` — a request's `NetworkError`, a
 * response that did not fit its schema (`SchemaError`, 400) — and shows `fallbackComponent` with
 * the error instead, as data-client 0.9's. Any other error goes on to the next error boundary up:
 * those are bugs, not answers of the server. It shows the fallback until it is mounted again or,
 * for an error the store holds for a result, until the store no longer shows it (a fetch of that
 * result brought data): then its children read again.
 */
export class NetworkErrorBoundary<E extends NetworkError = NetworkError> extends Component<
  NetworkErrorBoundaryProps<E>,
  BoundaryState<E>
> {
  static override contextType = StoreContext;
  declare context: Store | null;
  override state: BoundaryState<E> = {};
  /** Set while it waits for the store to let the error it shows go. */
  private stopWatching: (() => void) | undefined = undefined;

  static getDerivedStateFromError(error: unknown): BoundaryState<unknown> {
    // Throwing here hands the error to the boundaries above, in React and in preact/compat.
    if (typeof error !== 'object' || error === null || !('status' in error)) throw error;
    return { error };
  }

  override componentDidMount(): void {
    this.watchError();
  }

  override componentDidUpdate(): void {
    this.watchError();
  }

  override componentWillUnmount(): void {
    this.stopWatching?.();
  }

  /** While it shows an error the store holds, it listens for the store to let it go. */
  private watchError(): void {
    const { error } = this.state;
    const store = this.context;
    if (error === undefined || store === null || this.stopWatching !== undefined) return;
    // Found once, when the error is caught; each change then costs one read of that key.
    const key = keyOfError(store.getState(), error);
    if (key === undefined) return;
    const unsubscribe = store.subscribe(() => {
      if (errorOf(store.getState(), key) === error) return;
      unsubscribe();
      this.stopWatching = undefined;
      this.setState({ error: undefined });
    });
    this.stopWatching = unsubscribe;
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const Fallback: ComponentType<ErrorFallbackProps<E>> =
      this.props.fallbackComponent ?? StatusFallback;
    return <Fallback error={error} className={this.props.className} />;
  }
}
