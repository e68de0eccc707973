import { type ComponentType, createElement, type ReactElement } from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import type { NetworkError } from '../../src/index.js';
import {
  AsyncBoundary,
  type ErrorFallbackProps,
  NetworkErrorBoundary,
} from '../../src/react/index.js';

/** An error component written for data-client: it takes its NetworkError. */
declare const ErrorPage: ComponentType<{ error: NetworkError; className?: string }>;
declare const children: ReactElement;

describe('NetworkErrorBoundary and AsyncBoundary', () => {
  it('give their error component the NetworkError and the class name', () => {
    expectTypeOf<ErrorFallbackProps>().toEqualTypeOf<{ error: NetworkError; className?: string }>();
    createElement(AsyncBoundary, { fallback: 'loading', errorComponent: ErrorPage, children });
    createElement(AsyncBoundary, { errorClassName: 'error', children });
    createElement(NetworkErrorBoundary, { fallbackComponent: ErrorPage, className: 'x', children });
    createElement(NetworkErrorBoundary, { children });
  });

  it('refuse an error component that expects something else, and unknown props', () => {
    const TextError = (_props: { error: string }) => null;
    // @ts-expect-error the error is a NetworkError, not a string
    createElement(AsyncBoundary, { errorComponent: TextError, children });
    // @ts-expect-error NetworkErrorBoundary's fallback is `fallbackComponent`
    createElement(NetworkErrorBoundary, { errorComponent: ErrorPage, children });
  });

  it('NetworkErrorBoundary can be typed by a narrower error', () => {
    type NotFound = NetworkError & { status: 404 };
    const NotFoundPage = ({ error }: ErrorFallbackProps<NotFound>) => {
      expectTypeOf(error.status).toEqualTypeOf<404>();
      return null;
    };
    createElement(NetworkErrorBoundary<NotFound>, { fallbackComponent: NotFoundPage, children });
  });
});
