import { Component, type ComponentType, type ReactElement, type ReactNode } from 'react';
import type { NetworkError } from '../rest/NetworkError.js';

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

/**
 * Catches the errors of its children that have a `status` — a request's `NetworkError`, a
 * response that did not fit its schema (`SchemaError`, 400) — and shows `fallbackComponent` with
 * the error instead, as data-client 0.9's. Any other error goes on to the next error boundary up:
 * those are bugs, not answers of the server. It shows the fallback until it is mounted again.
 */
export class NetworkErrorBoundary<E extends NetworkError = NetworkError> extends Component<
  NetworkErrorBoundaryProps<E>,
  BoundaryState<E>
> {
  override state: BoundaryState<E> = {};

  static getDerivedStateFromError(error: unknown): BoundaryState<unknown> {
    // Throwing here hands the error to the boundaries above, in React and in preact/compat.
    if (typeof error !== 'object' || error === null || !('status' in error)) throw error;
    return { error };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const Fallback: ComponentType<ErrorFallbackProps<E>> =
      this.props.fallbackComponent ?? StatusFallback;
    return <Fallback error={error} className={this.props.className} />;
  }
}
