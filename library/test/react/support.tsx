import { type RenderOptions, render, screen } from '@testing-library/react';
import { Component, type ReactNode, Suspense, useEffect } from 'react';
import { createResource, Entity } from '../../src/index.js';
import { DataProvider } from '../../src/react/index.js';
import type { Store } from '../../src/store/createStore.js';
import { Todo, User } from '../fixtures.js';
import type { TodoRecord } from '../helpers/server.js';

export { Todo, User };

/** The body the test server accepts for a todo. */
export type TodoBody = Partial<Omit<TodoRecord, 'id'>>;

/** `/todos/:id` on the test server, with page pagination and a `userId` filter. */
export function todoResource(urlPrefix: string, options: { dataExpiryLength?: number } = {}) {
  return createResource({
    path: '/todos/:id',
    schema: Todo,
    urlPrefix,
    searchParams: {} as { userId?: number },
    body: {} as TodoBody,
    paginationField: 'page',
    ...options,
  });
}

/** `/users/:id` (the test server has no such route: tests answer with `respondNext`). */
export function userResource(urlPrefix: string) {
  return createResource({ path: '/users/:id', schema: User, urlPrefix });
}

/** An entity that is not in any fixture, to check entity instances are built per class. */
export class Plain extends Entity {
  id = 0;
  pk() {
    return this.id;
  }
  static override key = 'Plain';
}

/** Counts how often a Suspense fallback was committed (shown); keeps what the boundary caught. */
export class FallbackLog {
  shown = 0;
  readonly caught: unknown[] = [];
  readonly Fallback = () => {
    useEffect(() => {
      this.shown++;
    }, []);
    return <p>loading</p>;
  };
}

interface BoundaryState {
  error: unknown;
}

/** Shows `error: <message> (status N)` for the error it caught, and tells `onError`. */
export class ErrorBoundary extends Component<
  { children?: ReactNode; onError?: (error: unknown) => void },
  BoundaryState
> {
  override state: BoundaryState = { error: undefined };
  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError?.(error);
  }
  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const status = (error as { status?: unknown }).status;
    return (
      <p role="alert">
        error: {(error as Error).message} (status {String(status)})
      </p>
    );
  }
}

/** DataProvider + ErrorBoundary + Suspense around `children`. */
export function App({
  store,
  log,
  children,
}: {
  store?: Store;
  log: FallbackLog;
  children?: ReactNode;
}) {
  return (
    <DataProvider {...(store ? { store } : {})}>
      <ErrorBoundary onError={(error) => log.caught.push(error)}>
        <Suspense fallback={<log.Fallback />}>{children}</Suspense>
      </ErrorBoundary>
    </DataProvider>
  );
}

/**
 * Renders `children` in an App with a new FallbackLog (and `store`, when given), passing the
 * other options to `render`; returns the log.
 */
export function renderInApp(
  children: ReactNode,
  { store, ...options }: { store?: Store } & Omit<RenderOptions, 'queries'> = {},
): FallbackLog {
  const log = new FallbackLog();
  render(
    <App store={store} log={log}>
      {children}
    </App>,
    options,
  );
  return log;
}

/** `METHOD /url` of each request, for compact assertions. */
export function requestLines(requests: readonly { method: string; url: string }[]): string[] {
  return requests.map((request) => `${request.method} ${request.url}`);
}

/**
 * Whether `text` is on screen. Content that suspends again is hidden (React keeps it mounted
 * with `display: none`) or removed (preact): either way it is not shown.
 */
export function isShown(text: string | RegExp): boolean {
  const element = screen.queryByText(text);
  return element !== null && element.style.display !== 'none';
}
