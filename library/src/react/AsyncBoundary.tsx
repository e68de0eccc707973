import { type ComponentType, type ReactElement, type ReactNode, Suspense } from 'react';
import type { NetworkError } from '../rest/NetworkError.js';
import { type ErrorFallbackProps, NetworkErrorBoundary } from './NetworkErrorBoundary.js';

/** Props of `AsyncBoundary`. */
export interface AsyncBoundaryProps {
  children?: ReactNode;
  /** Shown while a child suspends (Suspense's `fallback`). */
  fallback?: ReactNode;
  /** Given to `errorComponent` as its `className`. */
  errorClassName?: string;
  /** Shown for an error with a `status` (see NetworkErrorBoundary); the status and its text by default. */
  errorComponent?: ComponentType<ErrorFallbackProps<NetworkError>>;
}

/**
 * The loading and error states of the data below it in one element, as data-client 0.9's:
 * `Suspense` with `fallback`, around a NetworkErrorBoundary showing `errorComponent`.
 */
export function AsyncBoundary({
  children,
  fallback,
  errorClassName,
  errorComponent,
}: AsyncBoundaryProps): ReactElement {
  return (
    <Suspense fallback={fallback}>
      <NetworkErrorBoundary className={errorClassName} fallbackComponent={errorComponent}>
        {children}
      </NetworkErrorBoundary>
    </Suspense>
  );
}
