import { type ComponentType, createElement, type ReactElement } from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import { Controller, createStore, type NetworkError } from '../../src/index.js';
import {
  AsyncBoundary,
  CacheProvider,
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

describe('CacheProvider', () => {
  it('takes data-client’s props that have a counterpart', () => {
    class AppController extends Controller {
      hello = () => 'hello';
    }
    createElement(CacheProvider, {
      initialState: createStore().getState(),
      Controller: AppController,
      devButton: 'bottom-right',
      children,
    });
    createElement(CacheProvider, { devButton: null, children });
  });

  it('refuses managers, a data-client state, a foreign Controller and an unknown position', () => {
    // @ts-expect-error RestLens has no managers
    createElement(CacheProvider, { managers: [], children });
    // @ts-expect-error a data-client state (plain objects) is not a RestLens State
    createElement(CacheProvider, { initialState: { entities: {}, results: {} }, children });
    class Unrelated {
      fetch = () => Promise.resolve();
    }
    // @ts-expect-error the Controller must be RestLens's or extend it
    createElement(CacheProvider, { Controller: Unrelated, children });
    // @ts-expect-error data-client's positions are the four corners
    createElement(CacheProvider, { devButton: 'middle', children });
  });
});
